package org.nakcast.transport;

import org.agrona.DirectBuffer;

/**
 * Receives whole messages of a topic, in order, exactly once per publisher stream.
 *
 * <p>Called on the receiving thread. The buffer region is valid only during the call: copy what
 * must outlive it. Must not block: a slow handler backs up the receiver for every topic. With
 * threading {@code shared} or {@code invoker} the same thread also sends: a handler that offers
 * and waits for back-pressure to clear waits forever. Offer once and keep what did not go, or use
 * topic {@code delivery: queue} and answer from the polling thread.
 */
@FunctionalInterface
public interface MessageHandler {
    /**
     * One message.
     *
     * @param buffer holds the message bytes
     * @param offset where the message starts in {@code buffer}
     * @param length message length in bytes
     * @param header where the message came from; reused, valid only during the call
     */
    void onMessage(DirectBuffer buffer, int offset, int length, MessageHeader header);
}
