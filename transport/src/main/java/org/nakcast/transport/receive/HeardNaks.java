package org.nakcast.transport.receive;

import org.nakcast.transport.protocol.NakFlyweight;

/**
 * The ranges other receivers lately asked for on one stream, as heard in their NAKs: what NAK
 * suppression holds a stream's own missing ranges against. Together, not one NAK at a time: two
 * receivers that each asked for one of two gaps silence a third that misses both, and a NAK heard
 * before this receiver found the gap itself (it was still reading the datagrams before it) still
 * silences it when its own NAK falls due.
 *
 * <p>Keeps the last {@link #CAPACITY} ranges heard with the time each was heard; the caller says
 * how old a range may be and still count (less than a retry interval: by then its repair should
 * have come, and a receiver still missing it must ask itself). A NAK of more ranges than that keeps its
 * highest ones; a range forgotten early only means this receiver asks itself. Nothing is allocated
 * after construction.
 */
final class HeardNaks {
    /** How many ranges are remembered. */
    static final int CAPACITY = 16;

    private final long[] from = new long[CAPACITY];
    private final long[] to = new long[CAPACITY];
    private final long[] heardNs = new long[CAPACITY];
    private int next;
    private int size;

    /** Remembers the ranges of {@code nak}, heard at {@code nowNs}. */
    void add(NakFlyweight nak, long nowNs) {
        for (int i = 0, count = nak.rangeCount(); i < count; i++) {
            from[next] = nak.rangeFrom(i);
            to[next] = nak.rangeTo(i);
            heardNs[next] = nowNs;
            next = (next + 1) % CAPACITY;
            size = Math.min(size + 1, CAPACITY);
        }
    }

    /**
     * Whether the ranges heard after {@code afterNs}, taken together, hold every sequence of
     * {@code missing}'s ranges.
     */
    boolean cover(MissingRanges missing, long afterNs) {
        for (int i = 0, count = missing.count(); i < count; i++) {
            if (!cover(missing.from(i), missing.to(i), afterNs)) {
                return false;
            }
        }
        return true;
    }

    /** Whether [{@code first}, {@code last}] lies in the union of the ranges heard after {@code afterNs}. */
    private boolean cover(long first, long last, long afterNs) {
        long uncovered = first;
        boolean advanced = true;
        while (advanced) {
            advanced = false;
            for (int i = 0; i < size; i++) {
                if (heardNs[i] > afterNs && from[i] <= uncovered && to[i] >= uncovered) {
                    if (to[i] >= last) {
                        return true;
                    }
                    uncovered = to[i] + 1;
                    advanced = true;
                }
            }
        }
        return false;
    }
}
