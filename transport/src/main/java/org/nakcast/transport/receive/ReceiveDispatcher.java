package org.nakcast.transport.receive;

import java.util.SplittableRandom;

import org.agrona.ErrorHandler;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Int2ObjectHashMap;
import org.nakcast.transport.media.DatagramSink;
import org.nakcast.transport.media.DatagramSource;
import org.nakcast.transport.media.MulticastAddress;
import org.nakcast.transport.protocol.DatagramValidator;
import org.nakcast.transport.protocol.FrameType;
import org.nakcast.transport.protocol.HeaderFlyweight;
import org.nakcast.transport.protocol.NakFlyweight;
import org.nakcast.transport.protocol.StatusFlyweight;
import org.nakcast.transport.status.DatagramCheck;
import org.nakcast.transport.status.SystemCounter;
import org.nakcast.transport.status.SystemCounters;

/**
 * The front of a node's receiving side: checks each datagram heard and routes it to its topic's
 * streams ({@link TopicStreams}, which own each stream's life) by topic and publisher session. A
 * datagram from a data port goes to the stream of its (topic, session); one from a control port is
 * another receiver's NAK, which keeps this receiver quiet about the ranges it asks for, or its
 * STATUS, which tells how many receivers share the stream. A datagram for a topic nobody here
 * subscribed to is counted and dropped: such a topic costs no buffers; one that fails the checks,
 * or of a type that does not belong on its port, is malformed.
 *
 * <pre>
 *   data port    --datagram--> onDataDatagram    --> topic, line --> TopicStreams --> source? --> stream
 *   control port --datagram--> onControlDatagram --> topic --> stream.onNakHeard / onStatusHeard
 *   poll(now)    --> each topic's streams: deliver, NAK, STATUS; ended and silent streams end
 * </pre>
 *
 * <p>Free of sockets, threads and clocks: the {@link ReceiverAgent} feeds it what its sockets read
 * and the time. Not thread-safe: one receiving thread owns it.
 */
public final class ReceiveDispatcher {
    /** How often silent streams are looked for: a millisecond. */
    private static final long SILENCE_CHECK_INTERVAL_NS = 1_000_000;
    /** A gap between two polls longer than this is time this receiver was stopped, not listening. */
    private static final long STALL_NS = 5_000_000;

    private final SystemCounters counters;
    private final int receiverId;
    private final SplittableRandom random;
    private final ReceiverLog log;
    private final ErrorHandler errorHandler;
    private final Int2ObjectHashMap<TopicStreams> topics = new Int2ObjectHashMap<>();
    private final HeaderFlyweight header = new HeaderFlyweight();
    private final NakFlyweight nak = new NakFlyweight();
    private final StatusFlyweight status = new StatusFlyweight();
    private long lastSilenceCheckNs = Long.MIN_VALUE;
    private long lastPollNs = Long.MIN_VALUE;

    /**
     * @param counters the node's counters
     * @param receiverId this receiver's id, carried in its NAKs and STATUS
     * @param seed seeds the NAK delays
     * @param log told of stream ends, losses and refused sessions
     * @param errorHandler told of every exception a subscription's callbacks throw
     */
    public ReceiveDispatcher(
        SystemCounters counters, int receiverId, long seed, ReceiverLog log, ErrorHandler errorHandler) {
        this.counters = counters;
        this.receiverId = receiverId;
        this.random = new SplittableRandom(seed);
        this.log = log;
        this.errorHandler = errorHandler;
    }

    /** How many publisher streams this receiver keeps, over every topic: at most their max-publishers. */
    public int streamCount() {
        int count = 0;
        for (TopicStreams topic : topics.values()) {
            count += topic.size();
        }
        return count;
    }

    /** This receiver's id, carried in its NAKs. */
    public int receiverId() {
        return receiverId;
    }

    /**
     * Adds a subscription to a topic.
     *
     * @param settings the topic's settings
     * @param target where the subscription's messages and events go
     * @param nakSink where the topic's streams send NAKs and STATUS (its transport's control port)
     * @param nakBuffer where they build them
     * @param nowNs the time: sessions of the topic begun later are owed from their first message
     */
    public void addSubscription(SubscriptionSettings settings, DeliveryTarget target, DatagramSink nakSink,
        MutableDirectBuffer nakBuffer, long nowNs) {
        TopicStreams topic = topics.get(settings.topicId());
        if (topic == null) {
            topic = new TopicStreams(new TopicReceiver(settings, log, errorHandler, counters), receiverId,
                random, counters, nakSink, nakBuffer, nowNs);
            topics.put(settings.topicId(), topic);
        }
        topic.receiver().add(target);
    }

