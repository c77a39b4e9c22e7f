package org.nakcast.transport;

/**
 * On which thread a subscription's handler and listener run: chosen in code, at subscribe.
 *
 * <pre>
 *   ON_POLL:              receiving thread --queue (delivery-queue)--> Subscription.poll(), your thread
 *   ON_RECEIVING_THREAD:  receiving thread --> handler, inside the receive loop
 * </pre>
 */
public enum Delivery {
    /**
     * Messages and events wait in the subscription's bounded queue (the topic's
     * {@code delivery-queue}) until the application calls {@link Subscription#poll} on a thread of
     * its choosing. The default: the handler may take its time and may offer and wait for
     * back-pressure; a poller that stops costs only itself (after the topic's
     * {@code delivery-queue-timeout} it is overrun, and told exactly what it missed).
     */
    ON_POLL,
    /**
     * The handler and listener run on the node's receiving thread, as datagrams arrive: no queue and
     * no hand-over, the lowest latency. They must be quick and must never block (see
     * {@link MessageHandler}); {@link Subscription#poll} delivers nothing.
     */
    ON_RECEIVING_THREAD
}
