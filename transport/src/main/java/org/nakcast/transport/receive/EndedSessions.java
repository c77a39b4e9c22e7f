package org.nakcast.transport.receive;

import org.agrona.collections.Int2ObjectHashMap;

/**
 * What a topic remembers of the publisher streams it ended, so that a session heard again is not
 * taken for a new one: a stream given up as silent (its publisher paused, a partition, this receiver
 * stopped) resumes where it left off, with nothing delivered twice or skipped; a session that was
 * restarted, or dropped by the loss policy, stays ended. Bounded: past its capacity the oldest entry
 * is forgotten, and the latest start among the sessions forgotten is kept, so that a session begun
 * no later is never taken for a new one owed everything from its first message.
 */
final class EndedSessions {
    /** One ended stream. */
    static final class Ended {
        final int sessionId;
        final long nextSequence;
        final long nextMessageIndex;
        final boolean identified;
        final long publisherId;
        final long sessionStartNs;
        final boolean stayEnded;
        long order;

        Ended(InboundStream stream, boolean finalEnd, long endedNs) {
            this.sessionId = stream.sessionId();
            this.nextSequence = stream.resumeSequence();
            this.nextMessageIndex = stream.knownMessageIndex();
            this.identified = stream.isIdentified();
            this.publisherId = stream.publisherId();
            this.sessionStartNs = Math.min(stream.sessionStartNs(), endedNs);
            this.stayEnded = finalEnd || stream.isDropped();
        }

        /** Whether the session must stay ended: restarted, or dropped by the loss policy. */
        boolean staysEnded() {
            return stayEnded;
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
     */
    void add(InboundStream stream, boolean finalEnd, long endedNs) {
        if (bySession.size() >= capacity && !bySession.containsKey(stream.sessionId())) {
            forgetOldest();
        }
        final Ended ended = new Ended(stream, finalEnd, endedNs);
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
     * The latest start among the sessions forgotten for want of room ({@code Long.MIN_VALUE} if none):
     * a session that began no later may be one of them.
     */
    long forgottenStartNs() {
        return forgottenStartNs;
    }

    private void forgetOldest() {
        Ended oldest = null;
        for (Ended ended : bySession.values()) {
            if (oldest == null || ended.order < oldest.order) {
                oldest = ended;
            }
        }
        if (oldest != null) {
            bySession.remove(oldest.sessionId);
            forgottenStartNs = Math.max(forgottenStartNs, oldest.sessionStartNs);
        }
    }
}
