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

class PeerComparisonTest {
    private static final RunSettings NAKCAST = new RunSettings(Contender.NAKCAST, 10, 3, 70,
        TransportConfig.DEFAULT_DATAGRAM_SIZE, 0, 0, ByteSize.parse("128m"), FlowControlMode.MAX, 42, Payload.RAW,
        Duration.ZERO, 1, MediaType.NIO, false, null);
    private static final RunSettings LOSSY = new RunSettings(Contender.NAKCAST, 10, 3, 70,
        TransportConfig.DEFAULT_DATAGRAM_SIZE, 0.01, 0, ByteSize.parse("128m"), FlowControlMode.MAX, 42, Payload.RAW,
        Duration.ZERO, 1, MediaType.NIO, false, null);

    @Test
    void eachNakcastRunMeetsThePeersOfItsLossLevel() {
        final List<RunResult> results = List.of(
            run(NAKCAST, 3_000_000, 0), run(NAKCAST.forPeer(Contender.AERON), 2_000_000, 0),
            run(NAKCAST.forPeer(Contender.FAST_CAST), 1_000_000, 500),
            run(LOSSY, 2_000_000, 0), run(LOSSY.forPeer(Contender.AERON), 4_000_000, 0),
            RunResult.failed(LOSSY.forPeer(Contender.FAST_CAST), 1.0, "fast-cast subscriber said no READY"));

        final List<PeerComparison.Row> rows = PeerComparison.rows(results);

        assertThat(rows).hasSize(2);
        assertThat(rows.get(0).ratio(0)).isEqualTo(1.5);
        assertThat(rows.get(0).ratio(1)).isEqualTo(3.0);
        assertThat(rows.get(1).ratio(0)).isEqualTo(0.5);
        assertThat(rows.get(1).ratio(1)).isNaN();
        final String table = PeerComparison.table(rows);
        assertThat(table).contains("dgram", "nakcast/aeron", "nakcast/fast-cast");
        assertThat(table.lines().filter(line -> line.contains("0.0%")).findFirst().orElseThrow())
            .contains(" 1408 ", "3.000", "2.000", "1.50x", "1.000", "3.00x", "500");
        assertThat(table.lines().filter(line -> line.contains("1.0%")).findFirst().orElseThrow())
            .contains("2.000", "4.000", "0.50x").endsWith("-");
        assertThat(rows.get(1).toJson()).isEqualTo("{\"loss\": 0.010000, \"rateText\": \"128m/s\","
            + " \"flowControl\": \"max\", \"nakcast\": 2000000.000000,"
            + " \"peers\": {\"aeron\": {\"deliveredPerSecond\": 4000000.000000,"
            + " \"nakcastOverPeer\": 0.500000}, \"fast-cast\": {\"deliveredPerSecond\": null,"
            + " \"nakcastOverPeer\": null}}}");
    }

    @Test
    void injectedLossRunsAndRunsWithoutPeersAreNotCompared() {
        final RunSettings injected = new RunSettings(Contender.NAKCAST, 10, 3, 70,
            TransportConfig.DEFAULT_DATAGRAM_SIZE, 0, 0.01, ByteSize.parse("128m"), FlowControlMode.MAX, 42,
            Payload.RAW, Duration.ZERO, 1, MediaType.NIO, false, null);

        assertThat(PeerComparison.rows(List.of(run(NAKCAST, 1, 0), run(injected, 1, 0)))).isEmpty();
        assertThat(PeerComparison.table(List.of())).isEmpty();
    }

    @Test
    void aPeerThatLosesIsAResultNotABrokenContract() {
        assertThat(run(NAKCAST.forPeer(Contender.FAST_CAST), 1, 500).brokeContract()).isFalse();
        assertThat(run(NAKCAST, 1, 500).brokeContract()).isTrue();
    }

    private static RunResult run(RunSettings settings, double perSecond, long missing) {
        final long delivered = 10_000_000;
        return RunResult.of(settings, new Figures().put("offered", delivered + missing),
            new Figures().put("deliveredPerSecond", perSecond).put("delivered", delivered), 0, 0, 0, 1.0, null);
    }
}
