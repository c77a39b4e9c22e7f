package org.nakcast.config;

/**
 * What a topic's {@code delivery-queue} of a given size holds and carries: the one statement of
 * the rule that {@code conclude()} checks every topic against, and that the transport's queue of a
 * subscription that polls is built to keep.
 *
 * <p>A queue of N bytes is a ring of N rounded down to a power of two, at most {@code 1g}. N holds
 * at least {@value #MIN_DATAGRAMS} datagrams of the topic's transport, or the topic's streams stall
 * on every datagram. The ring carries a message of up to three quarters of its size less
 * {@value #DATAGRAM_ROOM} datagrams: the rest is room for what may arrive with the message's last
 * fragment (a datagram of the smallest messages takes several times its size as queue records),
 * for the headers of the pieces a long message travels in, and for the bytes a record leaves unused
 * where the ring wraps around.
 */
public final class DeliveryQueueSize {
    /** The fewest datagrams of its topic's transport a delivery queue holds. */
    public static final int MIN_DATAGRAMS = 64;
    /** The datagrams of room a ring keeps beside the longest message it carries. */
    public static final int DATAGRAM_ROOM = 16;
    /** The largest ring a delivery queue is: a larger {@code delivery-queue} gets no more. */
    public static final int MAX_RING_BYTES = 1 << 30;

    private DeliveryQueueSize() {
    }

    /**
     * @param queueBytes a topic's {@code delivery-queue}, in bytes (at least 1)
     * @return the bytes of the ring it is: the queue rounded down to a power of two, at most {@code 1g}
     */
    public static int ringBytes(long queueBytes) {
        return Integer.highestOneBit((int) Math.min(queueBytes, MAX_RING_BYTES));
    }

    /**
     * @param queueBytes a topic's {@code delivery-queue}, in bytes (at least 1)
     * @param datagramLength the {@code datagram-size} of the topic's transport, in bytes
     * @return the longest message the queue carries, once it is empty; negative for a queue too small
     *     for the datagrams
     */
    public static long largestMessage(long queueBytes, long datagramLength) {
        return ringBytes(queueBytes) / 4 * 3 - DATAGRAM_ROOM * datagramLength;
    }

    /**
     * @param maxMessage a topic's {@code max-message}, in bytes, at most what the largest ring carries
     * @param datagramLength the {@code datagram-size} of the topic's transport, in bytes
     * @return the smallest queue that holds {@value #MIN_DATAGRAMS} datagrams and carries messages of
     *     {@code maxMessage} bytes
     * @throws IllegalArgumentException if no queue carries messages that long
     */
    static long smallestQueue(long maxMessage, long datagramLength) {
        for (long ring = 1; ring <= MAX_RING_BYTES; ring *= 2) {
            if (largestMessage(ring, datagramLength) >= maxMessage) {
                return Math.max(ring, MIN_DATAGRAMS * datagramLength);
            }
        }
        throw new IllegalArgumentException("no delivery queue carries messages of " + maxMessage + " bytes");
    }
}
