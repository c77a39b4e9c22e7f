package org.nakcast.transport.receive;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.agrona.ErrorHandler;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Int2ObjectHashMap;
import org.nakcast.transport.PublisherGone;
import org.nakcast.transport.media.DatagramSink;
import org.nakcast.transport.media.MulticastAddress;
import org.nakcast.transport.protocol.DataFlyweight;
import org.nakcast.transport.protocol.DatagramCheck;
import org.nakcast.transport.protocol.DatagramValidator;
import org.nakcast.transport.protocol.FrameType;
import org.nakcast.transport.protocol.HeaderFlyweight;
import org.nakcast.transport.protocol.HeartbeatFlyweight;
import org.nakcast.transport.protocol.NakFlyweight;
import org.nakcast.transport.protocol.StatusFlyweight;
import org.nakcast.transport.protocol.UnrecoverableFlyweight;
import org.nakcast.transport.status.SystemCounter;
import org.nakcast.transport.status.SystemCounters;

/**
 * The rules of a node's receiving side: which publisher streams exist, and what each datagram heard
 * means for them. A datagram from a data port is checked, then goes to the stream of its (topic,
 * publisher session); one from a control port is another receiver's NAK, which keeps this receiver
 * quiet about the ranges it asks for. A datagram for a topic nobody here subscribed to is counted
 * and dropped: such a topic costs no buffers; one of a type that does not belong on its port is
 * malformed.
 *
 * <p>Session lifecycle, per topic:
 * <ul>
 *   <li>A session first heard starts where {@link StartRule} says: from its first message if this
 *       receiver subscribed before it began, else as the topic's late-join policy says; while that
 *       is in doubt the stream holds what arrives until a heartbeat tells the session's age.</li>
 *   <li>A stream not heard from for the topic's publisher timeout ends ({@code PublisherGone},
 *       {@code SILENT}) but is remembered ({@link EndedSessions}): if the session is heard again it
 *       resumes where it left off, nothing delivered twice or skipped. Time this receiver itself
 *       was stopped does not count as a publisher's silence.</li>
 *   <li>A heartbeat of a new session with the publisher id of a stream that fell silent before that
 *       session began, and stayed silent for two heartbeats since, is a restart: the old stream
 *       ends ({@code RESTARTED}) for good. Two live publishers that share an id never end each
 *       other: each keeps talking.</li>
 * </ul>
 *
 * <pre>
 *   data port    --datagram--> onDataDatagram    --> topic, line --> stream (made on first contact)
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
    /** A gap between two polls longer than this is time this receiver was stopped, not listening. */
    private static final long STALL_NS = 5_000_000;

    private final SystemCounters counters;
    private final int receiverId;
    private final SplittableRandom random;
    private final ReceiverLog log;
    private final ErrorHandler errorHandler;
    private final Int2ObjectHashMap<TopicReceiver> topics = new Int2ObjectHashMap<>();
    private final List<InboundStream> streams = new ArrayList<>();
    private final HeaderFlyweight header = new HeaderFlyweight();
    private final NakFlyweight nak = new NakFlyweight();
    private final StatusFlyweight status = new StatusFlyweight();
    private final UnrecoverableFlyweight unrecoverable = new UnrecoverableFlyweight();
    private final HeartbeatFlyweight heartbeat = new HeartbeatFlyweight();
    private final DataFlyweight data = new DataFlyweight();
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
        return streams.size();
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
        TopicReceiver topic = topics.get(settings.topicId());
        if (topic == null) {
            topic = new TopicReceiver(settings, nakSink, nakBuffer, log, errorHandler, counters, nowNs);
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
     * One datagram heard on a data port, read only during the call. A datagram of a topic heard on
     * a line the topic does not travel on is not this topic's: counted as not subscribed, and dropped.
     *
     * @param line the address of the transport whose data port heard it
     * @return 1 (work done)
     */
    public int onDataDatagram(MulticastAddress line, MutableDirectBuffer buffer, int offset, int length, long nowNs) {
        final DatagramCheck check = DatagramValidator.check(buffer, offset, length, FrameType.Port.DATA);
        if (check != DatagramCheck.VALID) {
            counters.countMalformed(check);
            return 1;
        }
        header.wrap(buffer, offset);
        final int type = header.typeCode();
        final TopicReceiver topic = topics.get(header.topicId());
        final int lineIndex = topic == null ? -1 : topic.lineOf(line);
        if (lineIndex < 0) {
            counters.get(SystemCounter.NOT_SUBSCRIBED).increment();
            return 1;
        }
        final boolean isHeartbeat = type == FrameType.HEARTBEAT.code();
        if (isHeartbeat) {
            heartbeat.wrap(buffer, offset);
        }
        InboundStream stream = topic.stream(header.sessionId());
        if (stream == null && isHeartbeat && heartbeat.isEndOfStream() && !owedFromItsStart(topic, nowNs)) {
            // the end of a session this receiver never had and is not owed: nothing to start
            counters.get(SystemCounter.ENDED_SESSION_DATAGRAMS).increment();
            return 1;
        }
        if (stream == null) {
            stream = streamFor(topic, type, nowNs);
            if (stream == null) {
                return 1;
            }
        }
        if (!stream.isStarted()) {
            decideStart(topic, stream, type, buffer, offset, nowNs);
        }
        if (type == FrameType.UNRECOVERABLE.code()) {
            unrecoverable.wrap(buffer, offset);
            stream.onUnrecoverable(unrecoverable.fromSequence(), unrecoverable.toSequence(),
                unrecoverable.firstMessageAfter(), nowNs);
        } else if (isHeartbeat) {
            stream.onHeartbeat(lineIndex, header.sequence(), nowNs);
            stream.noteSessionStart(nowNs - heartbeat.sessionAgeNs());
            stream.onOldestHeld(heartbeat.oldestSequence());
            if (heartbeat.isEndOfStream()) {
                stream.onEndOfStream(header.sequence());
            }
            identify(topic, stream, heartbeat.publisherId(), nowNs);
        } else {
            stream.onData(lineIndex, buffer, offset, length, type == FrameType.RETRANSMIT.code(), nowNs);
        }
        return 1;
    }

    /**
     * The stream for a session the topic keeps none of: a stream that ended and resumes, or a new one
     * whose start is not decided yet; null when the datagram is to be dropped (the session stays ended,
     * or the topic is full).
     */
    private InboundStream streamFor(TopicReceiver topic, int type, long nowNs) {
        final int sessionId = header.sessionId();
        final EndedSessions.Ended ended = topic.ended().get(sessionId);
        if (ended != null && ended.staysEnded()) {
            counters.get(SystemCounter.ENDED_SESSION_DATAGRAMS).increment();
            return null;
        }
        if (topic.isFull() && type == FrameType.HEARTBEAT.code()) {
            endEarlierSessions(topic, heartbeat.publisherId(), sessionId, nowNs - heartbeat.sessionAgeNs(), nowNs);
        }
        if (topic.isFull()) {
            counters.get(SystemCounter.PUBLISHER_STREAMS_REFUSED).increment();
            topic.onSessionRefused(sessionId);
            return null;
        }
        if (ended == null && type == FrameType.UNRECOVERABLE.code()) {
            return null;
        }
        final SubscriptionSettings settings = topic.settings();
        final InboundStream stream = new InboundStream(settings.topicId(), sessionId, receiverId,
            settings.streamSettings(), random.split(), topic, topic, topic.nakSink(), topic.nakBuffer(), counters);
        topic.addStream(sessionId, stream);
        streams.add(stream);
        stream.deliverWhen(topic);
        stream.reportPositions(
            new ReceiverPositionCounters(counters.streams(), settings.topicName(), settings.topicId(), sessionId));
        if (settings.lines().size() == 2) {
            stream.arbitrateLines(topic.lineNames(), settings.lineTimeoutNs());
            stream.reportLines(new LineCounters(counters.streams(), topic.lineNames(), settings.topicName(),
                settings.topicId(), sessionId));
        }
        if (settings.statusKeepAliveNs() > 0) {
            stream.reportStatus(settings.statusKeepAliveNs());
        }
        if (ended != null) {
            topic.ended().remove(sessionId);
            if (ended.delivered) {
                topic.deliveredBefore(sessionId);
            }
            if (ended.identified) {
                stream.identify(ended.publisherId);
            }
            stream.noteSessionStart(ended.sessionStartNs);
            stream.resumeAt(ended.nextSequence, ended.nextMessageIndex, nowNs);
        } else {
            stream.holdUntilStarted();
        }
        return stream;
    }

    /**
     * Whether the session of the heartbeat in hand, of which this receiver keeps nothing, is owed to
     * the topic's subscribers from its first message (it began after they subscribed), or resumes.
     */
    private boolean owedFromItsStart(TopicReceiver topic, long nowNs) {
        return topic.ended().get(header.sessionId()) != null
            || StartRule.fromHeartbeat(heartbeat.sessionAgeNs(), nowNs, topic.subscribedAtNs(),
                topic.ended().forgottenStartNs(), topic.settings().lateJoin()) == StartRule.Start.SESSION_START;
    }

    /**
     * Decides, if it can, where a stream not started yet starts, from the datagram in hand: a
     * heartbeat tells the session's age, a DATA datagram its age class (see {@link StartRule}).
     */
    private void decideStart(
        TopicReceiver topic, InboundStream stream, int type, MutableDirectBuffer buffer, int offset, long nowNs) {
        final SubscriptionSettings settings = topic.settings();
        final long forgotten = topic.ended().forgottenStartNs();
        final StartRule.Start start;
        if (type == FrameType.HEARTBEAT.code()) {
            stream.noteSessionStart(nowNs - heartbeat.sessionAgeNs());
            start = StartRule.fromHeartbeat(
                heartbeat.sessionAgeNs(), nowNs, topic.subscribedAtNs(), forgotten, settings.lateJoin());
        } else if (type == FrameType.DATA.code()) {
            data.wrap(buffer, offset);
            start = StartRule.fromData(data.ageClass(), nowNs, topic.subscribedAtNs(), forgotten, settings.lateJoin());
        } else {
            return;
        }
        switch (start) {
            case SESSION_START -> stream.startAtSessionStart(nowNs);
            case LIVE_EDGE -> startAtLiveEdge(stream, type, nowNs);
            case REPLAY -> {
                final long liveEdge = heartbeat.sequence() + 1;
                if (liveEdge == 0) {
                    stream.startAtSessionStart(nowNs);
                } else {
                    stream.startAt(heartbeat.oldestSequence() + (liveEdge - heartbeat.oldestSequence()) / 8, nowNs);
                }
            }
            default -> {
            }
        }
    }

    /**
     * Starts a late joiner at the live edge: the first datagram it holds or has in hand, or after the
     * last one a heartbeat announces (from the first message if the publisher has sent none).
     */
    private void startAtLiveEdge(InboundStream stream, int type, long nowNs) {
        if (type == FrameType.DATA.code()) {
            final long held = stream.firstHeldSequence();
            stream.startAt(held >= 0 ? Math.min(held, header.sequence()) : header.sequence(), nowNs);
        } else if (heartbeat.sequence() == -1 && stream.firstHeldSequence() < 0) {
            stream.startAtSessionStart(nowNs);
        } else {
            final long held = stream.firstHeldSequence();
            stream.startAt(held >= 0 ? held : heartbeat.sequence() + 1, nowNs);
        }
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
        final int type = HeaderFlyweight.typeCodeAt(buffer, offset);
        final boolean isStatus = type == FrameType.STATUS.code();
        final int sender;
        if (isStatus) {
            status.wrap(buffer, offset);
            sender = status.receiverId();
        } else {
            nak.wrap(buffer, offset);
            sender = nak.receiverId();
        }
        if (sender == receiverId) {
            return 1;
        }
        header.wrap(buffer, offset);
        final TopicReceiver topic = topics.get(header.topicId());
        final InboundStream stream = topic == null ? null : topic.stream(header.sessionId());
        if (stream != null && isStatus) {
            stream.onStatusHeard(sender, nowNs);
        } else if (stream != null) {
            stream.onNakHeard(nak, nowNs);
        }
        return 1;
    }

    /**
     * Lets every stream deliver what it holds and send the NAKs and STATUS that are due, and ends
     * the streams silent for too long. A poll that comes more than {@link #STALL_NS} after the last
     * finds this receiver was stopped: the stop is forgiven every stream as silence, though never
     * past now (a stream heard since the receiver went on, from a datagram that waited in the socket
     * buffer, was silent for none of it).
     *
     * @return work done (0 when idle)
     */
    public int poll(long nowNs) {
        if (lastPollNs != Long.MIN_VALUE && nowNs - lastPollNs > STALL_NS) {
            for (int i = 0, size = streams.size(); i < size; i++) {
                final InboundStream stream = streams.get(i);
                stream.creditSilence(Math.min(nowNs - lastPollNs, Math.max(0, nowNs - stream.lastHeardNs())));
            }
        }
        lastPollNs = nowNs;
        int work = 0;
        for (int i = 0, size = streams.size(); i < size; i++) {
            work += streams.get(i).poll(nowNs);
        }
        for (TopicReceiver topic : topics.values()) {
            topic.poll();
        }
        return work + endEndedStreams(nowNs) + endSilentStreams(nowNs);
    }

    /** Frees every stream; nothing is delivered after. */
    public void close() {
        streams.forEach(InboundStream::close);
        streams.clear();
        topics.clear();
    }

    /** Closes every stream its publisher ended and this receiver delivered to the end. */
    private int endEndedStreams(long nowNs) {
        int ended = 0;
        for (int i = streams.size() - 1; i >= 0; i--) {
            final InboundStream stream = streams.get(i);
            if (stream.hasEnded()) {
                end(i, topics.get(stream.topicId()), PublisherGone.Cause.ENDED, nowNs - stream.lastHeardNs(), 0, nowNs);
                ended++;
            }
        }
        return ended;
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
                end(i, topic, PublisherGone.Cause.SILENT, silentNs, 0, nowNs);
                ended++;
            }
        }
        return ended;
    }

    /**
     * Learns a stream's publisher id from its heartbeat, and ends the earlier sessions of that
     * publisher it proves restarted.
     */
    private void identify(TopicReceiver topic, InboundStream stream, long publisherId, long nowNs) {
        stream.identify(publisherId);
        endEarlierSessions(topic, publisherId, stream.sessionId(), stream.sessionStartNs(), nowNs);
    }

    /**
     * Ends, as restarted, the streams of {@code publisherId} on the topic, other than
     * {@code newSessionId}, that were last heard before the new session began and have had two
     * heartbeat intervals since to show they are alive: that publisher restarted as the new session.
     */
    private void endEarlierSessions(
        TopicReceiver topic, long publisherId, int newSessionId, long newSessionStartNs, long nowNs) {
        final long heartbeatNs = topic.settings().heartbeatNs();
        if (newSessionStartNs == Long.MAX_VALUE || nowNs - newSessionStartNs <= 2 * heartbeatNs) {
            return;
        }
        for (int i = streams.size() - 1; i >= 0; i--) {
            final InboundStream other = streams.get(i);
            if (other.sessionId() != newSessionId && other.topicId() == topic.settings().topicId()
                && other.isIdentified() && other.publisherId() == publisherId
                && other.lastHeardNs() < newSessionStartNs) {
                end(i, topic, PublisherGone.Cause.RESTARTED, nowNs - other.lastHeardNs(), newSessionId, nowNs);
            }
        }
    }

    private void end(
        int index, TopicReceiver topic, PublisherGone.Cause cause, long silentNs, int newSessionId, long nowNs) {
        final InboundStream stream = streams.remove(index);
        final boolean delivered = topic.hasDelivered(stream);
        topic.removeStream(stream.sessionId());
        stream.close();
        if (stream.isStarted()) {
            topic.ended().add(stream, cause != PublisherGone.Cause.SILENT, delivered, nowNs);
            topic.onPublisherGone(
                new PublisherGone(stream.topicId(), stream.sessionId(), cause, silentNs, newSessionId));
        }
    }
}
