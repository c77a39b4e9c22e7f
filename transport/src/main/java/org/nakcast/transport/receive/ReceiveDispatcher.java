package org.nakcast.transport.receive;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.agrona.ErrorHandler;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Int2ObjectHashMap;
import org.nakcast.config.LateJoinPolicy;
import org.nakcast.transport.PublisherGone;
import org.nakcast.transport.media.DatagramSink;
import org.nakcast.transport.protocol.DatagramCheck;
import org.nakcast.transport.protocol.DatagramValidator;
import org.nakcast.transport.protocol.FrameType;
import org.nakcast.transport.protocol.HeaderFlyweight;
import org.nakcast.transport.protocol.HeartbeatFlyweight;
import org.nakcast.transport.protocol.NakFlyweight;
import org.nakcast.transport.protocol.UnrecoverableFlyweight;
import org.nakcast.transport.status.SystemCounter;
import org.nakcast.transport.status.SystemCounters;

/**
 * The rules of a node's receiving side: which publisher streams exist, and what each datagram heard
 * means for them. A datagram from a data port is checked, then goes to the stream of its (topic,
 * publisher session), which is made when a session is first heard (late join) and ended when its
 * publisher falls silent or restarts; one from a control port is another receiver's NAK, which
 * keeps this receiver quiet about the ranges it asks for. A datagram for a topic nobody here
 * subscribed to is counted and dropped: such a topic costs no buffers.
 *
 * <pre>
 *   data port    --datagram--> onDataDatagram    --> topic --> stream (made on first contact)
 *   control port --datagram--> onControlDatagram --> stream.onNakHeard (suppression)
 *   poll(now)    --> each stream: deliver, NAK, STATUS; streams silent too long end
 * </pre>
 *
 * <p>Free of sockets, threads and clocks: the {@link ReceiverAgent} feeds it what its sockets read
 * and the time, and so does the deterministic simulation in the tests. Not thread-safe: one
 * receiving thread owns it.
 */
public final class ReceiveDispatcher {
    /** How often silent streams are looked for: a millisecond. */
    private static final long SILENCE_CHECK_INTERVAL_NS = 1_000_000;

    private final SystemCounters counters;
    private final int receiverId;
    private final SplittableRandom random;
    private final ReceiverLog log;
    private final ErrorHandler errorHandler;
    private final Int2ObjectHashMap<TopicReceiver> topics = new Int2ObjectHashMap<>();
    private final List<InboundStream> streams = new ArrayList<>();
    private final HeaderFlyweight header = new HeaderFlyweight();
    private final NakFlyweight nak = new NakFlyweight();
    private final UnrecoverableFlyweight unrecoverable = new UnrecoverableFlyweight();
    private final HeartbeatFlyweight heartbeat = new HeartbeatFlyweight();
    private long lastSilenceCheckNs = Long.MIN_VALUE;

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
     */
    public void addSubscription(
        SubscriptionSettings settings, DeliveryTarget target, DatagramSink nakSink, MutableDirectBuffer nakBuffer) {
        TopicReceiver topic = topics.get(settings.topicId());
        if (topic == null) {
            topic = new TopicReceiver(settings, nakSink, nakBuffer, log, errorHandler, counters);
            topics.put(settings.topicId(), topic);
        }
        topic.add(target);
    }

    /** Ends the subscription {@code target}; its topic's streams go when the topic has none left. */
    public void removeSubscription(int topicId, DeliveryTarget target) {
        final TopicReceiver topic = topics.get(topicId);
        if (topic != null && topic.remove(target)) {
            topics.remove(topicId);
            streams.removeAll(topic.streams());
            topic.streams().forEach(InboundStream::close);
        }
    }

