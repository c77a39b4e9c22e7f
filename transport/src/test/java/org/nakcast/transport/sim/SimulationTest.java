package org.nakcast.transport.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.LongStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The deterministic simulation as part of the suite: a few thousand seeds of every fault kind,
 * the seeds that once found a defect, and the promise that a seed replays exactly.
 * {@code ops/simulate} runs any number.
 */
class SimulationTest {
    /** Seeds per run of the suite; {@code -Dnakcast.simulation.seeds=N} asks for more or fewer. */
    private static final long SEEDS = Long.getLong("nakcast.simulation.seeds", 3_000);

    @Test
    void thousandsOfSeedsOfEveryFaultBreakNoInvariant() throws Exception {
        final int threads = Math.max(1, Runtime.getRuntime().availableProcessors());
        final ExecutorService pool = Executors.newFixedThreadPool(threads);
        final List<String> failures = Collections.synchronizedList(new ArrayList<>());
        try {
            final List<Future<?>> runs = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                final int first = t;
                runs.add(pool.submit(() -> LongStream.iterate(1 + first, seed -> seed <= SEEDS, seed -> seed + threads)
                    .forEach(seed -> {
                        final SimulationResult result = Simulation.runSeed(seed, FaultKind.parse("all"), null);
                        if (result.violations() > 0) {
                            failures.add("seed " + seed + " (" + result.injected() + "): " + result.firstViolations());
                        }
                    })));
            }
            for (Future<?> run : runs) {
                run.get();
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(failures).as("replay one with ops/simulate --seed S --seeds 1 --trace all").isEmpty();
    }

    /**
     * Seeds that found a defect, with the fault kinds they were run with: a silent stream's second
     * life delivering again what it had delivered (11, loss), a message begun before a resume lost
     * (32, burst), a session whose start was held losing the message it was joining (84), an index
     * handed over on resume forgotten by a loss (119), a stream resumed at the wrong datagram (359).
     */
    @ParameterizedTest
    @CsvSource({"11, loss", "32, burst", "84, all", "119, all", "359, all", "13, all", "19, all"})
    void seedsThatOnceFoundADefectStayClean(long seed, String faults) {
        final SimulationResult result = Simulation.runSeed(seed, FaultKind.parse(faults), null);

        assertThat(result.violations()).as("%s", result.firstViolations()).isZero();
        assertThat(result.delivered()).isPositive();
    }

    @Test
    void aSeedReplaysExactly() {
        final Set<FaultKind> all = FaultKind.parse("all");
        for (long seed : new long[] {7, 143, 282}) {
            final SimulationResult first = Simulation.runSeed(seed, all, null);
            final SimulationResult again = Simulation.runSeed(seed, all, null);

            assertThat(again.traceHash()).as("seed %d", seed).isEqualTo(first.traceHash());
            assertThat(again.events()).as("seed %d", seed).isEqualTo(first.events());
            assertThat(again.delivered()).isEqualTo(first.delivered()).isPositive();
        }
    }

    @Test
    void anUnknownFaultKindIsRefusedNamingTheKnownOnes() {
        org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
            .isThrownBy(() -> FaultKind.parse("loss,earthquake"))
            .withMessageContaining("unknown fault kind 'earthquake'")
            .withMessageContaining("shared-loss");
    }
}
