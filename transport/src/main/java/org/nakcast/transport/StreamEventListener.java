package org.nakcast.transport;

import org.nakcast.codecs.CodecException;

/**
 * What happens to publisher streams as a receiver sees them. Called on the receiving thread;
 * every method has an empty default, so a listener implements only what it cares about.
 */
public interface StreamEventListener {
    /**
     * A publisher stream was first heard.
     *
     * @param topicId the topic
     * @param sessionId the publisher session
     * @param firstSequence the datagram sequence delivery starts from
     */
    default void onStreamStarted(int topicId, int sessionId, long firstSequence) {
    }

    /** A publisher stream ended: its publisher fell silent or restarted; see {@link PublisherGone}. */
    default void onPublisherGone(PublisherGone event) {
    }

    /** Messages were lost for good; see {@link LossEvent}. */
    default void onLoss(LossEvent event) {
    }

    /**
     * A typed subscription's codec could not decode a message (corrupt bytes, a class outside the
     * allow-list, ...); it was skipped and counted, and delivery goes on.
     *
     * @param header the message's topic, publisher session and index; reused, read it during the call
     * @param error what the codec said, naming the class or offset
     */
    default void onUndecodable(MessageHeader header, CodecException error) {
    }
}
