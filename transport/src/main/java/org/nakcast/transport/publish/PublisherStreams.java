package org.nakcast.transport.publish;

import java.util.ArrayList;
import java.util.List;

import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Long2ObjectHashMap;
import org.nakcast.transport.PublisherEventListener;
import org.nakcast.transport.media.DatagramSink;
import org.nakcast.transport.media.DatagramSource;
import org.nakcast.transport.media.Line;
import org.nakcast.transport.media.MulticastAddress;
import org.nakcast.transport.protocol.DatagramValidator;
import org.nakcast.transport.protocol.FrameType;
import org.nakcast.transport.protocol.HeaderFlyweight;
import org.nakcast.transport.protocol.NakFlyweight;
import org.nakcast.transport.protocol.StatusFlyweight;
import org.nakcast.transport.status.DatagramCheck;
import org.nakcast.transport.status.SystemCounters;

/**
 * Every publisher stream of a node, and the rules of its sending side: how a stream is built from
 * its settings (history, rate limiter, flow control), what a control datagram heard on a
 * transport's control port means (a NAK or a STATUS for one of the streams), and when each stream
 * sends. Free of sockets, threads and clocks: the {@link SenderAgent} feeds it what its sockets
 * read and the time, and so does the deterministic simulation in the tests.
 *
 * <pre>
 *   control port --datagram, source--> onControlDatagram --NAK--> stream.onNak    (source's share,
 *                                                                           RETRANSMIT / UNRECOVERABLE)
 *                                                        --STATUS-> stream.onStatus (pinned, flow control)
 *   doWork(now) --> each stream: heartbeat, repairs, sealed datagrams, new offers --> its sink
 * </pre>
 *
 * <p>Not thread-safe: one sending thread owns it. Allocation-free after a stream is added.
 */
public final class PublisherStreams {
    private final SystemCounters counters;
    private final PublisherEventListener events;
    private final List<OutboundStream> streams = new ArrayList<>();
    private final Long2ObjectHashMap<OutboundStream> streamsByKey = new Long2ObjectHashMap<>();
    private final NakFlyweight nak = new NakFlyweight();
    private final StatusFlyweight status = new StatusFlyweight();

    /**
     * @param counters the node's counters
     * @param events told when flow control drops a receiver or a receiver asks for what is gone
     */
    public PublisherStreams(SystemCounters counters, PublisherEventListener events) {
        this.counters = counters;
        this.events = events;
    }

    /**
     * Builds and adds a stream at once; for a single-threaded driver. A node builds the stream on
     * the application's thread ({@link #create}) and adds it on the sending thread ({@link #attach}).
     *
     * @param settings the stream's settings
     * @param offers what the application offers into
     * @param sink where the stream's datagrams go
     */
    public void add(PublicationSettings settings, OfferBuffer offers, DatagramSink sink) {
        attach(create(settings, offers, sink));
    }

    /**
     * Builds a stream: allocates its history and flow control. Any thread; the stream does nothing
     * until it is {@linkplain #attach attached}.
     */
    OutboundStream create(PublicationSettings settings, OfferBuffer offers, DatagramSink sink) {
        final DatagramHistory history = new DatagramHistory(settings.historyBytes(), settings.datagramLength());
        final SendRateLimiter limiter = settings.sendRateBytesPerSecond() == 0
            ? SendRateLimiter.unpaced()
            : new SendRateLimiter(settings.sendRateBytesPerSecond(), settings.burstBytes());
        final FlowControl flowControl = flowControl(settings, history);
        offers.connected(flowControl.hasReceivers());
        final RepairBudget repairs = new RepairBudget(
            settings.repairRateBytesPerSecond(), settings.repairBurstBytes(), settings.repairPercentOfData());
        final OutboundStream stream = new OutboundStream(settings.sessionId(), settings.topicId(),
            settings.publisherId(), settings.timing(), offers, history, limiter, repairs, flowControl, events, sink,
            counters);
        stream.reportPosition(counters.streams(), settings.topicName());
        return stream;
    }

