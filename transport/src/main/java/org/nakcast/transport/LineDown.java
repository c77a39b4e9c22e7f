package org.nakcast.transport;

/**
 * One of the two lines a publisher stream travels on stopped bringing it: it brought nothing new
 * while the other line, ahead of it, went on talking for the topic's {@code line-timeout}. Nothing is lost: the other
 * line carries the stream alone, and what it misses is NAKed at once, no longer waiting for this
 * line's copy. {@link LineUp} follows when the line brings the stream again.
 *
 * @param topicId the topic
 * @param sessionId the publisher session
 * @param line the line's name (its transport's name in the config)
 * @param behindNs how long the line had brought nothing new while the other was ahead
 */
public record LineDown(int topicId, int sessionId, String line, long behindNs) {

    /** The event in words, for logs and operators. */
    public String describe() {
        return "topic %d, publisher session %d: line %s down, nothing new on it for %d us while the other line went on;"
            .formatted(topicId, sessionId, line, behindNs / 1_000) + " the stream goes on on the other line alone";
    }
}
