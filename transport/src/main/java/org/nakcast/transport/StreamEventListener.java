package org.nakcast.transport;

import org.nakcast.codecs.CodecException;

/**
 * What happens to publisher streams as a subscription sees them, on the thread its messages arrive
 * on (see {@link Delivery}), in order with them. Every method has an empty default, so a listener
 * implements only what it cares about; {@link #NONE} cares about nothing. Whatever a listener does,
 * the node also logs each loss and publisher gone, and counts everything.
 */
public interface StreamEventListener {
    /** A listener that takes no action: the events still reach the node's log and counters. */
    StreamEventListener NONE = new StreamEventListener() {
    };

    /** A publisher stream was first heard, or resumes; see {@link StreamStarted}. */
    default void onStreamStarted(StreamStarted event) {
    }

    /** A publisher stream ended: closed, silent or restarted; see {@link PublisherGone}. */
    default void onPublisherGone(PublisherGone event) {
    }

    /** Messages were lost for good; see {@link LossEvent}. */
    default void onLoss(LossEvent event) {
    }

    /** One of a stream's two lines stopped bringing it; nothing is lost; see {@link LineDown}. */
    default void onLineDown(LineDown event) {
    }

    /** A line that was down brings the stream again; see {@link LineUp}. */
    default void onLineUp(LineUp event) {
    }

    /** A publisher session was turned away for want of room; see {@link StreamRefused}. */
    default void onStreamRefused(StreamRefused event) {
    }

    /** Messages its publisher no longer holds are fetched from the topic's recorders; see {@link RecoveryStarted}. */
    default void onRecoveryStarted(RecoveryStarted event) {
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
