package org.nakcast.transport.media;

import org.agrona.DirectBuffer;

/**
 * Where a protocol component hands a finished datagram: a socket in a node, a list in a test.
 */
@FunctionalInterface
public interface DatagramSink {
    /**
     * Sends one datagram.
     *
     * @return true if it was handed to the network; false if it was not (the caller may retry
     *     later; the failure is counted by the sink)
     */
    boolean send(DirectBuffer buffer, int offset, int length);
}
