package org.nakcast.transport.sim;

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

    /** The oldest datagram the publisher can still resend, or -1 once it is gone. */
    long oldestRetained() {
        return isDead() ? -1 : host.oldestRetained(topicId, sessionId);
    }
}
