package org.nakcast.benchmarks.throughput;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.nakcast.benchmarks.child.Figures;
import org.nakcast.config.ByteSize;
import org.nakcast.config.FlowControlMode;
import org.nakcast.config.MediaType;
import org.nakcast.config.TransportConfig;

class StrangerComparisonTest {
    private static final RunSettings CLEAN = new RunSettings(Contender.NAKCAST, 10, 3, 70,
        TransportConfig.DEFAULT_DATAGRAM_SIZE, 0, 0, new ByteSize(0), FlowControlMode.MAX, 42, Payload.RAW,
        Duration.ZERO, 1, MediaType.NIO);
    private static final RunSettings FLOODED = new RunSettings(Contender.NAKCAST, 10, 3, 70,
        TransportConfig.DEFAULT_DATAGRAM_SIZE, 0, 0, new ByteSize(0), FlowControlMode.MAX, 42, Payload.RAW,
        Duration.ofMillis(1), 1, MediaType.NIO);

    @Test
    void eachFloodedRunMeetsTheSameRunWithoutTheStranger() {
        final RunSettings pacedClean = new RunSettings(Contender.NAKCAST, 10, 3, 70,
            TransportConfig.DEFAULT_DATAGRAM_SIZE, 0, 0, ByteSize.parse("64m"), FlowControlMode.MAX, 42, Payload.RAW,
            Duration.ZERO, 1, MediaType.NIO);
        final List<RunResult> results = List.of(run(CLEAN, 2_000_000, 0), run(FLOODED, 1_500_000, 0),
            run(pacedClean, 800_000, 0), run(FLOODED.forPeer(Contender.AERON), 3_000_000, 0));

        final List<StrangerComparison.Row> rows = StrangerComparison.rows(results);

        assertThat(rows).singleElement().satisfies(row -> {
            assertThat(row.clean().settings()).isEqualTo(CLEAN);
            assertThat(row.flooded().settings()).isEqualTo(FLOODED);
            assertThat(row.ratio()).isEqualTo(0.75);
        });
        assertThat(StrangerComparison.table(rows).lines().filter(line -> line.contains("1ms")).findFirst()
            .orElseThrow()).contains("unpaced", "max", "2.000", "1.500", "0.75");
        assertThat(rows.get(0).toJson()).isEqualTo("{\"strangerNaks\": \"1ms\", \"loss\": 0.000000,"
            + " \"injectedLoss\": 0.000000, \"rateText\": \"unpaced\", \"flowControl\": \"max\","
            + " \"clean\": 2000000.000000, \"flooded\": 1500000.000000, \"floodedOverClean\": 0.750000,"
            + " \"lostClean\": 0, \"lostFlooded\": 0}");
    }

    @Test
    void whatAFloodedRunLostIsShownAndAFailedRunHasNoRatio() {
        final List<StrangerComparison.Row> rows = StrangerComparison.rows(List.of(
            run(CLEAN, 2_000_000, 0), RunResult.failed(FLOODED, 1.0, "publisher stalled")));

        assertThat(rows).singleElement().satisfies(row -> assertThat(row.ratio()).isNaN());
        assertThat(StrangerComparison.rows(List.of(run(CLEAN, 2_000_000, 0), run(FLOODED, 1_000_000, 7))).get(0)
            .toJson()).endsWith("\"lostClean\": 0, \"lostFlooded\": 7}");
    }

    @Test
    void withoutAStrangerThereIsNothingToCompare() {
        assertThat(StrangerComparison.rows(List.of(run(CLEAN, 1, 0)))).isEmpty();
        assertThat(StrangerComparison.rows(List.of(run(FLOODED, 1, 0)))).as("no clean twin").isEmpty();
        assertThat(StrangerComparison.table(List.of())).isEmpty();
    }

    private static RunResult run(RunSettings settings, double perSecond, long missing) {
        final long delivered = 10_000_000;
        return RunResult.of(settings, new Figures().put("offered", delivered + missing),
            new Figures().put("deliveredPerSecond", perSecond).put("delivered", delivered), 0, 0, 0, 1.0);
    }
}
