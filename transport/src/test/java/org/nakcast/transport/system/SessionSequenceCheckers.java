package org.nakcast.transport.system;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

import org.agrona.DirectBuffer;
import org.nakcast.transport.MessageHandler;
import org.nakcast.transport.MessageHeader;

/**
 * One {@link SequenceChecker} per publisher session, for a topic with several publishers: each
 * session's messages must arrive exactly once and in order, whatever the others do.
 */
final class SessionSequenceCheckers implements MessageHandler<DirectBuffer> {
    private final Map<Integer, SequenceChecker> bySession = new ConcurrentHashMap<>();

    @Override
    public void onMessage(DirectBuffer message, MessageHeader header) {
        bySession.computeIfAbsent(header.sessionId(), session -> new SequenceChecker())
            .onMessage(message, header);
    }

    /** The checker of {@code sessionId}: an empty one if nothing came from that session. */
    SequenceChecker session(int sessionId) {
        return bySession.getOrDefault(sessionId, new SequenceChecker());
    }

    /** The sessions that delivered at least one message, in ascending order. */
    Set<Integer> sessions() {
        return new TreeSet<>(bySession.keySet());
    }

    /**
     * Waits until each of {@code sessionIds} delivered {@code target} messages or the deadline
     * (epoch milliseconds) passed.
     */
    void awaitCount(Iterable<Integer> sessionIds, long target, long deadlineMs) throws InterruptedException {
        for (int sessionId : sessionIds) {
            while (session(sessionId).count() < target && System.currentTimeMillis() < deadlineMs) {
                Thread.sleep(5);
            }
        }
    }
}
