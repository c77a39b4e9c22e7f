package org.nakcast.transport;

import org.nakcast.transport.receive.ReceiverAgent;

/**
 * A subscription to one topic, typed or raw. Messages and stream events reach the listeners given
 * at {@link Node#subscribe} (or {@code subscribeFlyweight}), on the node's receiving thread, until
 * {@link #close()}.
 */
public final class Subscription implements AutoCloseable {
    private final String topicName;
    private final int topicId;
    private final MessageHandler handler;
    private final ReceiverAgent receiver;

    Subscription(String topicName, int topicId, MessageHandler handler, ReceiverAgent receiver) {
        this.topicName = topicName;
        this.topicId = topicId;
        this.handler = handler;
        this.receiver = receiver;
    }

    /** The topic's name. */
    public String topicName() {
        return topicName;
    }

    /** The topic's numeric id. */
    public int topicId() {
        return topicId;
    }

    /** Stops delivery to this subscription. */
    @Override
    public void close() {
        receiver.removeSubscription(topicId, handler);
    }
}
