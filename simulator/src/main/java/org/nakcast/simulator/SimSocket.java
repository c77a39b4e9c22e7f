package org.nakcast.simulator;

import java.util.ArrayDeque;
import org.nakcast.transport.protocol.FrameType;

/**
 * One receiving socket of a simulated process: it listens on one port of one line and queues what
 * arrives, up to its receive buffer's worth of datagrams; what it has no room for is dropped, as
 * the kernel drops what a full socket buffer cannot take.
 */
final class SimSocket {
    final int line;
    final FrameType.Port port;
    private final int limit;
    private final ArrayDeque<Arrival> queue = new ArrayDeque<>();
    private boolean open = true;

    SimSocket(int line, FrameType.Port port, int limit) {
        this.line = line;
        this.port = port;
        this.limit = limit;
    }

    /** A datagram queued: the host that sent it, the host whose address it came from, its bytes. */
    record Arrival(int from, int source, byte[] datagram) {
    }

    /**
     * Queues a datagram that host {@code from} sent, from the address of host {@code source}; false
     * if the queue was full and it was dropped.
     */
    boolean offer(int from, int source, byte[] datagram) {
        if (queue.size() >= limit) {
            return false;
        }
        queue.add(new Arrival(from, source, datagram));
        return true;
    }

    /** The datagram waiting longest, or null. */
    Arrival poll() {
        return queue.poll();
    }

    boolean isOpen() {
        return open;
    }

    /** Closes the socket: what waits is gone, nothing more arrives. */
    void close() {
        open = false;
        queue.clear();
    }
}
