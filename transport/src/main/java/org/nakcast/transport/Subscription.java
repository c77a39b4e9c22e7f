package org.nakcast.transport;

import org.nakcast.transport.receive.DeliveryTarget;
import org.nakcast.transport.receive.QueuedDelivery;
import org.nakcast.transport.receive.ReceiverAgent;

/**
 * A subscription to one topic, of bytes, objects or flyweights, until {@link #close()}. Made with
 * {@link Delivery#ON_POLL} (the default), its messages and stream events wait in a bounded queue
 * until the application calls {@link #poll} on a thread of its choosing; made with
 * {@link Delivery#ON_RECEIVING_THREAD}, they reach its handler and listener on the node's
 * receiving thread, and {@link #poll} has nothing to deliver.
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

    /** On which thread the messages arrive. */
    public Delivery delivery() {
        return queue == null ? Delivery.ON_RECEIVING_THREAD : Delivery.ON_POLL;
    }

    /**
     * Delivers queued messages and events, in the order they happened, on the calling thread. One
     * thread polls a subscription. Allocation-free. A handler or listener that throws ends the call:
     * the exception reaches the caller, what it threw on counts as delivered, and the next call goes
     * on with what follows.
     *
     * @param limit the most messages and events to deliver in this call
     * @return how many were delivered; 0 when the queue is empty, and always for a subscription on
     *     the receiving thread (it has no queue)
     */
    public int poll(int limit) {
        return queue == null ? 0 : queue.poll(limit);
    }

    /**
     * How many times this subscription's handler or listener threw: on the receiving thread (each
     * caught there, counted node-wide too and logged, the first with its trace, then a count per
     * interval) or in {@link #poll} (each reached the caller). Read from any thread.
     */
    public long handlerErrors() {
        return target.handlerErrors();
    }

    /** Stops delivery to this subscription. */
    @Override
    public void close() {
        receiver.removeSubscription(topicId, target);
    }
}
