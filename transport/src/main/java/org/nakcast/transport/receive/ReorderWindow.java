package org.nakcast.transport.receive;

import java.nio.ByteBuffer;
import java.util.Arrays;

import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The datagrams of one stream that arrived ahead of a gap, held until the gap is repaired. A ring
 * of {@code capacity} fixed-size slots off-heap; datagram {@code s} lives in slot
 * {@code s & (capacity - 1)}. Each slot remembers the sequence it holds, so a slot left behind by
 * a delivered or skipped datagram never answers for a later sequence and nothing needs clearing.
 *
 * <p>The off-heap slots are taken at the first {@link #store}: a stream that never sees a gap, and a
 * session forged with a datagram or two, costs only the slot bookkeeping.
 *
 * <p>The caller keeps sequences in [expected, expected + capacity): two of them never share a slot.
 */
final class ReorderWindow {
    private static final long EMPTY = -1;

    private final int mask;
    private final int slotLength;
    private final UnsafeBuffer slots = new UnsafeBuffer(new byte[0]);
    private final long[] slotSequence;
    private final int[] slotDatagramLength;

    /**
     * @param capacity slots, a power of two
     * @param slotLength bytes per slot: the largest datagram it can hold
     */
    ReorderWindow(int capacity, int slotLength) {
        this.mask = capacity - 1;
        this.slotLength = slotLength;
        this.slotSequence = new long[capacity];
        this.slotDatagramLength = new int[capacity];
        Arrays.fill(slotSequence, EMPTY);
    }

    /** Frees the off-heap slots now rather than at some later GC; the window is unusable after. */
    void free() {
        if (isAllocated()) {
            BufferUtil.free(slots.byteBuffer());
        }
    }

    /** Whether the off-heap slots were taken: after the first {@link #store}. */
    boolean isAllocated() {
        return slots.capacity() > 0;
    }

    /** How many datagrams the window holds at most. */
    int capacity() {
        return mask + 1;
    }

    /** Whether a datagram of {@code length} bytes fits a slot. */
    boolean fits(int length) {
        return length <= slotLength;
    }

    /** Whether datagram {@code sequence} is held. */
    boolean contains(long sequence) {
        return slotSequence[slot(sequence)] == sequence;
    }

    /** Copies datagram {@code sequence} into its slot; its length must {@link #fits fit}. */
    void store(long sequence, DirectBuffer buffer, int offset, int length) {
        if (!isAllocated()) {
            slots.wrap(ByteBuffer.allocateDirect(capacity() * slotLength));
        }
        final int slot = slot(sequence);
        slots.putBytes(slot * slotLength, buffer, offset, length);
        slotSequence[slot] = sequence;
        slotDatagramLength[slot] = length;
    }

    /** The buffer every slot lives in. */
    UnsafeBuffer buffer() {
        return slots;
    }

    /** Where held datagram {@code sequence} starts in {@link #buffer()}. */
    int offsetOf(long sequence) {
        return slot(sequence) * slotLength;
    }

    /** The length of held datagram {@code sequence}. */
    int lengthOf(long sequence) {
        return slotDatagramLength[slot(sequence)];
    }

    private int slot(long sequence) {
        return (int) sequence & mask;
    }
}
