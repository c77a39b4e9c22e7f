package org.nakcast.benchmarks.throughput;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class ProcessCpuTest {
    @Test
    void coresAreTheMedianCpuSecondsPerSecondOverTheMeasuredOnes() {
        final PerSecondCounts cpuNanos = new PerSecondCounts(4);
        cpuNanos.record(5_000_000_000L);
        cpuNanos.record(6_500_000_000L);
        cpuNanos.record(7_500_000_000L);
        cpuNanos.record(8_700_000_000L);

        assertThat(ProcessCpu.cores(cpuNanos, 1, 3)).isCloseTo(1.2, within(1e-9));
    }

    @Test
    void aJvmThatCannotTellGivesNaN() {
        final PerSecondCounts unknown = new PerSecondCounts(2);
        unknown.record(ProcessCpu.UNKNOWN);
        unknown.record(ProcessCpu.UNKNOWN);

        assertThat(ProcessCpu.cores(unknown, 1, 1)).isNaN();
        assertThat(ProcessCpu.cores(new PerSecondCounts(2), 0, 2)).isNaN();
    }

    @Test
    void thisJvmTellsItsCpuTimeAndItGrows() {
        final long before = ProcessCpu.nanos();
        long spin = 0;
        for (int i = 0; i < 50_000_000; i++) {
            spin += i ^ spin;
        }
        assertThat(spin).isNotZero();
        assertThat(ProcessCpu.nanos()).isGreaterThan(before).isPositive();
    }
}
