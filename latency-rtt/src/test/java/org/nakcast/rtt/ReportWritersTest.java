package org.nakcast.rtt;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import javax.imageio.ImageIO;

import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nakcast.config.MediaType;

import picocli.CommandLine;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The report's files and lines: .hlog, .hgrm, PNG, the table and the JSON, each written and read back. */
class ReportWritersTest {
    private static final NakcastPath NAKCAST = new NakcastPath(MediaType.NIO, false);
    private static final NakcastPath NAKCAST_AUTH = new NakcastPath(MediaType.NIO, true);
    private static final NakcastPath NAKCAST_NATIVE = new NakcastPath(MediaType.NATIVE, false);
    private static final NakcastPath NAKCAST_NATIVE_AUTH = new NakcastPath(MediaType.NATIVE, true);

    @TempDir
    Path dir;

    @BeforeAll
    static void headless() {
        System.setProperty("java.awt.headless", "true");
    }

    @Test
    void theHlogHoldsEveryRecordedRoundTripAndReadsBack() throws IOException {
        final Path hlog = dir.resolve("rtt-nakcast.hlog");
        final LatencyLog log = new LatencyLog(hlog, 1_000_000_000L);
        for (int i = 1; i <= 1000; i++) {
            log.record(i * 1000L, 0);
        }
        log.record(-5, 0);
        log.record(Long.MAX_VALUE, 0);
        log.close();

        assertThat(log.total().getTotalCount()).isEqualTo(1002);
        assertThat(log.total().getMinValue()).as("clamped to 1 ns").isEqualTo(1);
        assertThat(log.total().getMaxValue()).as("clamped to 10 s")
            .isEqualTo(log.total().highestEquivalentValue(LatencyLog.HIGHEST_NS));
        final Histogram read = readAll(hlog);
        assertThat(read.getTotalCount()).isEqualTo(1002);
        assertThat(read.getValueAtPercentile(50)).isEqualTo(log.total().getValueAtPercentile(50));
    }

    @Test
    void aFixedRateFillsInTheRoundTripsAStallHeldUp() throws IOException {
        final LatencyLog log = new LatencyLog(dir.resolve("rate.hlog"), 1_000_000_000L);
        log.record(10_000_000, 1_000_000);
        log.close();
        assertThat(log.total().getTotalCount()).as("10 ms stall at 1 ms intervals").isEqualTo(10);
    }

    @Test
    void theHgrmPngTableAndJsonAreWrittenAndReadable() throws IOException {
        final RttReport report = new RttReport(32, "back-to-back", "spin", 1, 0, 1,
            List.of(result(LinkKind.RAW_UDP, 4_000), result(NAKCAST, 5_000)));
        final RunOptions options = options("--output", dir.toString(), "--name", "t");

        final Path png = ReportFiles.write(report, options, "test");

        assertThat(png).isEqualTo(dir.resolve("t.png"));
        final BufferedImage image = ImageIO.read(png.toFile());
        assertThat(image.getWidth()).isEqualTo(1000);
        assertThat(image.getHeight()).isEqualTo(600);
        for (String link : List.of("raw-udp", "nakcast")) {
            final List<String> hgrm = Files.readAllLines(dir.resolve("t-" + link + ".hgrm"));
            assertThat(hgrm.get(0)).contains("Value", "Percentile", "TotalCount");
            assertThat(hgrm).anyMatch(line -> line.contains("#[Mean"))
                .anyMatch(line -> line.contains("Total count    =        10000"));
        }

        final String table = report.table();
        assertThat(table).contains("32-byte messages, back-to-back, idle spin\n", "p99.99", "max", "NAKs")
            .containsPattern("raw-udp +4\\.\\d\\d +.* 10000 +0 +-\n")
            .containsPattern("nakcast +5\\.\\d\\d +.* 10000 +0 +7\n")
            .contains("nakcast / raw-udp      1.25x");

        final JsonNode json = JsonMapper.builder().build().readTree(report.json(png.toString()));
        assertThat(json.get("size").asInt()).isEqualTo(32);
        assertThat(json.get("mode").asString()).isEqualTo("back-to-back");
        assertThat(json.get("lines").asInt()).isEqualTo(1);
        assertThat(json.get("loss").asDouble()).isZero();
        assertThat(json.get("naksSent").asLong()).isEqualTo(7);
        assertThat(json.has("baselineNaksSent")).as("raw UDP sends no NAKs").isFalse();
        assertThat(json.get("count").asLong()).isEqualTo(10_000);
        assertThat(json.get("p50Us").asDouble()).isBetween(4.99, 5.01);
        for (String field : List.of("p90Us", "p99Us", "p999Us", "p9999Us", "maxUs", "gcCount", "baselineP50Us",
            "baselineP99Us", "baselineMaxUs", "baselineCount")) {
            assertThat(json.has(field)).as(field).isTrue();
        }
        assertThat(json.get("baseline").asString()).isEqualTo("raw-udp");
        assertThat(json.get("ratioP50").asDouble()).isBetween(1.24, 1.26);
        assertThat(json.get("ratioP99").asDouble()).isBetween(1.24, 1.26);
        assertThat(json.get("ratioMax").asDouble()).isBetween(1.24, 1.26);
        assertThat(json.get("media").asString()).isEqualTo("nio");
        assertThat(json.has("baselineMedia")).as("raw UDP has no media").isFalse();
        assertThat(json.get("plot").asString()).isEqualTo(png.toString());
    }