    /**
     * One datagram heard on a data port, read only during the call.
     *
     * @return 1 (work done)
     */
    public int onDataDatagram(MutableDirectBuffer buffer, int offset, int length, long nowNs) {
        final DatagramCheck check = DatagramValidator.check(buffer, offset, length);
        if (check != DatagramCheck.VALID) {
            counters.countMalformed(check);
            return 1;
        }
        header.wrap(buffer, offset);
        final TopicReceiver topic = topics.get(header.topicId());
        if (topic == null) {
            counters.get(SystemCounter.NOT_SUBSCRIBED).increment();
            return 1;
        }
        final int type = header.typeCode();
        if (type == FrameType.UNRECOVERABLE.code()) {
            final InboundStream stream = topic.stream(header.sessionId());
            if (stream != null) {
                unrecoverable.wrap(buffer, offset);
                stream.onUnrecoverable(unrecoverable.fromSequence(), unrecoverable.toSequence(),
                    unrecoverable.firstMessageAfter(), nowNs);
            }
            return 1;
        }
        InboundStream stream = topic.stream(header.sessionId());
        if (stream == null) {
            if (topic.isFull() && type == FrameType.HEARTBEAT.code()) {
                heartbeat.wrap(buffer, offset);
                endEarlierSessions(topic, heartbeat.publisherId(), header.sessionId(), nowNs);
            }
            if (topic.isFull()) {
                counters.get(SystemCounter.PUBLISHER_STREAMS_REFUSED).increment();
                topic.onSessionRefused(header.sessionId());
                return 1;
            }
            stream = join(topic, type, buffer, offset, nowNs);
            if (stream == null) {
                return 1;
            }
        }
        if (type == FrameType.HEARTBEAT.code()) {
            stream.onHeartbeat(header.sequence(), nowNs);
            heartbeat.wrap(buffer, offset);
            identify(topic, stream, heartbeat.publisherId(), nowNs);
        } else if (type == FrameType.DATA.code() || type == FrameType.RETRANSMIT.code()) {
            stream.onData(buffer, offset, length, type == FrameType.RETRANSMIT.code(), nowNs);
        }
        return 1;
    }

    /**
     * One datagram heard on a control port, read only during the call: another receiver's NAK
     * postpones this receiver's own for what it covers. This receiver's own NAKs come back too, and
     * are ignored.
     *
     * @return 1 (work done)
     */
    public int onControlDatagram(MutableDirectBuffer buffer, int offset, int length, long nowNs) {
        final DatagramCheck check = DatagramValidator.check(buffer, offset, length);
        if (check != DatagramCheck.VALID) {
            counters.countMalformed(check);
            return 1;
        }
        if (HeaderFlyweight.typeCodeAt(buffer, offset) != FrameType.NAK.code()) {
            return 1;
        }
        nak.wrap(buffer, offset);
        if (nak.receiverId() == receiverId) {
            return 1;
        }
        final TopicReceiver topic = topics.get(nak.topicId());
        final InboundStream stream = topic == null ? null : topic.stream(nak.sessionId());
        if (stream != null) {
            stream.onNakHeard(nak, nowNs);
        }
        return 1;
    }

    /**
     * Lets every stream deliver what it holds and send the NAKs and STATUS that are due, and ends
     * the streams silent for too long.
     *
     * @return work done (0 when idle)
     */
    public int poll(long nowNs) {
        int work = 0;
        for (int i = 0, size = streams.size(); i < size; i++) {
            work += streams.get(i).poll(nowNs);
        }
        for (TopicReceiver topic : topics.values()) {
            topic.poll();
        }
        return work + endSilentStreams(nowNs);
    }

    /** Frees every stream; nothing is delivered after. */
    public void close() {
        streams.forEach(InboundStream::close);
        streams.clear();
        topics.clear();
    }

    /**
     * Closes every stream not heard from for longer than its topic's publisher timeout. Looks at
     * most once per {@link #SILENCE_CHECK_INTERVAL_NS}: timeouts are counted in seconds, and a
     * round that waits for a datagram should not walk every stream.
     */
    private int endSilentStreams(long nowNs) {
        if (lastSilenceCheckNs != Long.MIN_VALUE && nowNs - lastSilenceCheckNs < SILENCE_CHECK_INTERVAL_NS) {
            return 0;
        }
        lastSilenceCheckNs = nowNs;
        int ended = 0;
        for (int i = streams.size() - 1; i >= 0; i--) {
            final InboundStream stream = streams.get(i);
            final TopicReceiver topic = topics.get(stream.topicId());
            final long silentNs = nowNs - stream.lastHeardNs();
            if (silentNs > topic.settings().publisherTimeoutNs()) {
                end(i, topic, PublisherGone.Cause.SILENT, silentNs, 0);
                ended++;
            }
        }
        return ended;
    }

