package org.nakcast.transport;

import org.nakcast.transport.receive.ReceiverAgent;

/**
 * A subscription to one topic's byte messages. Messages and stream events reach the handler and
 * listener given at {@link Node#subscribe}, on the node's receiving thread, until {@link #close()}.
 */
public final class RawSubscription implements AutoCloseable {
    private final String topicName;
    private final int topicId;
    private final MessageHandler handler;
    private final ReceiverAgent receiver;

    RawSubscription(String topicName, int topicId, MessageHandler handler, ReceiverAgent receiver) {
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
