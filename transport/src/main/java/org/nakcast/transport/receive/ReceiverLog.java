package org.nakcast.transport.receive;

import org.nakcast.transport.LineDown;
import org.nakcast.transport.LineUp;
import org.nakcast.transport.LossEvent;
import org.nakcast.transport.RecoveryStarted;
import org.nakcast.transport.StreamRefused;
import org.nakcast.transport.PublisherGone;
import org.nakcast.transport.StreamStarted;
import org.nakcast.transport.media.DatagramSource;

/**
 * What a node's receiving side tells its operators, beside each subscription's own listener: a node
 * writes these to its log and tells its node-wide listener. Called on the receiving thread, rarely
 * (never per message).
 */
public interface ReceiverLog {
    /** Tells nobody: for tests and simulations. */
    ReceiverLog NONE = new ReceiverLog() { };

    /** A publisher stream of {@code topic} was first heard, or resumes. */
    default void onStreamStarted(SubscriptionSettings topic, StreamStarted event) {
    }

    /** A publisher stream of {@code topic} ended. */
    default void onPublisherGone(SubscriptionSettings topic, PublisherGone event) {
    }

    /** Messages of a stream of {@code topic} were lost for good. */
    default void onLoss(SubscriptionSettings topic, LossEvent event) {
    }

    /** A line of a stream of {@code topic} went down. */
    default void onLineDown(SubscriptionSettings topic, LineDown event) {
    }

    /** A line of a stream of {@code topic} that was down came up again. */
    default void onLineUp(SubscriptionSettings topic, LineUp event) {
    }

    /** A stream of {@code topic} fetches what its publisher no longer holds from the topic's recorders. */
    default void onRecoveryStarted(SubscriptionSettings topic, RecoveryStarted event) {
    }

    /** A session of {@code topic} was turned away; told once per session until a stream ends. */
    default void onStreamRefused(SubscriptionSettings topic, StreamRefused event) {
    }

    /**
     * {@code topic} keeps as many publisher streams as it may, and turned away a datagram of the new
     * session {@code sessionId}; told once until a stream ends.
     */
    default void onSessionsRefused(SubscriptionSettings topic, int streams, int sessionId) {
    }

    /**
     * {@code topic} keeps {@code streams} publisher streams from {@code source}'s address, the most one
     * host may hold, and turned away a datagram of its new session {@code sessionId}; told once until a
     * stream ends.
     */
    default void onSourceShareReached(SubscriptionSettings topic, DatagramSource source, int streams,
        int sessionId) {
    }
}
