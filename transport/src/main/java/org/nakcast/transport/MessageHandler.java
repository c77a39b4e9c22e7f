package org.nakcast.transport;

/**
 * Receives a subscription's messages, in order, exactly once per publisher stream: the message's
 * bytes (a {@link org.agrona.DirectBuffer} over exactly the message, from index 0 to its
 * capacity), a decoded object of the topic's codec, or a decoder flyweight wrapped over the
 * received bytes, as the subscription was made.
 *
 * <p>Called on the thread that polls the subscription, or on the node's receiving thread for a
 * subscription made with {@link Delivery#ON_RECEIVING_THREAD}. The buffer, a flyweight and the
 * header are reused: read them during the call, copy what must outlive it. On the receiving thread
 * it must not block: a slow handler backs up the receiver for every topic, and with threading
 * {@code shared} or {@code invoker} the same thread also sends, so a handler that offers and waits
 * for back-pressure to clear waits forever.
 *
 * @param <T> what a message is handed over as
 */
@FunctionalInterface
public interface MessageHandler<T> {
    /**
     * One message.
     *
     * @param message the message: its bytes, the decoded object, or the decoder wrapped over it
     * @param header where the message came from; reused, valid only during the call
     */
    void onMessage(T message, MessageHeader header);
}
