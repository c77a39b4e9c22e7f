package org.nakcast.transport.receive;

/**
 * Whether a stream may deliver its next in-order datagram now. A subscription that hands messages
 * to another thread through a bounded queue closes the gate while the queue is too full; the
 * stream then holds the datagram in its reorder window, and further datagrams behind it, until the
 * gate opens: a slow consumer slows its streams down instead of losing messages. Called on the
 * receiving thread; must not allocate.
 */
@FunctionalInterface
public interface DeliveryGate {
    /** Always open: delivery on the receiving thread. */
    DeliveryGate OPEN = (datagramLength, assembledLength, nowNs) -> true;

    /**
     * Whether every message the next datagram completes can be taken now.
     *
     * @param datagramLength the datagram's length
     * @param assembledLength bytes of a fragmented message joined so far, which the datagram may complete
     * @param nowNs the time
     */
    boolean canTake(int datagramLength, int assembledLength, long nowNs);
}