    @Test
    void peersGetARowARatioRowAndAnObjectInTheJson() {
        final RttReport report = new RttReport(32, "back-to-back", "yield", 1, 0, 1, List.of(
            result(LinkKind.RAW_UDP, 4_000), result(peer("aeron"), 10_000), result(peer("aeron-shared"), 2_500),
            result(NAKCAST, 5_000)));

        final List<String> table = report.table().lines().toList();
        assertThat(table).hasSize(9);
        assertThat(table.get(1)).as("the path column fits its longest entry, nakcast / aeron-shared")
            .startsWith("path" + " ".repeat(19) + "       p50");
        assertThat(table.subList(2, 6)).extracting(line -> line.split(" +")[0])
            .containsExactly("raw-udp", "aeron", "aeron-shared", "nakcast");
        assertThat(table.subList(6, 9)).containsExactly(
            "nakcast / raw-udp           1.25x     1.25x     1.25x     1.25x     1.25x     1.25x",
            "nakcast / aeron             0.50x     0.50x     0.50x     0.50x     0.50x     0.50x",
            "nakcast / aeron-shared      2.00x     2.00x     2.00x     2.00x     2.00x     2.00x");

        final JsonNode json = JsonMapper.builder().build().readTree(report.json(null));
        assertThat(json.get("p50Us").asDouble()).isBetween(4.99, 5.01);
        assertThat(json.get("baseline").asString()).isEqualTo("raw-udp");
        assertThat(json.get("ratioP50").asDouble()).isBetween(1.24, 1.26);
        final JsonNode peers = json.get("peers");
        assertThat(peers.propertyNames()).containsExactly("aeron", "aeron-shared");
        assertThat(peers.get("aeron").get("count").asLong()).isEqualTo(10_000);
        assertThat(peers.get("aeron").get("p50Us").asDouble()).isBetween(9.99, 10.01);
        assertThat(peers.get("aeron").get("ratioP50").asDouble()).isBetween(0.49, 0.51);
        assertThat(peers.get("aeron-shared").get("ratioP99").asDouble()).isBetween(1.99, 2.01);
        for (String field : List.of("p90Us", "p99Us", "p999Us", "p9999Us", "maxUs", "gcCount")) {
            assertThat(peers.get("aeron").has(field)).as(field).isTrue();
        }
        assertThat(peers.get("aeron").has("media")).as("a peer has no nakcast media").isFalse();
    }

    @Test
    void nakcastOnNioThenNativeGetsARatioRowNativeOverNioAndAnObjectNioWithEveryPercentilesRatio() {
        final RttReport report = new RttReport(32, "back-to-back", "spin", 1, 0, 1,
            List.of(result(NAKCAST, 5_000), result(NAKCAST_NATIVE, 4_000)));

        final List<String> table = report.table().lines().toList();
        assertThat(table).hasSize(5);
        assertThat(table.subList(2, 4)).extracting(line -> line.split(" +")[0])
            .containsExactly("nakcast", "nakcast-native");
        assertThat(table.get(4)).isEqualTo(
            "nakcast-native / nakcast      0.80x     0.80x     0.80x     0.80x     0.80x     0.80x");

        final JsonNode json = JsonMapper.builder().build().readTree(report.json(null));
        assertThat(json.get("media").asString()).as("the top level is the phase measured last").isEqualTo("native");
        assertThat(json.get("p50Us").asDouble()).isBetween(3.99, 4.01);
        final JsonNode nio = json.get("nio");
        assertThat(nio.get("media").asString()).isEqualTo("nio");
        assertThat(nio.get("count").asLong()).isEqualTo(10_000);
        assertThat(nio.get("p50Us").asDouble()).isBetween(4.99, 5.01);
        for (String ratio : List.of("ratioP50", "ratioP90", "ratioP99", "ratioP999", "ratioP9999", "ratioMax")) {
            assertThat(nio.get(ratio).asDouble()).as(ratio + ": native / nio").isBetween(0.79, 0.81);
        }
        assertThat(json.has("ratioP50")).as("no baseline, no top-level ratio").isFalse();
        assertThat(json.has("unauthenticated")).isFalse();
    }

