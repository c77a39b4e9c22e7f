package org.nakcast.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.entry;

import java.util.Map;

import org.junit.jupiter.api.Test;

/** How a run of the simulator is read: failing seeds, and which invariant caught a planted bug. */
class MutationRunTest {
    @Test
    void takesTheFirstViolationOfTheLowestFailingSeedAndTheCountFromTheJsonLine() {
        final MutationRun.Output output = new MutationRun.Output();
        output.accept("seed 17 FAILED: 2 violations (drew loss; replay: ops/simulate --seed 17 ...)");
        output.accept("  t=0.250000 s: [convergence] sub0#1/0: after healing has session 5 up to message 3 of 9");
        output.accept("  t=0.260000 s: [order] something later");
        output.accept("seed 4 FAILED: 1 violations (drew burst; replay: ops/simulate --seed 4 ...)");
        output.accept("  t=0.100000 s: [avoidable-loss] sub1#1/0 gave up datagrams 3..9 of session 2");
        output.accept("seeds                       20");
        output.accept("{\"seeds\":20,\"violations\":3,\"failingSeeds\":2,\"firstFailingSeed\":17}");

        final MutationRun.Result result = output.result(false, 1, 1_000);

        assertThat(result.completed()).isTrue();
        assertThat(result.caught()).isTrue();
        assertThat(result.failingSeeds()).isEqualTo(2);
        assertThat(result.firstFailingSeed()).isEqualTo(4);
        assertThat(result.caughtBy()).isEqualTo("avoidable-loss");
    }

    @Test
    void readsTheTotalsThatShowWhatABugChanged() {
        final MutationRun.Output output = new MutationRun.Output();
        output.accept("{\"seeds\":20,\"faults\":{\"loss\":{\"seeds\":7,\"injected\":99}},\"published\":900,"
            + "\"delivered\":1800,\"naksSent\":40,\"failingSeeds\":0}");

        final MutationRun.Result result = output.result(false, 0, 1_000);

        assertThat(result.totals()).containsExactly(entry("published", 900L), entry("delivered", 1_800L),
            entry("naksSent", 40L));
        assertThat(MutationCommand.changes(result.totals(), Map.of("published", 900L, "delivered", 1_700L,
            "naksSent", 120L))).isEqualTo("delivered 1,800 -> 1,700, naksSent 40 -> 120");
        assertThat(MutationCommand.changes(result.totals(), result.totals())).isEqualTo("none");
    }

    @Test
    void aCleanRunCatchesNothing() {
        final MutationRun.Output output = new MutationRun.Output();
        output.accept("violations                   0   (0 failing seeds)");
        output.accept("{\"seeds\":20,\"violations\":0,\"failingSeeds\":0,\"firstFailingSeed\":null}");

        final MutationRun.Result result = output.result(false, 0, 1_000);

        assertThat(result.caught()).isFalse();
        assertThat(result.caughtBy()).isNull();
    }

    @Test
    void aRunKilledOrEndedWithoutItsReportIsCaughtByTimeoutOrCrash() {
        assertThat(new MutationRun.Output().result(true, 137, 1_000).caughtBy()).isEqualTo("timeout");
        assertThat(new MutationRun.Output().result(false, 1, 1_000).caughtBy()).isEqualTo("crash");
    }

    @Test
    void namesTheInvariantByTheLabelEveryViolationBeginsWith() {
        assertThat(MutationRun.invariantOf("[nak-volume] sub0 sent 900 NAKs")).isEqualTo("nak-volume");
        assertThat(MutationRun.invariantOf("[errors] the run threw java.lang.IllegalStateException\n\tat x"))
            .isEqualTo("errors");
        assertThatIllegalStateException().isThrownBy(() -> MutationRun.invariantOf("sub0 gave up datagrams 3..9"))
            .withMessageContaining("without its invariant's label");
    }
}
