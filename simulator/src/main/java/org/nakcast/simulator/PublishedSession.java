package org.nakcast.transport.sim;

import java.util.ArrayList;
import java.util.List;

import org.nakcast.transport.protocol.FrameType;

/**
 * What the checker knows of one publisher session: where it runs, under which publisher id, when it
 * began, what it published (messages 0 .. published-1, whose bytes {@link MessageContent} gives),
 * and whether it is dead.
 */
final class PublishedSession {
    final int sessionId;
    final int topicId;
    final long publisherId;
    final PublisherHost host;
    final long startNs;
    final int maxLength;
    final int fragmentLength;
    long published;
    long lastPublishNs;
    long deadSinceNs = -1;
    /** When its publication was closed, after offering everything; -1 while it is open. */
    long closedAtNs = -1;
    /** The repair budget's settings, from the publication's. */
    int datagramLength;
    long repairRate;
    long repairBurst;
    int repairPercentOfData;
    long dataBytes;
    long repairBytes;
    long firstSendNs = -1;
    long lastSendNs;
    /** The highest DATA sequence sent, -1 before the first. */
    long highestDataSequence = -1;
    /** Whether the session was found over its repair budget: it is reported once. */
    boolean overBudget;
    /**
     * Each UNRECOVERABLE the session sent, as {from, to, the highest DATA sequence sent by then}: to
     * + 1 was the oldest datagram its history held.
     */
    final List<long[]> unrecoverableAnswers = new ArrayList<>();

    PublishedSession(int sessionId, int topicId, long publisherId, PublisherHost host, long startNs, int maxLength,
        int fragmentLength) {
        this.sessionId = sessionId;
        this.topicId = topicId;
        this.publisherId = publisherId;
        this.host = host;
        this.startNs = startNs;
        this.maxLength = maxLength;
        this.fragmentLength = fragmentLength;
    }

    /** The length of message {@code index}. */
    int messageLength(long index) {
        return MessageContent.length(sessionId, index, maxLength, fragmentLength);
    }

    boolean isDead() {
        return deadSinceNs >= 0;
    }

    /** Counts one datagram this session sent. */
    void sent(int type, int length, long sequence, long nowNs) {
        if (firstSendNs < 0) {
            firstSendNs = nowNs;
        }
        lastSendNs = nowNs;
        if (type == FrameType.DATA.code()) {
            dataBytes += length;
            highestDataSequence = Math.max(highestDataSequence, sequence);
        } else if (type == FrameType.RETRANSMIT.code() || type == FrameType.UNRECOVERABLE.code()) {
            repairBytes += length;
        }
    }

    /**
     * The most the repair budget lets the session send in repairs from its first datagram until its
     * latest: its rate over that time, its burst, and its share of the new data, with one datagram of
     * slack. It holds at every send (the budget's bucket starts full and fills no faster), so it is
     * checked at every send.
     */
    long repairAllowance() {
        final double seconds = Math.max(0, lastSendNs - firstSendNs) / 1e9;
        return (long) (repairRate * seconds) + repairBurst + dataBytes * repairPercentOfData / 100 + datagramLength;
    }

    /** The oldest datagram the publisher can still resend, or -1 once it is gone. */
    long oldestRetained() {
        return isDead() ? -1 : host.oldestRetained(topicId, sessionId);
    }

    /**
     * Whether the publisher holds nothing of the session any more: its process died, or its
     * publication was closed and, its close-linger over, freed.
     */
    boolean isGone() {
        return oldestRetained() < 0 && (isDead() || closedAtNs >= 0);
    }
}
