package org.nakcast.transport.receive;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.IntHashSet;
import org.nakcast.transport.PublisherGone;
import org.nakcast.transport.StreamRefused;
import org.nakcast.transport.media.DatagramSink;
import org.nakcast.transport.media.DatagramSource;
import org.nakcast.transport.media.Line;
import org.nakcast.transport.media.MulticastAddress;
import org.nakcast.transport.protocol.DataFlyweight;
import org.nakcast.transport.protocol.FrameType;
import org.nakcast.transport.protocol.HeaderFlyweight;
import org.nakcast.transport.protocol.HeartbeatFlyweight;
import org.nakcast.transport.protocol.NakFlyweight;
import org.nakcast.transport.protocol.UnrecoverableFlyweight;
import org.nakcast.transport.status.SystemCounter;
import org.nakcast.transport.status.SystemCounters;

/**
 * The life of every publisher stream of one topic: the one index of the topic's streams, and the
 * rules of how a stream begins, resumes and ends.
 *
 * <ul>
 *   <li>A session is pinned, on each line, to the address and port it was first heard from there
 *       ({@link SessionLife#comesFrom}): its datagrams from anywhere else are dropped and counted,
 *       so another host cannot end, rewrite or stall a session a receiver already hears.</li>
 *   <li>A session a service left off in ({@link SubscriptionSettings#resumeAt}) starts at the message
 *       it wants next, whatever the late-join policy.</li>
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
 *       other: each keeps talking, and a session that ended is still heard from its source while it
 *       waits for room to resume.</li>
 *   <li>A stream whose publisher ended it, and that delivered everything, ends ({@code ENDED}) for
 *       good; the end of a session this receiver never had and is not owed starts nothing.</li>
 *   <li>The topic keeps at most {@code max-publishers} streams, at most half of them over its lines
 *       (at least one per line) from one host (source address); a further session is refused
 *       until one ends, but a restart of a publisher it keeps is heard even then. So sessions one
 *       host makes up cannot keep a publisher on another host out. The subscriptions are told of
 *       each session refused ({@link StreamRefused}), once until a stream ends.</li>
 * </ul>
 *
 * <p>Its streams deliver to the topic's subscriptions through the {@link TopicReceiver}. Not
 * thread-safe: one receiving thread owns it.
 */
final class TopicStreams {
    private final TopicReceiver topic;
    private final SubscriptionSettings settings;
    private final int receiverId;
    private final SplittableRandom random;
    private final SystemCounters counters;
    private final DatagramSink nakSink;
    private final MutableDirectBuffer nakBuffer;
    /** The addresses of the topic's lines; an equal address heard is adopted, so the next lookup is by identity. */
    private final MulticastAddress[] lines;
    private final String[] lineNames;
    /** The streams, in the order they were made; {@link #bySession} finds them. Changed by add and end alone. */
    private final List<InboundStream> streams = new ArrayList<>();
    private final Int2ObjectHashMap<InboundStream> bySession = new Int2ObjectHashMap<>();
    private final EndedSessions ended;
    private final long subscribedAtNs;
    private final HeaderFlyweight header = new HeaderFlyweight();
    private final HeartbeatFlyweight heartbeat = new HeartbeatFlyweight();
    private final DataFlyweight data = new DataFlyweight();
    private final UnrecoverableFlyweight unrecoverable = new UnrecoverableFlyweight();
    /** Whether a new session was refused since the topic last had room: it is logged once per spell. */
    private boolean refusing;
    /** Whether a source was refused a further stream since a stream last ended: logged once per spell. */
    private boolean refusingSource;
    /** The most sessions refused between two stream ends that the subscriptions are told of. */
    private final int refusalsToldAtMost;
    /** The sessions refused since a stream last ended that the subscriptions were told of. */
    private final IntHashSet refusedTold;

