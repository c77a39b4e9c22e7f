package org.nakcast.transport.receive;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RepairTimeEstimatorTest {
    private final RepairTimeEstimator estimator = new RepairTimeEstimator(50_000, 1_000_000);

    @Test
    void startsAtTheGuess() {
        assertThat(estimator.estimateNs()).isEqualTo(50_000);
    }

    @Test
    void theFirstSampleReplacesTheGuess() {
        estimator.sample(12_000);

        assertThat(estimator.estimateNs()).isEqualTo(12_000);
    }

    @Test
    void laterSamplesMoveItAnEighthOfTheWay() {
        estimator.sample(80_000);
        estimator.sample(160_000);
        estimator.sample(0);

        assertThat(estimator.estimateNs()).isEqualTo(78_750);
    }

    @Test
    void settlesOnASteadyRepairTime() {
        estimator.sample(1_000_000);
        for (int i = 0; i < 200; i++) {
            estimator.sample(30_000);
        }

        assertThat(estimator.estimateNs()).isBetween(30_000L, 30_007L);
    }

    @Test
    void samplesAreClampedToTheMaximumAndToZero() {
        estimator.sample(7_000_000);
        assertThat(estimator.estimateNs()).isEqualTo(1_000_000);

        final RepairTimeEstimator other = new RepairTimeEstimator(50_000, 1_000_000);
        other.sample(-5);
        assertThat(other.estimateNs()).isZero();
    }
}
