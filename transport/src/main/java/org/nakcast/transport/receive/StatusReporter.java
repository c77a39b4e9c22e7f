package org.nakcast.transport.receive;

import java.nio.ByteBuffer;

import org.agrona.concurrent.UnsafeBuffer;
import org.nakcast.transport.media.DatagramSink;
import org.nakcast.transport.protocol.FrameType;
import org.nakcast.transport.protocol.StatusFlyweight;

/**
 * Tells a publisher how far this receiver has consumed one stream, for flow control {@code min}:
 * a STATUS at most every {@link #MIN_INTERVAL_NS} while the position moves, and one every
 * keep-alive interval while it does not, so the publisher knows this receiver is alive. Sooner
 * when the publisher asks: once the position has passed a datagram that wanted a STATUS (a DATA
 * with {@code STATUS_WANTED}, which the publisher sets every quarter window), one goes at the next
 * poll, whatever the interval; several such datagrams passed between two polls make one STATUS. So
 * a stream that sends its window in less than the interval is not held waiting for the report. A
 * STATUS the network refuses is tried again at the next poll. Allocation-free after construction.
 */
final class StatusReporter {
    /** The shortest time between two STATUS of one stream. */
    static final long MIN_INTERVAL_NS = 1_000_000;

    private final DatagramSink sink;
    private final long keepAliveNs;
    private final StatusFlyweight status = new StatusFlyweight();
    private long sentNs = Long.MIN_VALUE;
    private long sentPosition = -1;
    /** The highest sequence taken that wanted a STATUS once passed; -1 for none. */
    private long wantedPast = -1;

    /**
     * @param sessionId the stream's publisher session
     * @param topicId the stream's topic
     * @param receiverId this receiver
     * @param sink where STATUS go (the control port)
     * @param keepAliveNs the longest time between two STATUS
     */
    StatusReporter(int sessionId, int topicId, int receiverId, DatagramSink sink, long keepAliveNs) {
        this.sink = sink;
        this.keepAliveNs = keepAliveNs;
        status.wrap(new UnsafeBuffer(ByteBuffer.allocateDirect(StatusFlyweight.STATUS_LENGTH)), 0);
        status.writeHeader(FrameType.STATUS, StatusFlyweight.STATUS_LENGTH, sessionId, topicId, 0);
        status.receiverId(receiverId);
    }

    /** A datagram that wants a STATUS once the position has passed it was taken. */
    void wantedPast(long sequence) {
        wantedPast = Math.max(wantedPast, sequence);
    }

    /**
     * Sends a STATUS if one is due.
     *
     * @param nextNeeded the next sequence the stream needs: everything below it is delivered
     * @return 1 if a STATUS went out, else 0
     */
    int poll(long nextNeeded, long nowNs) {
        final long sinceNs = nowNs - sentNs;
        final boolean due = sentNs == Long.MIN_VALUE
            || sinceNs >= keepAliveNs
            || nextNeeded != sentPosition && sinceNs >= MIN_INTERVAL_NS
            || nextNeeded > wantedPast && wantedPast >= sentPosition;
        if (!due) {
            return 0;
        }
        status.sequence(nextNeeded);
        if (!sink.send(status.buffer(), 0, StatusFlyweight.STATUS_LENGTH)) {
            return 0;
        }
        sentNs = nowNs;
        sentPosition = nextNeeded;
        return 1;
    }
}
