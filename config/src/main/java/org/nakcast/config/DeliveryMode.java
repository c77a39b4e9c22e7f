package org.nakcast.config;

/**
 * On which thread a topic's subscribers get their messages and events ({@code topics[].delivery}
 * in YAML).
 */
public enum DeliveryMode {
    /**
     * On the node's receiving thread, as each datagram is put in order, the default: the least
     * latency, but a slow callback holds up every topic of the node.
     */
    RECEIVER_THREAD,
    /**
     * Through a bounded queue ({@code delivery-queue} bytes per subscription) to whichever thread
     * polls the subscription. A full queue holds the stream back (datagrams wait in the reorder
     * window, then are asked for again): a slow consumer slows its streams down, nothing is lost
     * unless the publisher's history moves past it.
     */
    QUEUE
}