    /**
     * Learns a stream's publisher id from its heartbeat. Another session of the same topic with the
     * same publisher id that has been silent for longer than a heartbeat interval is that publisher
     * before a restart, and ends. One still talking is not: a restarted publisher's old session
     * falls silent, and a heartbeat alone (forged, or two publishers sharing a name) cannot end a
     * live stream.
     */
    private void identify(TopicReceiver topic, InboundStream stream, long publisherId, long nowNs) {
        stream.identify(publisherId);
        endEarlierSessions(topic, publisherId, stream.sessionId(), nowNs);
    }

    /**
     * Ends the streams of {@code publisherId} on the topic, other than {@code newSessionId}, that have
     * been silent for more than a heartbeat: that publisher restarted as the new session.
     */
    private void endEarlierSessions(TopicReceiver topic, long publisherId, int newSessionId, long nowNs) {
        final long heartbeatNs = topic.settings().heartbeatNs();
        for (int i = streams.size() - 1; i >= 0; i--) {
            final InboundStream other = streams.get(i);
            if (other.sessionId() != newSessionId && other.topicId() == topic.settings().topicId()
                && other.isIdentified() && other.publisherId() == publisherId
                && nowNs - other.lastHeardNs() > heartbeatNs) {
                end(i, topic, PublisherGone.Cause.RESTARTED, nowNs - other.lastHeardNs(), newSessionId);
            }
        }
    }

    private void end(int index, TopicReceiver topic, PublisherGone.Cause cause, long silentNs, int newSessionId) {
        final InboundStream stream = streams.remove(index);
        topic.removeStream(stream.sessionId());
        stream.close();
        topic.onPublisherGone(new PublisherGone(stream.topicId(), stream.sessionId(), cause, silentNs, newSessionId));
    }

    /**
     * A publisher stream heard for the first time. Late join {@code now}: it starts with the
     * datagram in hand. Late join {@code oldest}: it waits for the publisher's heartbeat (at most a
     * heartbeat interval) and starts an eighth of the way into the history the heartbeat reports,
     * so the replay it NAKs for is not overtaken by the history moving on while it is repaired.
     *
     * @return the new stream, or null while an {@code oldest} joiner waits for a heartbeat
     */
    private InboundStream join(TopicReceiver topic, int type, MutableDirectBuffer buffer, int offset, long nowNs) {
        final SubscriptionSettings settings = topic.settings();
        final boolean replay = settings.lateJoin() == LateJoinPolicy.OLDEST;
        if (replay && type != FrameType.HEARTBEAT.code()) {
            return null;
        }
        final int sessionId = header.sessionId();
        final InboundStream stream = new InboundStream(settings.topicId(), sessionId, receiverId,
            settings.streamSettings(), random.split(), topic, topic, topic.nakSink(), topic.nakBuffer(), counters);
        topic.addStream(sessionId, stream);
        streams.add(stream);
        stream.deliverWhen(topic);
        stream.reportPositions(
            new ReceiverPositionCounters(counters.streams(), settings.topicName(), settings.topicId(), sessionId));
        if (settings.statusKeepAliveNs() > 0) {
            stream.reportStatus(settings.statusKeepAliveNs());
        }
        if (replay) {
            heartbeat.wrap(buffer, offset);
            final long liveEdge = heartbeat.sequence() + 1;
            final long replayFrom = heartbeat.oldestSequence() + (liveEdge - heartbeat.oldestSequence()) / 8;
            if (replayFrom < liveEdge) {
                stream.startAt(replayFrom, nowNs);
            }
        }
        return stream;
    }
}
