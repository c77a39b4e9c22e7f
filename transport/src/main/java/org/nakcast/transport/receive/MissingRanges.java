package org.nakcast.transport.receive;

/**
 * The ranges of datagrams a stream is missing, as one NAK would list them: inclusive, ascending,
 * disjoint, at most {@code maxRanges}. Reused: {@link #collect} overwrites the last answer.
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
     * ranges, the lowest first, until {@code maxRanges} are found.
     *
     * @return how many ranges were found
     */
    int collect(ReorderWindow window, long from, long to) {
        count = 0;
        long sequence = from;
        while (sequence <= to && count < maxRanges) {
            if (window.contains(sequence)) {
                sequence++;
                continue;
            }
            final long rangeFrom = sequence;
            while (sequence < to && !window.contains(sequence + 1)) {
                sequence++;
            }
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
