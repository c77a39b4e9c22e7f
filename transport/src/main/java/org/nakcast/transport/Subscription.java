package org.nakcast.transport;

import org.nakcast.transport.receive.DeliveryTarget;
import org.nakcast.transport.receive.QueuedDelivery;
import org.nakcast.transport.receive.ReceiverAgent;

/**
 * A subscription to one topic, typed or raw. With the topic's {@code delivery: receiver-thread}
 * (the default) messages and stream events reach the listeners given at {@link Node#subscribe} on
 * the node's receiving thread; with {@code delivery: queue} they wait in a bounded queue until the
 * application calls {@link #poll} on a thread of its choosing. Either way until {@link #close()}.
 */
public final class Subscription implements AutoCloseable {
    private final String topicName;
    private final int topicId;
    private final DeliveryTarget target;
    private final ReceiverAgent receiver;
    private final QueuedDelivery queue;

    Subscription(String topicName, int topicId, DeliveryTarget target, ReceiverAgent receiver, QueuedDelivery queue) {
        this.topicName = topicName;
        this.topicId = topicId;
        this.target = target;
        this.receiver = receiver;
        this.queue = queue;
    }

    /** The topic's name. */
    public String topicName() {
        return topicName;
    }

    /** The topic's numeric id. */
    public int topicId() {
        return topicId;
    }

    /** Whether messages wait in a queue for {@link #poll} rather than arrive on the receiving thread. */
    public boolean isQueued() {
        return queue != null;
    }

    /**
     * Delivers queued messages and events, in the order they happened, on the calling thread. One
     * thread polls a subscription. Allocation-free. A handler or listener that throws ends the call:
     * the exception reaches the caller, what it threw on counts as delivered, and the next call goes
     * on with what follows.
     *
     * @param limit the most messages and events to deliver in this call
     * @return how many were delivered; 0 when the queue is empty
     * @throws IllegalStateException if the topic delivers on the receiving thread
     */
    public int poll(int limit) {
        if (queue == null) {
            throw new IllegalStateException("topic '" + topicName
                + "' delivers on the receiving thread: there is nothing to poll (set delivery: queue to poll)");
        }
        return queue.poll(limit);
    }

    /** Stops delivery to this subscription. */
    @Override
    public void close() {
        receiver.removeSubscription(topicId, target);
    }
}
