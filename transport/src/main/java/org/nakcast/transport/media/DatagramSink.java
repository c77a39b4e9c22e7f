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
     * @return true if it was taken: handed to the network, or held by a media that sends what it
     *     holds at its next flush ({@link DatagramSender}); false if it was not (the caller may
     *     retry later; the failure is counted by the sink)
     */
    boolean send(DirectBuffer buffer, int offset, int length);
}
