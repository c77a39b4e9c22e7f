package org.nakcast.transport;

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

    /** Messages were lost for good; see {@link LossEvent}. */
    default void onLoss(LossEvent event) {
    }
}
