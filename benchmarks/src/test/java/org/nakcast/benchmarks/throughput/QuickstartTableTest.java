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

class QuickstartTableTest {
    private static final RunSettings SETTINGS = new RunSettings(Contender.NAKCAST, 3, 1, Long.BYTES,
        TransportConfig.DEFAULT_DATAGRAM_SIZE, 0, 0, new ByteSize(0), FlowControlMode.MIN, 42, "kryo", Duration.ZERO,
        1, MediaType.NIO, false, null);

    @Test
    void aRowHasTheCodecItsRatesTheLowerOfThemTheEndToEndRateAndTheLoss() {
        final String row = QuickstartTable.row(row("kryo", 11_120_000.4, 9_140_000.6, delivered(1_665_790, 5_000_000)));

        assertThat(row.split("\\s+")).containsExactly(
            "kryo", "11,120,000", "9,140,001", "9,140,001", "1,665,790", "0");
        assertThat(row).endsWith(System.lineSeparator());
    }

    @Test
    void theRowLinesUpUnderTheHeader() {
        final String header = QuickstartTable.header();
        final String row = QuickstartTable.row(row("jdk", 306_617, 51_849, delivered(62_473, 290_000)));

        assertThat(header).startsWith("codec").contains("encode/s", "decode/s", "min(enc,dec)", "end-to-end msgs/s",
            "lost");
        assertThat(row.length()).isEqualTo(header.length());
        assertThat(row.indexOf("62,473") + "62,473".length()).isEqualTo(header.indexOf("msgs/s") + "msgs/s".length());
    }

    @Test
    void whatWasNotMeasuredIsADash() {
        final QuickstartRow failed = new QuickstartRow("fst", new Figures(), "codec-speed exited with status 1",
            RunResult.failed(SETTINGS, 1.0, "subscriber said no READY within 60 s"));

        assertThat(QuickstartTable.row(failed).split("\\s+")).containsExactly("fst", "-", "-", "-", "-", "-");
    }

    @Test
    void theFooterPointsToTheJmhFiguresAndSaysOkWhenNothingWasLost() {
        final String footer = QuickstartTable.footer(SETTINGS,
            List.of(row("kryo", 1e7, 1e7, delivered(1_000_000, 4_000_000))), 1000, 1000);

        assertThat(footer).contains("ops/codec-bench gives the JMH figures", "3 measured seconds", "1 s warm-up",
            "unpaced", "flow control min")
            .contains("OK: every codec delivered every message exactly once and in order");
    }

    @Test
    void theFooterAndTheJsonNameEveryCodecThatLostMessagesOrFailed() {
        final Figures lossy = subscriber(900_000, 3_990_000).put("lost", 10_000);
        final List<QuickstartRow> rows = List.of(
            row("flyweight", 6e7, 8e7, delivered(10_000_000, 40_000_000)),
            row("fst", 8e6, 4e6, RunResult.of(SETTINGS, publisher(4_000_000), lossy, 0, 0, 0, 1.0, null)),
            new QuickstartRow("jdk", new Figures(), "codec-speed ended before RESULT",
                RunResult.failed(SETTINGS, 1.0, "publisher exited with status 1")));

        final String footer = QuickstartTable.footer(SETTINGS, rows, 1000, 1000);
        final String json = QuickstartTable.json(SETTINGS, rows);

        assertThat(footer).doesNotContain("OK:").doesNotContain("flyweight:")
            .contains("FAILED: fst: 10000 lost, 0 out of order, 0 gone without a loss event")
            .contains("FAILED: jdk: encode/decode measurement failed: codec-speed ended before RESULT")
            .contains("FAILED: jdk: end-to-end run failed: publisher exited with status 1");
        assertThat(json).startsWith("{\"command\": \"quickstart\"").contains("\"ok\": false")
            .contains("{\"codec\": \"flyweight\", \"encodePerSecond\": 60000000.000000")
            .contains("\"codec\": \"jdk\", \"encodePerSecond\": null, \"decodePerSecond\": null, \"min\": null,"
                + " \"bytes\": null, \"speedFailure\": \"codec-speed ended before RESULT\"")
            .endsWith("]}");
    }

    @Test
    void aRowThatLostMessagesOrBrokeTheOrderIsNotAFailedOne() {
        final QuickstartRow lossy = row("fst", 1e6, 1e6,
            RunResult.of(SETTINGS, publisher(100), subscriber(10, 90).put("lost", 10), 0, 0, 0, 1.0, null));
        final QuickstartRow outOfOrder = row("fst", 1e6, 1e6,
            RunResult.of(SETTINGS, publisher(100), subscriber(10, 100).put("sequenceErrors", 1), 0, 0, 0, 1.0, null));
        final QuickstartRow clean = row("fst", 1e6, 1e6, delivered(10, 100));

        assertThat(lossy.lostOrBroken()).isTrue();
        assertThat(lossy.isFailed()).isFalse();
        assertThat(outOfOrder.lostOrBroken()).isTrue();
        assertThat(clean.lostOrBroken()).isFalse();
    }

    private static QuickstartRow row(String codec, double encode, double decode, RunResult endToEnd) {
        return new QuickstartRow(codec, new Figures().put("encodePerSecond", encode).put("decodePerSecond", decode)
            .put("bytes", 20), null, endToEnd);
    }

    private static RunResult delivered(long perSecond, long messages) {
        return RunResult.of(SETTINGS, publisher(messages), subscriber(perSecond, messages), 0, 0, 0, 1.0, null);
    }

    private static Figures publisher(long offered) {
        return new Figures().put("offered", offered);
    }

    private static Figures subscriber(long perSecond, long delivered) {
        return new Figures().put("deliveredPerSecond", (double) perSecond).put("delivered", delivered)
            .put("lost", 0).put("sequenceErrors", 0);
    }
}
