package org.nakcast.transport;

/**
 * Receives a typed topic's messages, in order, exactly once per publisher stream: decoded objects
 * from {@link Node#subscribe(String, Class, MessageListener, StreamEventListener)}, or decoder
 * flyweights wrapped over the received datagram from {@code Node.subscribeFlyweight}.
 *
 * <p>Called on the receiving thread. A flyweight, and the header, are reused: read them during the
 * call. Must not block: a slow listener backs up the receiver for every topic, and with threading
 * {@code shared} or {@code invoker} a listener that waits for a publication's back-pressure to clear
 * waits forever (the same thread sends); see {@link MessageHandler}.
 *
 * @param <T> the message type, or the decoder flyweight type
 */
@FunctionalInterface
public interface MessageListener<T> {
    /**
     * One message.
     *
     * @param message the decoded message, or the decoder wrapped over it
     * @param header where the message came from
     */
    void onMessage(T message, MessageHeader header);
}