    /**
     * @param topic where the streams' messages and events go
     * @param receiverId this receiver's id, carried in its NAKs and STATUS
     * @param random seeds each stream's NAK delays
     * @param counters the node's counters
     * @param nakSink where the streams send NAKs and STATUS (the transport's control port)
     * @param nakBuffer where they build them; shared by every stream of the transport
     * @param nowNs when the topic's first subscription was made: a session begun later is owed from
     *     its first message
     */
    TopicStreams(TopicReceiver topic, int receiverId, SplittableRandom random, SystemCounters counters,
        DatagramSink nakSink, MutableDirectBuffer nakBuffer, long nowNs) {
        this.topic = topic;
        this.settings = topic.settings();
        this.receiverId = receiverId;
        this.random = random;
        this.counters = counters;
        this.nakSink = nakSink;
        this.nakBuffer = nakBuffer;
        this.lines = settings.lines().stream().map(Line::address).toArray(MulticastAddress[]::new);
        this.lineNames = settings.lines().stream().map(Line::name).toArray(String[]::new);
        this.ended = new EndedSessions(Math.max(EndedSessions.MIN_REMEMBERED, 4 * settings.maxPublishers()));
        this.refusalsToldAtMost = Math.max(EndedSessions.MIN_REMEMBERED, 4 * settings.maxPublishers());
        this.refusedTold = new IntHashSet(2 * refusalsToldAtMost);
        this.subscribedAtNs = nowNs;
    }

    /** Where the streams' messages and events go. */
    TopicReceiver receiver() {
        return topic;
    }

    /** How many streams the topic keeps. */
    int size() {
        return streams.size();
    }

