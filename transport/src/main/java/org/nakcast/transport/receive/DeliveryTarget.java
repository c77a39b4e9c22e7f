package org.nakcast.transport.receive;

import org.agrona.DirectBuffer;
import org.nakcast.transport.MessageHeader;
import org.nakcast.transport.StreamEventListener;

/**
 * Where one subscription's messages and events go from the receiving thread: straight to its
 * handler ({@link #onReceivingThread}), or into a {@link QueuedDelivery} its application polls.
 * Called on the receiving thread only.
 */
public interface DeliveryTarget extends StreamEventListener {
    /**
     * Whether every message the next datagram completes can be taken now.
     *
     * @param datagramLength the datagram's length
     * @param assembledLength bytes of a fragmented message joined so far, which the datagram may complete
     */
    boolean hasRoomFor(int datagramLength, int assembledLength);

    /**
     * How far the subscription's consumer has got: moves whenever it takes something, so a full queue
     * whose poller still takes messages (slow) can be told from one whose poller stopped.
     */
    long consumed();

    /**
     * Whether a subscription that was overrun has caught up enough to take messages again: more than
     * room for the next datagram, so that one that is only slow does not flap in and out.
     */
    boolean hasCaughtUp();

    /**
     * Takes one message; read the buffer only during the call.
     *
     * @return false if it could not be taken (no room): nothing of it was kept
     */
    boolean offer(DirectBuffer buffer, int offset, int length, MessageHeader header);

    /**
     * How many times the subscription's handler or listener threw, on whichever thread it ran.
     * Read from any thread.
     */
    long handlerErrors();

    /** The receiving thread caught an exception thrown inside one of this target's calls. */
    void handlerThrew();

    /** Delivery on the receiving thread: always room; the handler and listener run inside these calls. */
    static DeliveryTarget onReceivingThread(MessageBytesHandler handler, StreamEventListener listener) {
        return new ReceivingThreadDelivery(handler, listener);
    }
}