    /** Makes a stream built by {@link #create} send; on the sending thread. */
    void attach(OutboundStream stream) {
        streams.add(stream);
        streamsByKey.put(streamKey(stream.sessionId(), stream.topicId()), stream);
    }

    /**
     * The stream's flow control. With {@code min} it may run half its history ahead of the slowest
     * receiver: what that receiver still misses stays in history, with room to repair it.
     */
    private FlowControl flowControl(PublicationSettings settings, DatagramHistory history) {
        if (!settings.minFlowControl()) {
            return FlowControl.MAX;
        }
        return new MinFlowControl(settings.topicId(), settings.sessionId(),
            settings.lines().stream().map(Line::address).toList(), history.capacity() / 2,
            settings.flowControlTimeoutNs(), history.capacity(), events, counters);
    }

    /** How many datagrams the history of a publication with these settings keeps. */
    public static int historyDatagrams(PublicationSettings settings) {
        return DatagramHistory.slotsFor(settings.historyBytes(), settings.datagramLength());
    }

    /** The most bytes one message may have on a publication with these settings. */
    public static int maxMessageLength(PublicationSettings settings) {
        final int slots = DatagramHistory.slotsFor(settings.historyBytes(), settings.datagramLength());
        return (slots / 2) * OutboundStream.maxFragmentLength(settings.datagramLength());
    }

    /**
     * One datagram heard on a control port: checked, then a NAK or STATUS goes to its stream; any
     * other datagram, or one for a stream not published here, is ignored (malformed ones counted).
     *
     * @param on the address of the line whose control port heard it
     * @param source where it came from: NAKs are charged to their source's repair share, STATUS
     *     pinned to their receiver's address
     * @return datagrams sent in answer
     */
    public int onControlDatagram(MulticastAddress on, DatagramSource source, MutableDirectBuffer buffer, int offset,
        int length, long nowNs) {
        final DatagramCheck check = DatagramValidator.check(buffer, offset, length, FrameType.Port.CONTROL);
        if (check != DatagramCheck.VALID) {
            counters.countMalformed(check);
            return 0;
        }
        final int type = HeaderFlyweight.typeCodeAt(buffer, offset);
        if (type == FrameType.NAK.code()) {
            nak.wrap(buffer, offset);
            final OutboundStream stream = streamsByKey.get(streamKey(nak.sessionId(), nak.topicId()));
            return stream == null ? 0 : stream.onNak(source, nak, nowNs);
        }
        if (type == FrameType.STATUS.code()) {
            status.wrap(buffer, offset);
            final OutboundStream stream = streamsByKey.get(streamKey(status.sessionId(), status.topicId()));
            if (stream != null) {
                stream.onStatus(on, source, status.receiverId(), status.sequence(), nowNs);
            }
        }
        return 0;
    }

    /**
     * Lets every stream send what is due, and frees the streams of closed publications that are
     * finished (everything sent, the end marked, the linger over).
     *
     * @return work done (0 when idle)
     */
    public int doWork(long nowNs) {
        int work = 0;
        for (int i = streams.size() - 1; i >= 0; i--) {
            final OutboundStream stream = streams.get(i);
            work += stream.doWork(nowNs);
            if (stream.isFinished(nowNs)) {
                streams.remove(i);
                streamsByKey.remove(streamKey(stream.sessionId(), stream.topicId()));
                stream.close();
                work++;
            }
        }
        return work;
    }

    /** How many streams are live: not yet finished. */
    public int streamCount() {
        return streams.size();
    }

    /**
     * The oldest datagram sequence the stream still holds for repairs, or -1 if no such stream is
     * published here: what a receiver can still be given.
     */
    public long oldestRetained(int topicId, int sessionId) {
        final OutboundStream stream = streamsByKey.get(streamKey(sessionId, topicId));
        return stream == null ? -1 : stream.oldestRetained();
    }

    /** Frees every stream's history and counters; the streams send nothing after. */
    public void close() {
        streams.forEach(OutboundStream::close);
        streams.clear();
        streamsByKey.clear();
    }

    private static long streamKey(int sessionId, int topicId) {
        return ((long) sessionId << 32) | (topicId & 0xFFFF_FFFFL);
    }
}
