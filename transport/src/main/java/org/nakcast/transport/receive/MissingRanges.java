package org.nakcast.transport.receive;

import org.nakcast.transport.protocol.NakFlyweight;

/**
 * The ranges of datagrams a stream is missing, as one NAK would list them: inclusive, ascending,
 * disjoint, at most {@code maxRanges} ranges and {@link NakFlyweight.MAX_DATAGRAMS_ASKED}
 * datagrams in all, the lowest first. A NAK of this receiver is always narrow, so the publisher
 * repairs it ahead of any wide one; a stream missing more asks for the rest once this is repaired.
 * Reused: {@link #collect} overwrites the last answer.
 */
final class MissingRanges {
    private final long[] bounds;
    private final int maxRanges;
    private int count;

    /** @param maxRanges the most ranges one NAK carries */
    MissingRanges(int maxRanges) {
        this.maxRanges = maxRanges;
        this.bounds = new long[2 * maxRanges];
    }

    /**
     * Collects the sequences in [{@code from}, {@code to}] the window does not hold, coalesced into
     * ranges, the lowest first, until {@code maxRanges} ranges or a NAK's datagrams are found. When
     * {@code from} is missing and below {@code oldestHeld}, the publisher's history no longer holds
     * it: it alone stands for everything below {@code oldestHeld} (the publisher answers it with one
     * UNRECOVERABLE for all it no longer holds), and collecting goes on from {@code oldestHeld}.
     *
     * @return how many ranges were found
     */
    int collect(ReorderWindow window, long from, long to, long oldestHeld) {
        count = 0;
        long datagramsLeft = NakFlyweight.MAX_DATAGRAMS_ASKED;
        long sequence = from;
        if (from < oldestHeld && from <= to && !window.contains(from)) {
            bounds[0] = from;
            bounds[1] = from;
            count = 1;
            datagramsLeft--;
            sequence = Math.max(from + 1, Math.min(oldestHeld, to + 1));
        }
        while (sequence <= to && count < maxRanges && datagramsLeft > 0) {
            if (window.contains(sequence)) {
                sequence++;
                continue;
            }
            final long rangeFrom = sequence;
            while (sequence < to && sequence - rangeFrom + 1 < datagramsLeft && !window.contains(sequence + 1)) {
                sequence++;
            }
            datagramsLeft -= sequence - rangeFrom + 1;
            bounds[2 * count] = rangeFrom;
            bounds[2 * count + 1] = sequence;
            count++;
            sequence++;
        }
        return count;
    }

    /** How many ranges the last {@link #collect} found. */
    int count() {
        return count;
    }

    /** First sequence of range {@code index}. */
    long from(int index) {
        return bounds[2 * index];
    }

    /** Last sequence (inclusive) of range {@code index}. */
    long to(int index) {
        return bounds[2 * index + 1];
    }

    /** The last sequence of the last range; only when {@link #count()} is positive. */
    long highest() {
        return to(count - 1);
    }
}