    /** Ends the subscription {@code target}; its topic's streams go when the topic has none left. */
    public void removeSubscription(int topicId, DeliveryTarget target) {
        final TopicStreams topic = topics.get(topicId);
        if (topic != null && topic.receiver().remove(target)) {
            topics.remove(topicId);
            topic.close();
        }
    }

    /**
     * One datagram heard on a data port, read only during the call. A datagram of a topic heard on
     * a line the topic does not travel on is not this topic's: counted as not subscribed, and dropped.
     *
     * @param line the address of the transport whose data port heard it
     * @param source where it came from: a session's datagrams count only from the source it was first
     *     heard from on that line
     * @return 1 (work done)
     */
    public int onDataDatagram(MulticastAddress line, DatagramSource source, MutableDirectBuffer buffer, int offset,
        int length, long nowNs) {
        final DatagramCheck check = DatagramValidator.check(buffer, offset, length, FrameType.Port.DATA);
        if (check != DatagramCheck.VALID) {
            counters.countMalformed(check);
            return 1;
        }
        header.wrap(buffer, offset);
        final TopicStreams topic = topics.get(header.topicId());
        final int lineIndex = topic == null ? -1 : topic.lineOf(line);
        if (lineIndex < 0) {
            counters.get(SystemCounter.NOT_SUBSCRIBED).increment();
            return 1;
        }
        topic.onDatagram(lineIndex, source, buffer, offset, length, nowNs);
        return 1;
    }

    /**
     * One datagram heard on a control port, read only during the call: another receiver's NAK
     * postpones this receiver's own for what it covers, and its NAKs and STATUS tell how many
     * receivers share the stream (the NAK delay widens with them). This receiver's own come back too,
     * and are ignored.
     *
     * @return 1 (work done)
     */
    public int onControlDatagram(MutableDirectBuffer buffer, int offset, int length, long nowNs) {
        final DatagramCheck check = DatagramValidator.check(buffer, offset, length, FrameType.Port.CONTROL);
        if (check != DatagramCheck.VALID) {
            counters.countMalformed(check);
            return 1;
        }
        header.wrap(buffer, offset);
        final TopicStreams topic = topics.get(header.topicId());
        if (header.typeCode() == FrameType.STATUS.code()) {
            status.wrap(buffer, offset);
            if (topic != null && status.receiverId() != receiverId) {
                topic.onStatusHeard(status.sessionId(), status.receiverId(), nowNs);
            }
        } else {
            nak.wrap(buffer, offset);
            if (topic != null && nak.receiverId() != receiverId) {
                topic.onNakHeard(nak, nowNs);
            }
        }
        return 1;
    }

    /**
     * Lets every stream deliver what it holds and send the NAKs and STATUS that are due, and ends
     * the streams whose publisher ended them and those silent for too long (looked for at most
     * every {@link #SILENCE_CHECK_INTERVAL_NS}: timeouts are counted in seconds, and a round that
     * waits for a datagram should not walk every stream). A poll that comes more than
     * {@link #STALL_NS} after the last finds this receiver was stopped: the stop is forgiven every
     * stream as silence.
     *
     * @return work done (0 when idle)
     */
    public int poll(long nowNs) {
        if (lastPollNs != Long.MIN_VALUE && nowNs - lastPollNs > STALL_NS) {
            for (TopicStreams topic : topics.values()) {
                topic.creditSilence(nowNs - lastPollNs, nowNs);
            }
        }
        lastPollNs = nowNs;
        int work = 0;
        for (TopicStreams topic : topics.values()) {
            work += topic.poll(nowNs);
        }
        for (TopicStreams topic : topics.values()) {
            topic.receiver().poll();
        }
        for (TopicStreams topic : topics.values()) {
            work += topic.endEndedStreams(nowNs);
        }
        if (lastSilenceCheckNs == Long.MIN_VALUE || nowNs - lastSilenceCheckNs >= SILENCE_CHECK_INTERVAL_NS) {
            lastSilenceCheckNs = nowNs;
            for (TopicStreams topic : topics.values()) {
                work += topic.endSilentStreams(nowNs);
            }
        }
        return work;
    }

    /** Frees every stream; nothing is delivered after. */
    public void close() {
        topics.values().forEach(TopicStreams::close);
        topics.clear();
    }
}
