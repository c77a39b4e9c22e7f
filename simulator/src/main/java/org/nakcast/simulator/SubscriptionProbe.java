package org.nakcast.simulator;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import org.agrona.collections.Long2LongHashMap;
import org.nakcast.codecs.CodecException;
import org.nakcast.transport.LossEvent;
import org.nakcast.transport.MessageHandler;
import org.nakcast.transport.MessageHeader;
import org.nakcast.transport.PublisherGone;
import org.nakcast.transport.StreamEventListener;
import org.nakcast.transport.StreamStarted;

/**
 * One subscription's view of every stream, as the application gets it through the node's typed
 * API (the topic's codec decoded each message), checked as it happens: each message is the one
 * published at its (session, index), with its bytes, comes in order and once, and any skipped
 * message lies inside an exact loss event (the counts add up). A subscription that joined before a
 * session began is owed that session from its first message. Nothing of a session is delivered
 * after it was reported restarted or ended, nor anything after the subscription was closed.
 * (Whether a loss was justified is checked when the receiver decides it: see
 * {@link SubscriberHost}.) A throwing probe's handler throws on some messages after taking them.
 */
final class SubscriptionProbe implements MessageHandler<SimMessage>, StreamEventListener {
    /** How a subscription takes its messages. */
    enum Kind {
        /** On the receiving thread. */
        CALLBACK,
        /** Through a queue the application polls. */
        QUEUED
    }