    @Test
    void withTwoMediaAndAuthEveryOtherNakcastPhaseIsNamedForWhatSetsItApartFromTheLast() {
        final RttReport report = new RttReport(32, "back-to-back", "spin", 1, 0, 1, List.of(result(NAKCAST, 5_000),
            result(NAKCAST_AUTH, 5_500), result(NAKCAST_NATIVE, 4_000), result(NAKCAST_NATIVE_AUTH, 4_400)));

        assertThat(report.table().lines().skip(6)).extracting(line -> line.split(" {2,}")[0])
            .containsExactly("nakcast-native+auth / nakcast", "nakcast-native+auth / nakcast+auth",
                "nakcast-native+auth / nakcast-native");
        final JsonNode json = JsonMapper.builder().build().readTree(report.json(null));
        assertThat(json.get("media").asString()).isEqualTo("native");
        assertThat(json.propertyNames()).contains("nioUnauthenticated", "nio", "unauthenticated");
        assertThat(json.get("nioUnauthenticated").get("ratioP50").asDouble()).isBetween(0.87, 0.89);
        assertThat(json.get("nio").get("ratioP50").asDouble()).as("native / nio, both authenticated")
            .isBetween(0.79, 0.81);
        assertThat(json.get("nio").get("media").asString()).isEqualTo("nio");
        assertThat(json.get("unauthenticated").get("ratioP50").asDouble()).as("auth's cost on native")
            .isBetween(1.09, 1.11);
        assertThat(json.get("unauthenticated").get("media").asString()).isEqualTo("native");
    }

    @Test
    void withoutABaselineThereAreNoRatios() {
        final RttReport report = new RttReport(32, "rate 1000/s", "yield", 1, 0, 1,
            List.of(result(NAKCAST, 5_000)));
        assertThat(report.table()).doesNotContain("/ raw-udp");
        assertThat(report.json(null)).doesNotContain("ratio", "baseline", "peers", "plot")
            .contains("\"mode\":\"rate 1000/s\"");
    }

    @Test
    void twoLinesAndKernelLossAreNamedInTheTableAndTheJson() {
        final RttReport report = new RttReport(32, "back-to-back", "spin", 2, 0.01, 1,
            List.of(result(NAKCAST, 5_000)));

        assertThat(report.table().lines().findFirst()).hasValue("round trip in microseconds: 32-byte messages,"
            + " back-to-back, idle spin, nakcast on 2 lines, kernel loss 1.00% on each of nakcast's transports");
        final JsonNode json = JsonMapper.builder().build().readTree(report.json(null));
        assertThat(json.get("lines").asInt()).isEqualTo(2);
        assertThat(json.get("loss").asDouble()).isEqualTo(0.01);
        assertThat(json.get("rounds").asInt()).isEqualTo(1);
    }

    @Test
    void roundsAreNamedInTheTableAndTheJson() {
        final RttReport report = new RttReport(32, "back-to-back", "spin", 1, 0, 6,
            List.of(result(NAKCAST, 5_000)));

        assertThat(report.table().lines().findFirst()).hasValue("round trip in microseconds: 32-byte messages,"
            + " back-to-back, idle spin, paths taking turns in 6 rounds");
        assertThat(JsonMapper.builder().build().readTree(report.json(null)).get("rounds").asInt()).isEqualTo(6);
    }

    @Test
    void thePercentileAxisIsLabelledAsHdrHistogramsPlotterDoes() {
        assertThat(PercentilePlot.percentileLabel(1)).isEqualTo("0%");
        assertThat(PercentilePlot.percentileLabel(10)).isEqualTo("90%");
        assertThat(PercentilePlot.percentileLabel(100)).isEqualTo("99%");
        assertThat(PercentilePlot.percentileLabel(1000)).isEqualTo("99.9%");
        assertThat(PercentilePlot.percentileLabel(1_000_000)).isEqualTo("99.9999%");
    }

    /** 10,000 round trips spread from 0.9 to 1.1 times {@code medianNs}; nakcast sent 7 NAKs, the others count none. */
    private RttResult result(RttPath path, long medianNs) {
        final Histogram histogram = LatencyLog.newHistogram();
        for (int i = 0; i < 10_000; i++) {
            histogram.recordValue(medianNs * 9 / 10 + medianNs * i / 50_000);
        }
        return new RttResult(path, histogram, 10_000, 0, dir.resolve(path.label() + ".hlog"),
            path instanceof NakcastPath ? 7 : RttLink.NOT_COUNTED);
    }

    /** A peer's path, as far as a report sees it: its label. */
    private static RttPath peer(String label) {
        return new RttPath() {
            @Override
            public String label() {
                return label;
            }

            @Override
            public RttLink open(LinkSetup setup, RttLink.Receiver receiver) {
                throw new UnsupportedOperationException("a report opens no link");
            }
        };
    }

    private static RunOptions options(String... args) {
        final RunOptions options = new RunOptions();
        new CommandLine(options).parseArgs(args);
        return options;
    }

    private static Histogram readAll(Path hlog) throws IOException {
        final Histogram all = LatencyLog.newHistogram();
        try (HistogramLogReader reader = new HistogramLogReader(hlog.toFile())) {
            EncodableHistogram interval;
            while ((interval = reader.nextIntervalHistogram()) != null) {
                all.add((Histogram) interval);
            }
        }
        return all;
    }
}
