package org.nakcast.transport;

/**
 * What happens to a node's publications as the receivers' reports come in. Called on the node's
 * sending thread; must not block. Set with {@link NodeContext#publisherEvents}; every method has an
 * empty default.
 */
public interface PublisherEventListener {
    /** A topic with flow control {@code min} stopped waiting for a silent receiver. */
    default void onReceiverDropped(ReceiverDropped event) {
    }
}
