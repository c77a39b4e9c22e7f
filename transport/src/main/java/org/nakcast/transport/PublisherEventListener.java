package org.nakcast.transport;

/**
 * What happens to a node's publications as the receivers' reports and NAKs come in. Called on the node's
 * sending thread; must not block. Set with {@link NodeContext#publisherEvents}; every method has an
 * empty default.
 */
public interface PublisherEventListener {
    /** A topic with flow control {@code min} stopped waiting for a silent receiver. */
    default void onReceiverDropped(ReceiverDropped event) {
    }

    /** A receiver asked for data the history no longer holds and was answered UNRECOVERABLE. */
    default void onReceiverOutrun(ReceiverOutrun event) {
    }
}
