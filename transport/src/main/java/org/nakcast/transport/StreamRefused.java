package org.nakcast.transport;

/**
 * A receiver turned a publisher session away: its topic keeps as many publisher streams as
 * {@code max-publishers} allows, or as many from the session's host as one host may hold. The
 * session's datagrams are dropped (counted as {@code datagrams of refused publisher streams}) until
 * a stream of the topic ends and makes room; taken then, the session is owed only what its publisher
 * still holds. Told once per session until a stream of the topic ends (at most a few times
 * {@code max-publishers} sessions in that time: further ones are only counted); a
 * {@link StreamStarted} of the session follows if it is taken later.
 *
 * @param topicId the topic
 * @param sessionId the publisher session turned away
 * @param reason which bound it met
 * @param streams the streams the topic keeps, or keeps from the session's host, that made the bound
 */
public record StreamRefused(int topicId, int sessionId, Reason reason, int streams) {

    /** Which bound a session met. */
    public enum Reason {
        /** The topic keeps {@code max-publishers} streams. */
        TOPIC_FULL,
        /** The session's host (its source address) holds its share of the topic's streams already. */
        SOURCE_SHARE
    }

    /** The event in words, for logs and operators. */
    public String describe() {
        final String bound = reason == Reason.TOPIC_FULL
            ? "the topic keeps %d publisher streams, its max-publishers".formatted(streams)
            : "its host holds %d of the topic's streams, the most one host may".formatted(streams);
        return ("topic %d, publisher session %d turned away: %s; its datagrams are dropped until a stream ends")
            .formatted(topicId, sessionId, bound);
    }
}
