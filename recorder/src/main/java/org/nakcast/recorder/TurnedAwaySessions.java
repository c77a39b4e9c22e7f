package org.nakcast.recorder;

import org.agrona.collections.LongHashSet;

/**
 * The sessions a recorder's node turned away for want of room (its topic keeps {@code max-publishers}
 * streams, or the session's host its share), as its subscriptions were told, until the node takes
 * one: a replay of such a session is refused {@code SESSION_REFUSED}, a failure of the recorder,
 * rather than "no recording", which an asker would wait a whole patience for at every gap.
 *
 * <p>Holds at most {@link #CAPACITY} sessions; past that (a host making sessions up) it starts
 * afresh, and a session forgotten so is answered "no recording" again, which costs an asker time and
 * nothing else. Used on the recording thread only.
 */
final class TurnedAwaySessions {
    /** The most sessions remembered at once. */
    static final int CAPACITY = 4096;

    private final LongHashSet sessions = new LongHashSet(2 * CAPACITY);

    /** The node turned {@code sessionId} of {@code topicId} away. */
    void refused(int topicId, int sessionId) {
        if (sessions.size() >= CAPACITY) {
            sessions.clear();
        }
        sessions.add(key(topicId, sessionId));
    }

    /** The node keeps a stream of {@code sessionId} of {@code topicId} now. */
    void taken(int topicId, int sessionId) {
        sessions.remove(key(topicId, sessionId));
    }

    /** Whether the node turned that session away, and has not taken it since. */
    boolean isTurnedAway(int topicId, int sessionId) {
        return sessions.contains(key(topicId, sessionId));
    }

    private static long key(int topicId, int sessionId) {
        return (long) topicId << Integer.SIZE | sessionId & 0xFFFF_FFFFL;
    }
}
