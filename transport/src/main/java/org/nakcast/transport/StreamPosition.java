package org.nakcast.transport;

/**
 * Where a service stands in a publisher's session: the next message it wants. A service stores the
 * position after each message it has handled ({@link #after}) and, restarted, gives its positions to
 * {@link Node#resumeAt} before it subscribes: each session then goes on from there, what its
 * publisher no longer holds coming from the topic's recorders.
 *
 * @param sessionId the publisher session
 * @param nextMessageIndex the index of the next message wanted: every message before it was handled
 */
public record StreamPosition(int sessionId, long nextMessageIndex) {

    /** Checks the index. */
    public StreamPosition {
        if (nextMessageIndex < 0) {
            throw new IllegalArgumentException("nextMessageIndex must not be negative: " + nextMessageIndex);
        }
    }

    /** The position after the message {@code header} describes: the one after it is wanted next. */
    public static StreamPosition after(MessageHeader header) {
        return new StreamPosition(header.sessionId(), header.messageIndex() + 1);
    }
}
