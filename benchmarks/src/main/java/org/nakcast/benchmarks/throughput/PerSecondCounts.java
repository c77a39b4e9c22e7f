package org.nakcast.benchmarks.throughput;

import java.util.Arrays;

/**
 * A running count read once a second: sample {@code i} is the count at the end of second
 * {@code i}, measured from a start the owner chose. Pre-allocated; {@link #record} allocates
 * nothing. One thread records; another reads only after the recording thread is done with it.
 */
final class PerSecondCounts {
    private final long[] cumulative;
    private int size;

    /** Room for {@code capacity} seconds; later samples are not kept. */
    PerSecondCounts(int capacity) {
        this.cumulative = new long[capacity];
    }

    /** Records the count at the end of the next second. */
    void record(long count) {
        if (size < cumulative.length) {
            cumulative[size++] = count;
        }
    }

    /** How many seconds were recorded. */
    int size() {
        return size;
    }

    /** How much the count grew during second {@code second} (0-based). */
    long rateAt(int second) {
        return cumulative[second] - (second == 0 ? 0 : cumulative[second - 1]);
    }

    /**
     * The median per-second rate over seconds [{@code from}, {@code from + count}), of those that
     * were recorded: the middle one, or the mean of the two middle ones. 0 if none was recorded.
     */
    double median(int from, int count) {
        final int end = Math.min(size, from + count);
        if (end <= from) {
            return 0;
        }
        final long[] rates = new long[end - from];
        for (int i = from; i < end; i++) {
            rates[i - from] = rateAt(i);
        }
        Arrays.sort(rates);
        final int middle = rates.length / 2;
        return rates.length % 2 == 1 ? rates[middle] : (rates[middle - 1] + rates[middle]) / 2.0;
    }

    /** The per-second rates recorded, for a report. */
    long[] rates() {
        final long[] rates = new long[size];
        for (int i = 0; i < size; i++) {
            rates[i] = rateAt(i);
        }
        return rates;
    }
}
