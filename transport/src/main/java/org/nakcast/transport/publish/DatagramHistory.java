package org.nakcast.transport.publish;

import java.nio.ByteBuffer;

import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The off-heap ring a publisher builds its datagrams in and answers NAKs from: one fixed-size slot
 * per datagram sequence, slot = sequence modulo capacity. A datagram is written in place, sent
 * from its slot, and kept until its slot is reused {@code capacity} sequences later.
 */
final class DatagramHistory {
    /** The smallest history: enough slots to fragment a message and still keep some past. */
    static final int MIN_SLOTS = 16;
    /** The most slots one history holds. */
    static final int MAX_SLOTS = 1 << 24;

    private final int capacity;
    private final int mask;
    private final int slotLength;
    private final ByteBuffer byteBuffer;
    private final UnsafeBuffer buffer;
    private final long[] lastRetransmitNs;

    /**
     * @param historyBytes bytes the history may use; rounded down to a power-of-two slot count
     * @param slotLength the largest datagram, in bytes
     */
    DatagramHistory(long historyBytes, int slotLength) {
        this.capacity = slotsFor(historyBytes, slotLength);
        this.mask = capacity - 1;
        this.slotLength = slotLength;
        this.byteBuffer = ByteBuffer.allocateDirect(Math.multiplyExact(capacity, slotLength));
        this.buffer = new UnsafeBuffer(byteBuffer);
        this.lastRetransmitNs = new long[capacity];
    }

    /** Frees the off-heap slots now rather than at some later GC; the history is unusable after. */
    void free() {
        BufferUtil.free(byteBuffer);
    }

    /** Number of datagram slots; a power of two. */
    int capacity() {
        return capacity;
    }

    /** Bytes per slot. */
    int slotLength() {
        return slotLength;
    }

    /** The buffer all slots live in. */
    UnsafeBuffer buffer() {
        return buffer;
    }

    /** A {@link ByteBuffer} over the same memory, for handing slots to a socket. */
    ByteBuffer byteBuffer() {
        return byteBuffer;
    }

    /** Offset of the slot for {@code sequence} in {@link #buffer()}. */
    int slotOffset(long sequence) {
        return (int) (sequence & mask) * slotLength;
    }

    /** Forgets the slot's retransmit time: it now holds a new datagram. */
    void resetRetransmitTime(long sequence) {
        lastRetransmitNs[(int) (sequence & mask)] = Long.MIN_VALUE;
    }

    /** Whether the datagram in this slot was sent again less than {@code holdOffNs} before {@code nowNs}. */
    boolean retransmittedWithin(long sequence, long nowNs, long holdOffNs) {
        final long last = lastRetransmitNs[(int) (sequence & mask)];
        return last != Long.MIN_VALUE && nowNs - last < holdOffNs;
    }

    /** Records that the datagram in this slot was sent again at {@code nowNs}. */
    void retransmittedAt(long sequence, long nowNs) {
        lastRetransmitNs[(int) (sequence & mask)] = nowNs;
    }

    /** The slot count a history of {@code historyBytes} gets: a power of two in [MIN_SLOTS, MAX_SLOTS]. */
    static int slotsFor(long historyBytes, int slotLength) {
        final long slots = Math.min(MAX_SLOTS, Math.max(MIN_SLOTS, historyBytes / slotLength));
        return Integer.highestOneBit((int) slots);
    }
}
