package org.nakcast.transport.media;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * A non-blocking socket that has joined a multicast group on one interface and reads the datagrams
 * sent to one port, one at a time, whatever number of them the media takes from the kernel per
 * system call, and tells where each came from. Used by one thread.
 */
public interface DatagramReceiver extends AutoCloseable {
    /**
     * Reads one datagram if one is waiting. The caller reads until it gets 0 or less, and comes back
     * at its next poll.
     *
     * @return its length; 0 if none was waiting, or if the receiver ends the caller's poll here (one
     *     may wait: the next call reads it); -1 if the socket failed (counted as an error)
     */
    int receive();

    /**
     * The datagram the last {@link #receive()} returned, at offset 0; valid until the next call.
     * The same buffer instance every time.
     */
    UnsafeBuffer buffer();

    /**
     * Where the datagram the last {@link #receive()} returned came from: the sender's address and
     * port, valid until the next call. The same instance every time.
     */
    DatagramSource source();

    @Override
    void close();
}
