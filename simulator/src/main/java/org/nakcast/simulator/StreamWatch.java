package org.nakcast.simulator;

import java.util.HashMap;
import java.util.Map;

import org.nakcast.transport.LossEvent;
import org.nakcast.transport.PublisherGone;
import org.nakcast.transport.RecoveryStarted;
import org.nakcast.transport.StreamStarted;

/**
 * Watches the streams of one receiver as it decides, on its receiving thread (told through its
 * node's node-wide listener). It counts the states of a stream's life where defects have hidden
 * (a start held while in doubt, a stream resumed after silence, a loss after a resume) and the
 * datagrams a stream may ask for from where it starts (see {@link Simulation#checkRepairsPerLoss}).
 */
final class StreamWatch {
    /** What the receiver has done with one session. */
    private static final class Seen {
        long firstReadNs = -1;
        boolean started;
        boolean silent;
        boolean resumed;
    }

    /**
     * The counts, over every topic a subscribing process watches, or over a run's processes.
     * {@code heldStarts} counts the streams that started after their session was first heard: held
     * while where to start was in doubt, or refused for want of room until a stream ended.
     */
    static final class Reached {
        long resumes;
        long lossesAfterResume;
        long heldStarts;
        long datagramsOwedAtStart;
        /** Recoveries from a recorder begun, the messages they asked for, and the losses that named recorders. */
        long recoveries;
        long recoveryMessages;
        long recoveryLosses;
        /** Processes started again that resumed their topics at the positions their application stored. */
        long positionResumes;

        /** Adds {@code other}'s counts to these. */
        void add(Reached other) {
            resumes += other.resumes;
            lossesAfterResume += other.lossesAfterResume;
            heldStarts += other.heldStarts;
            datagramsOwedAtStart += other.datagramsOwedAtStart;
            recoveries += other.recoveries;
            recoveryMessages += other.recoveryMessages;
            recoveryLosses += other.recoveryLosses;
            positionResumes += other.positionResumes;
        }
    }

    private final Scheduler scheduler;
    private final Map<Integer, PublishedSession> sessions;
    private final Reached reached;
    private final Map<Integer, Seen> seen = new HashMap<>();

    StreamWatch(Scheduler scheduler, Map<Integer, PublishedSession> sessions, Reached reached) {
        this.scheduler = scheduler;
        this.sessions = sessions;
        this.reached = reached;
    }

    /** The receiver read a datagram of {@code sessionId} (on any topic). */
    void onRead(int sessionId, long nowNs) {
        if (sessions.containsKey(sessionId)) {
            final Seen session = seen.computeIfAbsent(sessionId, id -> new Seen());
            if (session.firstReadNs < 0) {
                session.firstReadNs = nowNs;
            }
        }
    }

    /** The receiver began to fetch from a recorder what its publisher no longer held. */
    void onRecoveryStarted(RecoveryStarted event) {
        reached.recoveries++;
        reached.recoveryMessages += event.lastMessage() - event.firstMessage() + 1;
    }

    /** The receiver decided a loss. */
    void onLoss(LossEvent event) {
        if (!event.recordersAsked().isEmpty()) {
            reached.recoveryLosses++;
        }
        final Seen session = seen.get(event.sessionId());
        if (session != null && session.resumed) {
            reached.lossesAfterResume++;
        }
    }

    /** The receiver started a stream, or resumed one. */
    void onStreamStarted(StreamStarted event) {
        final int sessionId = event.sessionId();
        final PublishedSession published = sessions.get(sessionId);
        if (published != null) {
            final Seen session = seen.computeIfAbsent(sessionId, id -> new Seen());
            if (session.silent) {
                reached.resumes++;
                session.resumed = true;
            } else if (!session.started && session.firstReadNs >= 0 && scheduler.nowNs() > session.firstReadNs) {
                reached.heldStarts++;
            }
            session.started = true;
            session.silent = false;
            reached.datagramsOwedAtStart += Math.max(0, published.highestDataSequence - event.firstSequence() + 1);
        }
    }

    /** The receiver ended a stream. */
    void onPublisherGone(PublisherGone event) {
        final Seen session = seen.get(event.sessionId());
        if (session != null && event.cause() == PublisherGone.Cause.SILENT) {
            session.silent = true;
        }
    }
}
