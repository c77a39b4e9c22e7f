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

class TwinComparisonTest {
    private static final RunSettings CLEAN = new RunSettings(Contender.NAKCAST, 10, 3, 70,
        TransportConfig.DEFAULT_DATAGRAM_SIZE, 0, 0, new ByteSize(0), FlowControlMode.MAX, 42, Payload.RAW,
        Duration.ZERO, 1, MediaType.NIO, false, null);
    private static final RunSettings FLOODED = new RunSettings(Contender.NAKCAST, 10, 3, 70,
        TransportConfig.DEFAULT_DATAGRAM_SIZE, 0, 0, new ByteSize(0), FlowControlMode.MAX, 42, Payload.RAW,
        Duration.ofMillis(1), 1, MediaType.NIO, false, null);

    @Test
    void eachFloodedRunMeetsTheSameRunWithoutTheStranger() {
        final RunSettings pacedClean = new RunSettings(Contender.NAKCAST, 10, 3, 70,
            TransportConfig.DEFAULT_DATAGRAM_SIZE, 0, 0, ByteSize.parse("64m"), FlowControlMode.MAX, 42, Payload.RAW,
            Duration.ZERO, 1, MediaType.NIO, false, null);
        final List<RunResult> results = List.of(run(CLEAN, 2_000_000, 0), run(FLOODED, 1_500_000, 0),
            run(pacedClean, 800_000, 0), run(FLOODED.forPeer(Contender.AERON), 3_000_000, 0));

        final List<TwinComparison.Row> rows = TwinComparison.rows(results, TwinComparison.Addition.STRANGER);

        assertThat(rows).singleElement().satisfies(row -> {
            assertThat(row.without().settings()).isEqualTo(CLEAN);
            assertThat(row.with().settings()).isEqualTo(FLOODED);
            assertThat(row.ratio()).isEqualTo(0.75);
        });
        assertThat(TwinComparison.table(rows).lines().filter(line -> line.contains("1ms")).findFirst()
            .orElseThrow()).contains("unpaced", "max", "2.000", "1.500", "0.75");
        assertThat(rows.get(0).toJson()).isEqualTo("{\"stranger\": \"1ms\", \"loss\": 0.000000,"
            + " \"injectedLoss\": 0.000000, \"rateText\": \"unpaced\", \"flowControl\": \"max\","
            + " \"without\": 2000000.000000, \"with\": 1500000.000000, \"withOverWithout\": 0.750000,"
            + " \"lostWithout\": 0, \"lostWith\": 0}");
    }

    @Test
    void whatAFloodedRunLostIsShownAndAFailedRunHasNoRatio() {
        final List<TwinComparison.Row> rows = TwinComparison.rows(List.of(
            run(CLEAN, 2_000_000, 0), RunResult.failed(FLOODED, 1.0, "publisher stalled")),
            TwinComparison.Addition.STRANGER);

        assertThat(rows).singleElement().satisfies(row -> assertThat(row.ratio()).isNaN());
        assertThat(TwinComparison.rows(List.of(run(CLEAN, 2_000_000, 0), run(FLOODED, 1_000_000, 7)),
            TwinComparison.Addition.STRANGER).get(0).toJson()).endsWith("\"lostWithout\": 0, \"lostWith\": 7}");
    }

    @Test
    void aRecordedRunMeetsItsTwinWithoutTheRecorderAndShowsItsHoles() {
        final RunSettings recorded = new RunSettings(Contender.NAKCAST, 10, 3, 70,
            TransportConfig.DEFAULT_DATAGRAM_SIZE, 0, 0, new ByteSize(0), FlowControlMode.MAX, 42, Payload.RAW,
            Duration.ZERO, 1, MediaType.NIO, true, null);
        final RunResult withRecorder = RunResult.of(recorded, new Figures().put("offered", 10_000_000),
            new Figures().put("deliveredPerSecond", 1_800_000).put("delivered", 10_000_000), 0, 0, 0, 1.0,
            new Figures().put("recordedMessages", 9_999_990).put("holeMessages", 10));

        final List<TwinComparison.Row> rows = TwinComparison.rows(List.of(run(CLEAN, 2_000_000, 0), withRecorder,
            run(FLOODED, 1_000_000, 0)), TwinComparison.Addition.RECORDER);

        assertThat(rows).singleElement().satisfies(row -> {
            assertThat(row.without().settings()).isEqualTo(CLEAN);
            assertThat(row.ratio()).isEqualTo(0.9);
            assertThat(row.toJson()).startsWith("{\"holes\": \"10\"");
        });
        assertThat(TwinComparison.table(rows)).contains("a recorder as one more subscriber", "0.90");
        assertThat(withRecorder.unrecorded()).isZero();
        assertThat(withRecorder.brokeContract()).isFalse();
        assertThat(RunResult.of(recorded, new Figures().put("offered", 10), new Figures().put("delivered", 10),
            0, 0, 0, 1.0, new Figures().put("recordedMessages", 9)).brokeContract())
            .as("a message the recorder dropped without a hole").isTrue();
    }

    @Test
    void withoutAStrangerThereIsNothingToCompare() {
        assertThat(TwinComparison.rows(List.of(run(CLEAN, 1, 0)), TwinComparison.Addition.STRANGER)).isEmpty();
        assertThat(TwinComparison.rows(List.of(run(FLOODED, 1, 0)), TwinComparison.Addition.STRANGER))
            .as("no clean twin").isEmpty();
        assertThat(TwinComparison.table(List.of())).isEmpty();
    }

    private static RunResult run(RunSettings settings, double perSecond, long missing) {
        final long delivered = 10_000_000;
        return RunResult.of(settings, new Figures().put("offered", delivered + missing),
            new Figures().put("deliveredPerSecond", perSecond).put("delivered", delivered), 0, 0, 0, 1.0, null);
    }
}
