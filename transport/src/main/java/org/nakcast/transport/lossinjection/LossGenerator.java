package org.nakcast.transport.lossinjection;

import org.agrona.DirectBuffer;

/**
 * Decides whether to drop a datagram on purpose: the seam through which tests and benchmarks
 * inject loss on the send or the receive path, for data and for control datagrams alike.
 */
@FunctionalInterface
public interface LossGenerator {
    /** Never drops. */
    LossGenerator NONE = (buffer, offset, length) -> false;

    /**
     * Whether the datagram of {@code length} bytes at {@code offset} should be dropped.
     * Called on the sending or receiving thread; must not allocate.
     */
    boolean shouldDrop(DirectBuffer buffer, int offset, int length);
}
