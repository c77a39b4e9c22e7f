package org.nakcast.transport.publish;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RepairBudgetTest {
    private static final long SECOND_NS = 1_000_000_000L;

    @Test
    void timeEarnsTheRepairRateUpToTheBurst() {
        final RepairBudget budget = new RepairBudget(1_000, 2_000, 0);

        assertThat(budget.hasRoomFor(2_000, 0)).isTrue();
        budget.take(2_000);
        assertThat(budget.hasRoomFor(1, 0)).isFalse();
        assertThat(budget.hasRoomFor(1_000, SECOND_NS)).isTrue();
        assertThat(budget.hasRoomFor(1_001, SECOND_NS)).isFalse();
        assertThat(budget.hasRoomFor(2_000, 100 * SECOND_NS)).isTrue();
        assertThat(budget.hasRoomFor(2_001, 100 * SECOND_NS)).as("never more than the burst").isFalse();
    }

    @Test
    void newDataEarnsItsShareUpToTheBurst() {
        final RepairBudget budget = new RepairBudget(1, 3_000, 50);
        budget.take(3_000);

        budget.onDataSent(1_000);
        assertThat(budget.hasRoomFor(500, 0)).isTrue();
        assertThat(budget.hasRoomFor(501, 0)).isFalse();

        budget.onDataSent(100_000);
        assertThat(budget.hasRoomFor(3_000, 0)).isTrue();
        assertThat(budget.hasRoomFor(3_001, 0)).isFalse();
    }

    @Test
    void withoutAShareNewDataEarnsNothing() {
        final RepairBudget budget = new RepairBudget(1, 3_000, 0);
        budget.take(3_000);

        budget.onDataSent(100_000);

        assertThat(budget.hasRoomFor(1, 0)).isFalse();
    }
}
