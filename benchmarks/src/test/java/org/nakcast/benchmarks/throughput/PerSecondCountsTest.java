package org.nakcast.benchmarks.throughput;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PerSecondCountsTest {

    @Test
    void ratesAreDifferencesOfTheCumulativeCounts() {
        final PerSecondCounts counts = counts(100, 250, 450);

        assertThat(counts.rates()).containsExactly(100, 150, 200);
    }

    @Test
    void medianSkipsTheWarmUpAndTakesTheMiddleRate() {
        final PerSecondCounts counts = counts(10, 110, 140, 240, 1_240);

        assertThat(counts.median(1, 3)).isEqualTo(100);
    }

    @Test
    void medianOfAnEvenCountIsTheMeanOfTheTwoMiddleRates() {
        final PerSecondCounts counts = counts(100, 300, 400, 700);

        assertThat(counts.median(0, 4)).isEqualTo(150);
    }

    @Test
    void medianUsesOnlyTheSecondsRecorded() {
        assertThat(counts(100, 300).median(1, 10)).isEqualTo(200);
        assertThat(counts(100).median(3, 10)).isZero();
    }

    @Test
    void secondsBeyondTheCapacityAreNotKept() {
        final PerSecondCounts counts = new PerSecondCounts(2);
        counts.record(1);
        counts.record(2);
        counts.record(3);

        assertThat(counts.size()).isEqualTo(2);
    }

    private static PerSecondCounts counts(long... cumulative) {
        final PerSecondCounts counts = new PerSecondCounts(cumulative.length);
        for (long count : cumulative) {
            counts.record(count);
        }
        return counts;
    }
}
