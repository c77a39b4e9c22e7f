package org.nakcast.transport.sim;

import org.nakcast.transport.protocol.FrameType;

/**
 * What the checker knows of one publisher session: where it runs, when it began, what it published
 * (messages 0 .. published-1, whose bytes {@link MessageContent} gives), and whether it is dead.
 */
final class PublishedSession {
    final int sessionId;
    final int topicId;
    final PublisherHost host;
    final long startNs;
    final int maxLength;
    final int fragmentLength;
    long published;
    long lastPublishNs;
    long deadSinceNs = -1;
    /** The repair budget's settings, from the publication's. */
    int datagramLength;
    long repairRate;
    long repairBurst;
    int repairPercentOfData;
    long dataBytes;
    long repairBytes;
    long firstSendNs = -1;
    long lastSendNs;

    PublishedSession(int sessionId, int topicId, PublisherHost host, long startNs, int maxLength, int fragmentLength) {
        this.sessionId = sessionId;
        this.topicId = topicId;
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
    void sent(int type, int length, long nowNs) {
        if (firstSendNs < 0) {
            firstSendNs = nowNs;
        }
        lastSendNs = nowNs;
        if (type == FrameType.DATA.code()) {
            dataBytes += length;
        } else if (type == FrameType.RETRANSMIT.code() || type == FrameType.UNRECOVERABLE.code()) {
            repairBytes += length;
        }
    }

    /**
     * The most the repair budget lets the session send in repairs over its life: its rate over the
     * time it sent, its burst, and its share of the new data, with one datagram of slack.
     */
    long repairAllowance() {
        final double seconds = Math.max(0, lastSendNs - firstSendNs) / 1e9;
        return (long) (repairRate * seconds) + repairBurst + dataBytes * repairPercentOfData / 100 + datagramLength;
    }

    /** The oldest datagram the publisher can still resend, or -1 once it is gone. */
    long oldestRetained() {
        return isDead() ? -1 : host.oldestRetained(topicId, sessionId);
    }
}
