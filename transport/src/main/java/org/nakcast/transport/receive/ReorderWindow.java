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
 * <pre>
 *   slot      0 .. 31 | 32 .. 63 | 64 .. 95 | ... | capacity - 32 .. capacity - 1
 *   page      0       | 1        | 2        | ... | capacity / 32 - 1
 *             taken   | null     | taken    | ... | null
 * </pre>
 *
 * <p>The slots come in pages of {@link #PAGE_SLOTS} (fewer if the window is smaller), each taken
 * off-heap at the first {@link #store} into it and kept until {@link #free}: the window takes
 * memory in proportion to how far ahead of a gap datagrams have been held, not to its capacity.
 * A stream that never sees a gap, and a session forged with a datagram or two, costs the slot
 * bookkeeping and at most a page or two; once a stream's losses have touched its pages, holding
 * datagrams allocates nothing.
 *
 * <p>The caller keeps sequences in [expected, expected + capacity): two of them never share a slot.
 */
final class ReorderWindow {
    /** Slots per page: 32 datagrams of 1408 bytes are 44 KiB. */
    static final int PAGE_SLOTS = 32;
    private static final long EMPTY = -1;

    private final int mask;
    private final int pageShift;
    private final int pageMask;
    private final int slotLength;
    private final UnsafeBuffer[] pages;
    private final long[] slotSequence;
    private final int[] slotDatagramLength;

    /**
     * @param capacity slots, a power of two
     * @param slotLength bytes per slot: the largest datagram it can hold
     */
    ReorderWindow(int capacity, int slotLength) {
        final int pageSlots = Math.min(capacity, PAGE_SLOTS);
        this.mask = capacity - 1;
        this.pageShift = Integer.numberOfTrailingZeros(pageSlots);
        this.pageMask = pageSlots - 1;
        this.slotLength = slotLength;
        this.pages = new UnsafeBuffer[capacity / pageSlots];
        this.slotSequence = new long[capacity];
        this.slotDatagramLength = new int[capacity];
        Arrays.fill(slotSequence, EMPTY);
    }

    /** Frees the off-heap pages now rather than at some later GC; the window is unusable after. */
    void free() {
        for (int i = 0; i < pages.length; i++) {
            if (pages[i] != null) {
                BufferUtil.free(pages[i].byteBuffer());
                pages[i] = null;
            }
        }
    }

    /** How many off-heap bytes the window has taken. */
    long allocatedBytes() {
        long bytes = 0;
        for (UnsafeBuffer page : pages) {
            bytes += page == null ? 0 : page.capacity();
        }
        return bytes;
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

    /**
     * Copies datagram {@code sequence} into its slot, taking the slot's page first if it has none;
     * its length must {@link #fits fit}.
     */
    void store(long sequence, DirectBuffer buffer, int offset, int length) {
        final int slot = slot(sequence);
        final int page = slot >>> pageShift;
        if (pages[page] == null) {
            pages[page] = new UnsafeBuffer(ByteBuffer.allocateDirect((pageMask + 1) * slotLength));
        }
        pages[page].putBytes(offsetIn(slot), buffer, offset, length);
        slotSequence[slot] = sequence;
        slotDatagramLength[slot] = length;
    }

    /** The buffer held datagram {@code sequence} lives in: its page. */
    UnsafeBuffer bufferOf(long sequence) {
        return pages[slot(sequence) >>> pageShift];
    }

    /** Where held datagram {@code sequence} starts in {@link #bufferOf}. */
    int offsetOf(long sequence) {
        return offsetIn(slot(sequence));
    }

    /** The length of held datagram {@code sequence}. */
    int lengthOf(long sequence) {
        return slotDatagramLength[slot(sequence)];
    }

    private int offsetIn(int slot) {
        return (slot & pageMask) * slotLength;
    }

    private int slot(long sequence) {
        return (int) sequence & mask;
    }
}
