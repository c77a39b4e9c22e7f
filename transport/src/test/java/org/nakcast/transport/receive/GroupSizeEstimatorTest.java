package org.nakcast.transport.receive;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class GroupSizeEstimatorTest {
    private static final long NOW = 1_000_000_000L;

    private final GroupSizeEstimator group = new GroupSizeEstimator();

    @Test
    void aloneUntilAnotherReceiverIsHeard() {
        assertThat(group.estimate(NOW)).isEqualTo(1);

        group.onHeard(7, NOW);

        assertThat(group.estimate(NOW)).isEqualTo(2);
    }

    @Test
    void eachReceiverCountsOnceHoweverOftenItIsHeard() {
        for (int i = 0; i < 100; i++) {
            group.onHeard(7, NOW + i);
            group.onHeard(8, NOW + i);
            group.onHeard(9, NOW + i);
        }

        assertThat(group.estimate(NOW + 100)).isEqualTo(4);
    }

    @Test
    void aReceiverNotHeardForTheMemoryNoLongerCounts() {
        group.onHeard(7, NOW);
        group.onHeard(8, NOW + 1_000);

        assertThat(group.estimate(NOW + GroupSizeEstimator.MEMORY_NS - 1)).isEqualTo(3);
        assertThat(group.estimate(NOW + GroupSizeEstimator.MEMORY_NS)).isEqualTo(2);

        group.onHeard(7, NOW + GroupSizeEstimator.MEMORY_NS);
        assertThat(group.estimate(NOW + GroupSizeEstimator.MEMORY_NS + 1_000)).isEqualTo(2);
    }

    @Test
    void aStrangerForgingManyIdsRaisesTheEstimateToTheCapAtMost() {
        for (int id = 0; id < 100_000; id++) {
            group.onHeard(id, NOW + id);
        }

        assertThat(group.estimate(NOW + 100_000)).isEqualTo(GroupSizeEstimator.MAX_GROUP_SIZE);
    }

    @Test
    void whenFullANewReceiverTakesThePlaceOfTheOneHeardLongestAgo() {
        for (int id = 0; id < GroupSizeEstimator.MAX_GROUP_SIZE - 1; id++) {
            group.onHeard(id, NOW + GroupSizeEstimator.MEMORY_NS / 2 + id);
        }
        group.onHeard(0, NOW + GroupSizeEstimator.MEMORY_NS);
        group.onHeard(1_000, NOW + GroupSizeEstimator.MEMORY_NS);

        final long later = NOW + GroupSizeEstimator.MEMORY_NS + GroupSizeEstimator.MEMORY_NS / 2 + 62;
        assertThat(group.estimate(later)).as("0 and 1000 remain; 1 was replaced, the rest aged out").isEqualTo(3);
    }
}
