package org.nakcast.benchmarks.peers.aeron;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.nakcast.rtt.LatencyRtt;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What {@code ops/latency-peers local} runs, briefly, in this test JVM's private network namespace:
 * the latency-rtt tool with the Aeron paths on its class path measures raw-udp, both Aeron paths
 * and nakcast in one run, and reports them in one table and one JSON line.
 *
 * <p>A thousand round trips a path are enough for the table and keep the run short where it counts,
 * and both sides wait with {@code backoff}: with both cores taken by other processes a yielding
 * round trip waits out their time slices (about 5 ms against 20 us; 7,000 a path took 161 s there,
 * and with a thousand the aeron-shared path's median came to 12 ms), while a parked side is woken
 * promptly. Few as they are, the paths still follow each other within the 200 ms a pong lingers, so
 * two paths sharing a port lose an echo here (the aeron-shared path once did, at ping 50 to 79).
 */
class LatencyPeersIT {
    private static final List<String> PATHS = List.of("raw-udp", "aeron", "aeron-shared", "nakcast");

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void oneRunMeasuresRawUdpAeronAndNakcastIntoOneTable() throws Exception {
        System.setProperty("java.awt.headless", "true");
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();

        final int exitCode = LatencyRtt.run(new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8), "local", "--baseline", "raw-udp",
            "--peer", "aeron,aeron-shared", "--idle", "backoff", "--warmup", "200", "--count", "1000",
            "--output", dir.toString());

        final String stderr = err.toString(StandardCharsets.UTF_8);
        assertThat(exitCode).as(stderr).isZero();
        final String stdout = out.toString(StandardCharsets.UTF_8);
        final List<String> lines = stdout.lines().toList();
        assertThat(lines.get(0)).contains("32-byte messages, back-to-back, idle backoff");
        assertThat(lines.subList(2, 6)).as(stdout).extracting(line -> line.split(" +")[0])
            .containsExactlyElementsOf(PATHS);
        for (String row : lines.subList(2, 6)) {
            final String[] columns = row.trim().split(" +");
            final double p50 = Double.parseDouble(columns[1]);
            final double p99 = Double.parseDouble(columns[3]);
            final double max = Double.parseDouble(columns[6]);
            assertThat(p50).as("a round trip takes more than a microsecond, less than 10 ms: " + row)
                .isGreaterThan(1).isLessThan(10_000).isLessThanOrEqualTo(p99);
            assertThat(p99).as(row).isLessThanOrEqualTo(max);
            assertThat(columns[7]).as(row).isEqualTo("1000");
        }
        assertThat(lines.subList(6, 9)).as(stdout).extracting(line -> line.split(" {2,}")[0])
            .containsExactly("nakcast / raw-udp", "nakcast / aeron", "nakcast / aeron-shared");

        final JsonNode json = JsonMapper.builder().build().readTree(lines.get(lines.size() - 1));
        assertThat(json.get("count").asLong()).isEqualTo(1000);
        assertThat(json.get("baselineCount").asLong()).isEqualTo(1000);
        final JsonNode peers = json.get("peers");
        assertThat(peers.propertyNames()).containsExactly("aeron", "aeron-shared");
        for (String peer : List.of("aeron", "aeron-shared")) {
            assertThat(peers.get(peer).get("count").asLong()).as(peer).isEqualTo(1000);
            assertThat(peers.get(peer).get("p50Us").asDouble()).as(peer).isGreaterThan(1);
            assertThat(peers.get(peer).get("p99Us").asDouble()).as(peer)
                .isGreaterThanOrEqualTo(peers.get(peer).get("p50Us").asDouble());
            assertThat(peers.get(peer).get("ratioP50").asDouble()).as(peer).isPositive();
            assertThat(dir.resolve("rtt-" + peer + ".hgrm")).isNotEmptyFile();
            assertThat(dir.resolve("rtt-" + peer + ".hlog")).isNotEmptyFile();
            assertThat(stderr).contains("pong " + peer + ": the ping side ended this phase");
        }
    }
}
