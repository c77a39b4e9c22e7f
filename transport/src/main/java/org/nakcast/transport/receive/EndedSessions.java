package org.nakcast.transport.receive;

import org.agrona.collections.Int2ObjectHashMap;

/**
 * What a topic remembers of the publisher streams it ended, so that a session heard again is not
 * taken for a new one: a stream given up as silent (its publisher paused, a partition, this receiver
 * stopped) resumes where it left off, with nothing delivered twice or skipped; a session that was
 * restarted, or dropped by the loss policy, stays ended. Bounded: past its capacity one entry is
 * forgotten, the oldest of those whose stream delivered nothing (no message, no loss) and need not
 * stay ended, else the oldest of all. Sessions a stranger makes up on the segment, one datagram or
 * two each, are of the first kind, so however many come and go they cannot push out a real session
 * that delivered messages. Forgetting a stream that delivered nothing loses nothing: heard again, it
 * is taken for a new session, and where it then starts repeats nothing it delivered. For every other
 * entry forgotten the latest start is kept, so that a session begun no later is never taken for a
 * new one owed everything from its first message.
 */
final class EndedSessions {
    /** The fewest ended streams a topic remembers, however few publishers it keeps. */
    static final int MIN_REMEMBERED = 64;

    /** One ended stream. */
    static final class Ended {
        final int sessionId;
        final long nextSequence;
        final long nextMessageIndex;
        final SessionLife life;
        final boolean stayEnded;
        final boolean delivered;
        long order;

        Ended(InboundStream stream, boolean finalEnd, boolean delivered, long endedNs) {
            this.sessionId = stream.sessionId();
            this.nextSequence = stream.resumeSequence();
            this.nextMessageIndex = stream.knownMessageIndex();
            this.life = stream.life();
            life.noteStart(endedNs);
            this.stayEnded = finalEnd || stream.isDropped();
            this.delivered = delivered;
        }

        /** Whether the session must stay ended: restarted, or dropped by the loss policy. */
        boolean staysEnded() {
            return stayEnded;
        }

        /** Whether forgetting the entry could let the session deliver something again, or again at all. */
        private boolean mattersWhenForgotten() {
            return delivered || stayEnded;
        }
    }

    private final int capacity;
    private final Int2ObjectHashMap<Ended> bySession = new Int2ObjectHashMap<>();
    private long added;
    private long forgottenStartNs = Long.MIN_VALUE;

    /** @param capacity how many ended streams are remembered at most */
    EndedSessions(int capacity) {
        this.capacity = capacity;
    }

    /**
     * Remembers an ended stream; {@code finalEnd} for one that must never come back (restarted). A
     * session whose start no heartbeat told began before it ended, at {@code endedNs}.
     *
     * @param delivered whether the stream, in this life or an earlier one, delivered a message or
     *     gave one up
     */
    void add(InboundStream stream, boolean finalEnd, boolean delivered, long endedNs) {
        if (bySession.size() >= capacity && !bySession.containsKey(stream.sessionId())) {
            forgetOne();
        }
        final Ended ended = new Ended(stream, finalEnd, delivered, endedNs);
        ended.order = added++;
        bySession.put(stream.sessionId(), ended);
    }

    /** The ended stream of {@code sessionId}, or null. */
    Ended get(int sessionId) {
        return bySession.get(sessionId);
    }

    /** Forgets the ended stream of {@code sessionId}: it lives again. */
    void remove(int sessionId) {
        bySession.remove(sessionId);
    }

    /**
     * The latest start among the sessions forgotten for want of room that delivered something or
     * had to stay ended ({@code Long.MIN_VALUE} if none): a session that began no later may be one
     * of them.
     */
    long forgottenStartNs() {
        return forgottenStartNs;
    }

    /** Forgets the oldest entry that delivered nothing and need not stay ended, else the oldest. */
    private void forgetOne() {
        Ended oldest = null;
        Ended oldestIdle = null;
        for (Ended ended : bySession.values()) {
            if (oldest == null || ended.order < oldest.order) {
                oldest = ended;
            }
            if (!ended.mattersWhenForgotten() && (oldestIdle == null || ended.order < oldestIdle.order)) {
                oldestIdle = ended;
            }
        }
        final Ended forgotten = oldestIdle != null ? oldestIdle : oldest;
        if (forgotten != null) {
            bySession.remove(forgotten.sessionId);
            if (forgotten.mattersWhenForgotten()) {
                forgottenStartNs = Math.max(forgottenStartNs, forgotten.life.startNs());
            }
        }
    }
}
