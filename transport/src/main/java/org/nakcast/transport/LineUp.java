package org.nakcast.transport;

/**
 * A line that was {@linkplain LineDown down} for a publisher stream brings it again: the stream is
 * arbitrated between both lines once more, and a gap is NAKed only when both lines missed it.
 *
 * @param topicId the topic
 * @param sessionId the publisher session
 * @param line the line's name (its transport's name in the config)
 * @param downNs how long the line was down, from when it stopped bringing anything new
 */
public record LineUp(int topicId, int sessionId, String line, long downNs) {

    /** The event in words, for logs and operators. */
    public String describe() {
        return "topic %d, publisher session %d: line %s up again after %d ms"
            .formatted(topicId, sessionId, line, downNs / 1_000_000);
    }
}
