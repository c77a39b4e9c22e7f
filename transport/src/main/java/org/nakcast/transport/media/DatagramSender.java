package org.nakcast.transport.media;

/**
 * A non-blocking socket that sends datagrams to one multicast group and port out of one interface.
 * A media may hold the datagrams given to {@link #send} and hand them to the kernel together, up to
 * the next {@link #flush()}, which the agent calls at the end of every duty cycle, so nothing waits
 * longer than the cycle that made it. Used by one thread.
 */
public interface DatagramSender extends DatagramSink, AutoCloseable {
    /**
     * Hands the datagrams held to the kernel. What the kernel refuses is counted as failed sends,
     * as {@link #send} counts its own refusals; the protocol repairs them as any loss.
     */
    void flush();

    @Override
    void close();
}