    /** What a throwing handler throws. */
    static final class HandlerFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        HandlerFailure(long index) {
            super("a subscriber's handler failed on message " + index, null, false, false);
        }
    }

    /** What one subscription has had of one session. */
    static final class Track {
        long nextIndex = -1;
        long unaccountedLoss;
        boolean dropped;
        boolean restarted;
        /** Whether the subscription was told its publisher ended the session ({@code ENDED}). */
        boolean ended;
        boolean gone;
        /** Whether the receiver keeps a stream of the session now: started, and not ended since. */
        boolean live;
        /** When the receiver first started a stream of the session, -1 before. */
        long firstStartNs = -1;
        /** The loss events, in order. */
        final List<LossEvent> losses = new ArrayList<>();
        long delivered;
    }

    final String name;
    final int topicId;
    final Kind kind;
    final boolean throwing;
    final long joinedAtNs;
    private final Scheduler scheduler;
    private final Map<Integer, PublishedSession> sessions;
    private final Violations violations;
    private final Tally tally;
    private final Map<Integer, Track> tracks = new LinkedHashMap<>();
    /** Per session, the next message the application resumed this subscription at; none if it did not. */
    private final Map<Integer, Long> resumePositions = new HashMap<>();
    /** When this subscription's host first read a datagram of each session on its data port, since it joined. */
    private final Long2LongHashMap firstHeardNs = new Long2LongHashMap(Long.MIN_VALUE);
    private final Consumer<String> trace;
    private final boolean tracing;
    /** Whether the application closed the subscription. */
    boolean closed;

    /** Totals over every probe of a run. */
    static final class Tally {
        long delivered;
        long lossEvents;
        long lostMessages;
        long thrown;
        long traceHash = 1;

        void trace(long a, long b, long c) {
            traceHash = MessageContent.mix(traceHash, MessageContent.mix(a, b, c), 0);
        }
    }

    SubscriptionProbe(String name, int topicId, Kind kind, boolean throwing, Scheduler scheduler,
        Map<Integer, PublishedSession> sessions, Violations violations, Tally tally, Consumer<String> trace) {
        this.name = name;
        this.topicId = topicId;
        this.kind = kind;
        this.throwing = throwing;
        this.joinedAtNs = scheduler.nowNs();
        this.scheduler = scheduler;
        this.sessions = sessions;
        this.violations = violations;
        this.tally = tally;
        this.trace = trace;
        this.tracing = trace != null;
    }

    Map<Integer, Track> tracks() {
        return tracks;
    }

    /**
     * Where this subscription stands in each session it is still in, as its application would store
     * it: the next message it wants (after those delivered, and those given up in loss events).
     * Sessions it was told ended, restarted or dropped are left out.
     */
    Map<Integer, Long> positions() {
        final Map<Integer, Long> positions = new LinkedHashMap<>();
        tracks.forEach((sessionId, track) -> {
            if (track.nextIndex >= 0 && !track.ended && !track.restarted && !track.dropped) {
                positions.put(sessionId, track.nextIndex + track.unaccountedLoss);
            }
        });
        return positions;
    }

    /**
     * The application resumed this subscription at {@code positions} (session to the next message it
     * wants): each of those sessions must go on exactly there.
     */
    void resumesAt(Map<Integer, Long> positions) {
        resumePositions.putAll(positions);
    }

    /** The track of {@code sessionId}, made at its first word: from where the application resumed it, if it did. */
    private Track track(int sessionId) {
        return tracks.computeIfAbsent(sessionId, id -> {
            final Track track = new Track();
            track.nextIndex = resumePositions.getOrDefault(id, -1L);
            return track;
        });
    }

    /** The host read a datagram of {@code sessionId} on its data port at {@code nowNs}. */
    void heard(int sessionId, long nowNs) {
        if (firstHeardNs.get(sessionId) == Long.MIN_VALUE) {
            firstHeardNs.put(sessionId, nowNs);
        }
    }

    /**
     * When a subscription that joined {@code session} under way could first know of it: when it
     * joined, or later, when its host first read a datagram of it. A late joiner with {@code now}
     * starts at the first datagram it hears, so only what was published after that is owed to it.
     */
    long heardSinceNs(PublishedSession session) {
        return Math.max(joinedAtNs, firstHeardNs.get(session.sessionId));
    }

    /** Whether this subscription was there before {@code session} began: it is owed all of it. */
    boolean owedFromStart(PublishedSession session) {
        return joinedAtNs < session.startNs;
    }

    @Override
    public void onMessage(SimMessage message, MessageHeader header) {
        final PublishedSession session = sessions.get(header.sessionId());
        if (session == null) {
            return; // a stranger's made-up session: nothing is owed of it, nothing to check
        }
        final long index = header.messageIndex();
        final Track track = track(session.sessionId);
        final long nowNs = scheduler.nowNs();
        if (tracing) {
            trace.accept("%.6f %s message %d of session %d, %d bytes".formatted(nowNs / 1e9, name, index,
                session.sessionId, message.length()));
        }
        tally.delivered++;
        tally.trace(name.hashCode(), session.sessionId, index);
        if (closed) {
            violations.add(nowNs, Invariant.AFTER_THE_END, "%s: message %d of session %d delivered after the"
                .formatted(name, index, session.sessionId) + " subscription was closed");
        }
        if (track.restarted || track.ended) {
            violations.add(nowNs, Invariant.AFTER_THE_END, "%s: message %d of session %d delivered after the session"
                .formatted(name, index, session.sessionId) + " was reported %s".formatted(
                track.ended ? "ended" : "restarted"));
        }
        if (track.dropped) {
            violations.add(nowNs, Invariant.AFTER_THE_END, "%s: message %d of session %d delivered after the stream"
                .formatted(name, index, session.sessionId) + " was dropped");
        }
        if (track.nextIndex < 0) {
            if (owedFromStart(session) && index != track.unaccountedLoss) {
                violations.add(nowNs, Invariant.OWED_FROM_START, ("%s: first message of session %d is %d, but the"
                    + " subscription was there before the session began and loss events account for %d").formatted(
                    name, session.sessionId, index, track.unaccountedLoss));
            }
        } else if (index != track.nextIndex + track.unaccountedLoss) {
            violations.add(nowNs, index < track.nextIndex ? Invariant.ORDER : Invariant.EXACT_LOSS,
                "%s: session %d delivered message %d after %d with %d lost in events between".formatted(
                    name, session.sessionId, index, track.nextIndex - 1, track.unaccountedLoss));
        }
        if (index >= session.published) {
            violations.add(nowNs, Invariant.ORDER, "%s: session %d delivered message %d, but only %d were published"
                .formatted(name, session.sessionId, index, session.published));
        } else {
            final int expectedLength = session.messageLength(index);
            if (!message.intact() || message.length() != expectedLength || message.sessionId() != session.sessionId
                || message.index() != index) {
                violations.add(nowNs, Invariant.ORDER, ("%s: session %d message %d differs from what was published"
                    + " (%d bytes, %d due; it says it is message %d of session %d, %s)").formatted(name,
                    session.sessionId, index, message.length(), expectedLength, message.index(), message.sessionId(),
                    message.intact() ? "its bytes as they were" : "its bytes changed"));
            }
        }
        track.nextIndex = Math.max(track.nextIndex, index + 1);
        track.unaccountedLoss = 0;
        track.delivered++;
        if (throwing && MessageContent.mix(session.sessionId, index, 7) % 13 == 0) {
            tally.thrown++;
            throw new HandlerFailure(index);
        }
    }

    @Override
    public void onUndecodable(MessageHeader header, CodecException error) {
        if (sessions.get(header.sessionId()) == null) {
            return; // a stranger's made-up session: its bytes are no simulation message, as the codec says
        }
        violations.add(scheduler.nowNs(), Invariant.ORDER, "%s: message %d of session %d could not be decoded: %s"
            .formatted(name, header.messageIndex(), header.sessionId(), error.getMessage()));
    }

    @Override
    public void onLoss(LossEvent event) {
        final PublishedSession session = sessions.get(event.sessionId());
        if (session == null) {
            return;
        }
        final long nowNs = scheduler.nowNs();
        if (tracing) {
            trace.accept("%.6f %s %s".formatted(nowNs / 1e9, name, event.describe()));
        }
        tally.lossEvents++;
        tally.lostMessages += event.lostMessages();
        tally.trace(name.hashCode(), event.sessionId(), -event.toSequence());
        final Track track = track(session.sessionId);
        final long due = track.nextIndex >= 0 ? track.nextIndex + track.unaccountedLoss
            : owedFromStart(session) ? track.unaccountedLoss : -1;
        if (event.lostMessages() > 0 && due >= 0 && event.firstMessage() != due) {
            violations.add(nowNs, Invariant.EXACT_LOSS, "%s: loss event of session %d names messages from %d, but"
                .formatted(name, session.sessionId, event.firstMessage()) + " the next one due is %d".formatted(due));
        }
        if (due < 0 && event.lostMessages() > 0) {
            // a late joiner whose first word of the session is a loss: the session starts for it there
            track.nextIndex = event.firstMessage();
        }
        track.unaccountedLoss += event.lostMessages();
        track.losses.add(event);
        if (event.streamDropped()) {
            track.dropped = true;
        }
        if (event.cause() == LossEvent.Cause.SUBSCRIPTION_OVERRUN && kind != Kind.QUEUED) {
            violations.add(nowNs, Invariant.ISOLATION, "%s: overrun, but it takes its messages on the receiving thread"
                .formatted(name));
        }
    }

    @Override
    public void onStreamStarted(StreamStarted started) {
        if (tracing) {
            trace.accept("%.6f %s stream of session %d started at datagram %d".formatted(scheduler.nowNs() / 1e9,
                name, started.sessionId(), started.firstSequence()));
        }
        final int sessionId = started.sessionId();
        final PublishedSession session = sessions.get(sessionId);
        if (session == null) {
            return;
        }
        final Track track = track(sessionId);
        track.live = true;
        track.gone = false;
        if (track.firstStartNs < 0) {
            track.firstStartNs = scheduler.nowNs();
        }
    }

    @Override
    public void onPublisherGone(PublisherGone event) {
        final PublishedSession session = sessions.get(event.sessionId());
        if (session == null) {
            return;
        }
        if (tracing) {
            trace.accept("%.6f %s %s".formatted(scheduler.nowNs() / 1e9, name, event.describe()));
        }
        final Track track = track(session.sessionId);
        track.gone = true;
        track.live = false;
        if (event.cause() == PublisherGone.Cause.RESTARTED) {
            track.restarted = true;
        } else if (event.cause() == PublisherGone.Cause.ENDED) {
            track.ended = true;
            checkEnded(session, track);
        }
    }

    /**
     * A session reported ended: its publication was closed, and this subscription has every message
     * of it, or a loss event for it, up to the last one published; a subscription that joined the
     * session under way and started at its end (its live edge) may have had nothing of it.
     */
    private void checkEnded(PublishedSession session, Track track) {
        final long reached = Math.max(0, track.nextIndex) + track.unaccountedLoss;
        final boolean joinedAtTheEnd = !owedFromStart(session) && track.nextIndex < 0 && track.unaccountedLoss == 0;
        if (!session.isClosed() || reached != session.published && !joinedAtTheEnd) {
            violations.add(scheduler.nowNs(), Invariant.AFTER_THE_END, "%s: told session %d ended %s, with messages"
                .formatted(name, session.sessionId, session.isClosed() ? "early" : "though it was never closed")
                + " up to %d of %d published".formatted(reached, session.published));
        }
    }
}