    /** Which of the topic's lines {@code address} is (0 for the first), or -1 for none of them. */
    int lineOf(MulticastAddress address) {
        for (int i = 0; i < lines.length; i++) {
            if (lines[i] == address) {
                return i;
            }
        }
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].equals(address)) {
                lines[i] = address;
                return i;
            }
        }
        return -1;
    }

    /** The stream of {@code sessionId}, or null if none is kept. */
    InboundStream stream(int sessionId) {
        return bySession.get(sessionId);
    }

    /**
     * A DATA, RETRANSMIT, HEARTBEAT or UNRECOVERABLE of this topic that passed the checks, heard on
     * line {@code lineIndex} from {@code source}, read only during the call: it goes to its session's
     * stream, which it may make, resume or start, if it comes from where the session was first heard
     * on that line; else it is counted ({@code datagrams from a wrong source}) and dropped.
     */
    void onDatagram(int lineIndex, DatagramSource source, MutableDirectBuffer buffer, int offset, int length,
        long nowNs) {
        header.wrap(buffer, offset);
        final int type = header.typeCode();
        final boolean isHeartbeat = type == FrameType.HEARTBEAT.code();
        if (isHeartbeat) {
            heartbeat.wrap(buffer, offset);
        }
        InboundStream stream = bySession.get(header.sessionId());
        if (stream == null && isHeartbeat && heartbeat.isEndOfStream() && !owedFromItsStart(nowNs)) {
            // the end of a session this receiver never had and is not owed: nothing to start
            counters.get(SystemCounter.ENDED_SESSION_DATAGRAMS).increment();
            return;
        }
        if (stream == null) {
            stream = streamFor(type, lineIndex, source, nowNs);
            if (stream == null) {
                return;
            }
        }
        if (!fromItsSource(stream.life(), lineIndex, source)) {
            counters.get(SystemCounter.WRONG_SOURCE).increment();
            return;
        }
        if (!stream.isStarted()) {
            decideStart(stream, type, buffer, offset, nowNs);
        }
        if (type == FrameType.UNRECOVERABLE.code()) {
            unrecoverable.wrap(buffer, offset);
            stream.onUnrecoverable(unrecoverable.fromSequence(), unrecoverable.toSequence(),
                unrecoverable.firstMessageAfter(), nowNs);
        } else if (isHeartbeat) {
            stream.onHeartbeat(lineIndex, heartbeat, nowNs);
            identify(stream, heartbeat.publisherId(), nowNs);
        } else {
            stream.onData(lineIndex, buffer, offset, length, type == FrameType.RETRANSMIT.code(), nowNs);
        }
    }

    /**
     * Whether a datagram of the session whose life is {@code life} comes from where the session was
     * first heard on that line. On an authenticated line every datagram that reaches here was signed
     * by a holder of the key, so its address proves nothing more and is not asked: a stranger who
     * replays a signed datagram from its own address, to a receiver that has not heard the session
     * yet, must not have the session pinned to that address.
     */
    private boolean fromItsSource(SessionLife life, int lineIndex, DatagramSource source) {
        return lines[lineIndex].authKeys() != null || life.comesFrom(lineIndex, source);
    }

    /** Another receiver's STATUS for a stream of this topic: one more receiver shares it. */
    void onStatusHeard(int sessionId, int sender, long nowNs) {
        final InboundStream stream = bySession.get(sessionId);
        if (stream != null) {
            stream.onStatusHeard(sender, nowNs);
        }
    }

    /** Another receiver's NAK for a stream of this topic: this one stays quiet about what it asks for. */
    void onNakHeard(NakFlyweight nak, long nowNs) {
        final InboundStream stream = bySession.get(nak.sessionId());
        if (stream != null) {
            stream.onNakHeard(nak, nowNs);
        }
    }

    /**
     * The stream for a session the topic keeps none of: a stream that ended and resumes, or a new one
     * whose start is not decided yet, pinned to {@code source} on {@code lineIndex}; null when the
     * datagram is to be dropped (the session stays ended, it resumes only from where it was heard
     * before, its source holds its share of the topic's streams already, or the topic is full).
     */
    private InboundStream streamFor(int type, int lineIndex, DatagramSource source, long nowNs) {
        final int sessionId = header.sessionId();
        final EndedSessions.Ended endedBefore = ended.get(sessionId);
        if (endedBefore != null && endedBefore.staysEnded()) {
            counters.get(SystemCounter.ENDED_SESSION_DATAGRAMS).increment();
            return null;
        }
        if (endedBefore != null && !fromItsSource(endedBefore.life, lineIndex, source)) {
            counters.get(SystemCounter.WRONG_SOURCE).increment();
            return null;
        }
        if (endedBefore != null && type != FrameType.UNRECOVERABLE.code()) {
            // heard, whether it resumes now or finds no room: a session of its publisher id begun
            // before this is no restart of it
            endedBefore.life.heard(nowNs);
        }
        if ((isFull() || streamsFrom(lineIndex, source) >= sourceShare()) && type == FrameType.HEARTBEAT.code()) {
            endEarlierSessions(heartbeat.publisherId(), sessionId, nowNs - heartbeat.sessionAgeNs(), nowNs);
        }
        if (streamsFrom(lineIndex, source) >= sourceShare()) {
            if (!refusingSource) {
                refusingSource = true;
                topic.onSourceShareReached(source, sourceShare(), sessionId);
            }
            return refuse(sessionId, StreamRefused.Reason.SOURCE_SHARE, sourceShare());
        }
        if (isFull()) {
            if (!refusing) {
                refusing = true;
                topic.onSessionsRefused(streams.size(), sessionId);
            }
            return refuse(sessionId, StreamRefused.Reason.TOPIC_FULL, streams.size());
        }
        if (endedBefore == null && type == FrameType.UNRECOVERABLE.code()) {
            return null;
        }
        final InboundStream stream = new InboundStream(settings.topicId(), sessionId, receiverId,
            settings.streamSettings(), random.split(), topic, topic, nakSink, nakBuffer, counters);
        streams.add(stream);
        bySession.put(sessionId, stream);
        stream.deliverWhen(topic);
        stream.reportPositions(
            new ReceiverPositionCounters(counters.streams(), settings.topicName(), settings.topicId(), sessionId));
        if (lines.length == 2) {
            stream.arbitrateLines(lineNames, settings.lineTimeoutNs());
            stream.reportLines(new LineCounters(counters.streams(), lineNames, settings.topicName(),
                settings.topicId(), sessionId));
        }
        if (settings.statusKeepAliveNs() > 0) {
            stream.reportStatus(settings.statusKeepAliveNs());
        }
        if (!settings.recorders().isEmpty()) {
            stream.recoverFrom(settings.recorders(), settings.publisherTimeoutNs());
        }
        if (endedBefore != null) {
            ended.remove(sessionId);
            if (endedBefore.delivered) {
                topic.deliveredBefore(sessionId);
            }
            stream.resumeAt(endedBefore.nextSequence, endedBefore.nextMessageIndex, endedBefore.life, nowNs);
        } else {
            stream.holdUntilStarted();
        }
        return stream;
    }

    /** Whether the topic keeps as many streams as it may: a new session must wait for one to end. */
    private boolean isFull() {
        return streams.size() >= settings.maxPublishers();
    }

    /**
     * The most streams one host (one source address, whatever its ports) may hold on one line: half
     * of {@code max-publishers} over the topic's lines (at least one), so one host sending many
     * sessions, made up or not, on one line or both (a host has an address per line), cannot keep a
     * publisher elsewhere out.
     */
    private int sourceShare() {
        return Math.max(1, settings.maxPublishers() / (2 * lines.length));
    }

    /** How many of the topic's streams are pinned to {@code source}'s address on {@code lineIndex}. */
    private int streamsFrom(int lineIndex, DatagramSource source) {
        int count = 0;
        for (int i = 0, size = streams.size(); i < size; i++) {
            if (streams.get(i).life().source(lineIndex).sameAddressAs(source)) {
                count++;
            }
        }
        return count;
    }

    /**
     * Whether the session of the heartbeat in hand, of which this receiver keeps nothing, is owed to
     * the topic's subscribers from its first message (it began after they subscribed), or resumes.
     */
    private boolean owedFromItsStart(long nowNs) {
        return ended.get(header.sessionId()) != null
            || StartRule.fromHeartbeat(heartbeat.sessionAgeNs(), nowNs, subscribedAtNs, ended.forgottenStartNs(),
                settings.lateJoin()) == StartRule.Start.SESSION_START;
    }

    /**
     * Decides, if it can, where a stream not started yet starts, from the datagram in hand: a
     * heartbeat tells the session's age, a DATA datagram its age class (see {@link StartRule}).
     */
    private void decideStart(InboundStream stream, int type, MutableDirectBuffer buffer, int offset, long nowNs) {
        final Long position = settings.resumeAt().get(stream.sessionId());
        if (position != null && (type == FrameType.HEARTBEAT.code() || type == FrameType.DATA.code())) {
            resumeAtPosition(stream, type, buffer, offset, position, nowNs);
            return;
        }
        final long forgotten = ended.forgottenStartNs();
        final StartRule.Start start;
        if (type == FrameType.HEARTBEAT.code()) {
            stream.life().noteStart(nowNs - heartbeat.sessionAgeNs());
            start = StartRule.fromHeartbeat(
                heartbeat.sessionAgeNs(), nowNs, subscribedAtNs, forgotten, settings.lateJoin());
        } else if (type == FrameType.DATA.code()) {
            data.wrap(buffer, offset);
            start = StartRule.fromData(data.ageClass(), nowNs, subscribedAtNs, forgotten, settings.lateJoin());
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
     * Starts a stream of a session a service left off in at the message it wants next: at the DATA
     * datagram in hand if a message before the one wanted begins in it, else at the session's first
     * datagram (what its publisher no longer holds then comes from the recorders, or is lost); the
     * messages before the one wanted are not delivered.
     */
    private void resumeAtPosition(InboundStream stream, int type, MutableDirectBuffer buffer, int offset,
        long nextMessageIndex, long nowNs) {
        long startSequence = 0;
        if (type == FrameType.DATA.code()) {
            data.wrap(buffer, offset);
            if (data.completedMessages() < nextMessageIndex) {
                startSequence = header.sequence();
            }
        }
        stream.resumeAt(startSequence, nextMessageIndex, stream.life(), nowNs);
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

    /** Lets every stream deliver what it holds and send the NAKs and STATUS that are due. */
    int poll(long nowNs) {
        int work = 0;
        for (int i = 0, size = streams.size(); i < size; i++) {
            work += streams.get(i).poll(nowNs);
        }
        return work;
    }

    /**
     * Forgives every stream the time this receiver was stopped ({@code stoppedNs}) as silence,
     * though never past now: a stream heard since the receiver went on was silent for none of it.
     */
    void creditSilence(long stoppedNs, long nowNs) {
        for (int i = 0, size = streams.size(); i < size; i++) {
            final InboundStream stream = streams.get(i);
            stream.life().creditSilence(Math.min(stoppedNs, Math.max(0, nowNs - stream.life().lastHeardNs())));
        }
    }

    /** Closes every stream its publisher ended and this receiver delivered to the end. */
    int endEndedStreams(long nowNs) {
        int count = 0;
        for (int i = streams.size() - 1; i >= 0; i--) {
            final InboundStream stream = streams.get(i);
            if (stream.hasEnded()) {
                end(i, PublisherGone.Cause.ENDED, nowNs - stream.life().lastHeardNs(), 0, nowNs);
                count++;
            }
        }
        return count;
    }

    /**
     * Closes every stream not heard from for longer than the topic's publisher timeout, but not while
     * it fetches from a recorder what its publisher no longer held: a publisher gone does not take
     * its recorded messages with it.
     */
    int endSilentStreams(long nowNs) {
        int count = 0;
        for (int i = streams.size() - 1; i >= 0; i--) {
            final long silentNs = nowNs - streams.get(i).life().lastHeardNs();
            if (silentNs > settings.publisherTimeoutNs() && !streams.get(i).isRecovering()) {
                end(i, PublisherGone.Cause.SILENT, silentNs, 0, nowNs);
                count++;
            }
        }
        return count;
    }

    /**
     * Learns a stream's publisher id from its heartbeat, and ends the earlier sessions of that
     * publisher it proves restarted.
     */
    private void identify(InboundStream stream, long publisherId, long nowNs) {
        stream.life().identify(publisherId);
        endEarlierSessions(publisherId, stream.sessionId(), stream.life().startNs(), nowNs);
    }

    /**
     * Ends, as restarted, the streams of {@code publisherId}, other than {@code newSessionId}, that
     * were last heard before the new session began and have had two heartbeat intervals since to
     * show they are alive: that publisher restarted as the new session.
     */
    private void endEarlierSessions(long publisherId, int newSessionId, long newSessionStartNs, long nowNs) {
        if (newSessionStartNs == Long.MAX_VALUE || nowNs - newSessionStartNs <= 2 * settings.heartbeatNs()) {
            return;
        }
        for (int i = streams.size() - 1; i >= 0; i--) {
            final InboundStream other = streams.get(i);
            if (other.sessionId() != newSessionId && other.life().isIdentified()
                && other.life().publisherId() == publisherId && other.life().lastHeardNs() < newSessionStartNs) {
                end(i, PublisherGone.Cause.RESTARTED, nowNs - other.life().lastHeardNs(), newSessionId, nowNs);
            }
        }
    }

    /**
     * Drops a datagram of a session the topic has no room for: counted, and the topic's subscriptions
     * told of the session once until a stream ends (of {@link #refusalsToldAtMost} sessions at most).
     *
     * @return null: no stream
     */
    private InboundStream refuse(int sessionId, StreamRefused.Reason reason, int streamsAtBound) {
        counters.get(SystemCounter.PUBLISHER_STREAMS_REFUSED).increment();
        if (refusedTold.size() < refusalsToldAtMost && refusedTold.add(sessionId)) {
            topic.onStreamRefused(new StreamRefused(settings.topicId(), sessionId, reason, streamsAtBound));
        }
        return null;
    }

    private void end(int index, PublisherGone.Cause cause, long silentNs, int newSessionId, long nowNs) {
        final InboundStream stream = streams.remove(index);
        bySession.remove(stream.sessionId());
        refusing = false;
        refusingSource = false;
        refusedTold.clear();
        final boolean delivered = topic.forget(stream);
        stream.close();
        if (stream.isStarted()) {
            ended.add(stream, cause != PublisherGone.Cause.SILENT, delivered, nowNs);
            topic.onPublisherGone(
                new PublisherGone(stream.topicId(), stream.sessionId(), cause, silentNs, newSessionId));
        } else {
            counters.get(SystemCounter.STREAMS_GONE_UNSTARTED).increment();
        }
    }

    /** Frees every stream; nothing is delivered after. */
    void close() {
        streams.forEach(InboundStream::close);
        streams.clear();
        bySession.clear();
    }
}
