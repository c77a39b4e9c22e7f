package org.nakcast.transport.sim;

import java.util.HashMap;
import java.util.Map;

import org.agrona.DirectBuffer;
import org.nakcast.transport.LossEvent;
import org.nakcast.transport.MessageHeader;
import org.nakcast.transport.PublisherGone;
import org.nakcast.transport.StreamStarted;
import org.nakcast.transport.receive.DeliveryTarget;

/**
 * Watches one topic's streams at one receiver as the receiver decides, on its receiving thread:
 * wraps the first subscription's {@link DeliveryTarget} and passes everything on. It counts the
 * states of a stream's life where defects have hidden (a start held while in doubt, a stream
 * resumed after silence, a loss after a resume) and
 * the datagrams a stream may ask for from where it starts (see
 * {@link Simulation#checkRepairsPerLoss}).
 */
final class StreamWatch implements DeliveryTarget {
    /** What the receiver has done with one session, as far as the wrapped subscription saw. */
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

        /** Adds {@code other}'s counts to these. */
        void add(Reached other) {
            resumes += other.resumes;
            lossesAfterResume += other.lossesAfterResume;
            heldStarts += other.heldStarts;
            datagramsOwedAtStart += other.datagramsOwedAtStart;
        }
    }

    private final DeliveryTarget target;
    private final Scheduler scheduler;
    private final Map<Integer, PublishedSession> sessions;
    private final Reached reached;
    private final Map<Integer, Seen> seen = new HashMap<>();

    StreamWatch(DeliveryTarget target, Scheduler scheduler, Map<Integer, PublishedSession> sessions,
        Reached reached) {
        this.target = target;
        this.scheduler = scheduler;
        this.sessions = sessions;
        this.reached = reached;
    }

    /** The receiver read a datagram of {@code sessionId} (on this topic or not). */
    void onRead(int sessionId, long nowNs) {
        if (sessions.containsKey(sessionId)) {
            final Seen session = seen.computeIfAbsent(sessionId, id -> new Seen());
            if (session.firstReadNs < 0) {
                session.firstReadNs = nowNs;
            }
        }
    }

    /** The receiver decided a loss of this topic (told through its log, before any subscription). */
    void onLossDecided(LossEvent event) {
        final Seen session = seen.get(event.sessionId());
        if (session != null && session.resumed) {
            reached.lossesAfterResume++;
        }
    }

    @Override
    public void onStreamStarted(StreamStarted event) {
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
        target.onStreamStarted(event);
    }

    @Override
    public void onPublisherGone(PublisherGone event) {
        final Seen session = seen.get(event.sessionId());
        if (session != null && event.cause() == PublisherGone.Cause.SILENT) {
            session.silent = true;
        }
        target.onPublisherGone(event);
    }

    @Override
    public void onLoss(LossEvent event) {
        target.onLoss(event);
    }

    @Override
    public boolean offer(DirectBuffer buffer, int offset, int length, MessageHeader header) {
        return target.offer(buffer, offset, length, header);
    }

    @Override
    public boolean hasRoomFor(int datagramLength, int assembledLength) {
        return target.hasRoomFor(datagramLength, assembledLength);
    }

    @Override
    public long consumed() {
        return target.consumed();
    }

    @Override
    public boolean hasCaughtUp() {
        return target.hasCaughtUp();
    }
}
