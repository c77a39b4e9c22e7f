package org.nakcast.rtt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.nakcast.transport.media.MediaChoice;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code latency-rtt local} end to end, briefly, in this test JVM's private network namespace:
 * pong on a thread, ping on this one, over the embedded config on lo; with the raw-udp baseline,
 * on two lines that each lose 1% in the kernel (an iptables rule per transport in the namespace),
 * and on the nio media then the native one (where the build has it: JDK 22 or later).
 * Both sides back off to parking when idle: on a loaded host a yielding side waits out other
 * processes' time slices, and 7,000 round trips could then outlast the test's minute.
 */
class LocalCommandIT {
    @TempDir
    Path dir;

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void localMeasuresNakcastAndTheBaselineAndWritesTheReport() throws Exception {
        final Run run = local("--baseline", "raw-udp", "--idle", "backoff",
            "--warmup", "2000", "--count", "5000", "--output", dir.toString());

        final String stderr = run.stderr();
        final List<String> lines = run.stdout().lines().toList();
        assertThat(lines.get(0)).contains("32-byte messages, back-to-back, idle backoff");
        assertThat(lines).anyMatch(line -> line.startsWith("raw-udp "))
            .anyMatch(line -> line.startsWith("nakcast "))
            .anyMatch(line -> line.startsWith("nakcast / raw-udp"));
        final JsonNode json = JsonMapper.builder().build().readTree(lines.get(lines.size() - 1));
        assertThat(json.get("count").asLong()).isEqualTo(5000);
        assertThat(json.get("baselineCount").asLong()).isEqualTo(5000);
        assertThat(json.get("p50Us").asDouble()).isPositive();
        assertThat(json.get("p99Us").asDouble()).isGreaterThanOrEqualTo(json.get("p50Us").asDouble());
        assertThat(json.get("ratioP50").asDouble()).isPositive();
        for (String file : List.of("rtt.png", "rtt-nakcast.hgrm", "rtt-nakcast.hlog", "rtt-raw-udp.hgrm",
            "rtt-raw-udp.hlog")) {
            assertThat(dir.resolve(file)).as(file).isNotEmptyFile();
        }
        assertThat(json.get("plot").asString()).isEqualTo(dir.resolve("rtt.png").toString());
        assertThat(Files.readString(dir.resolve("rtt-nakcast.hlog"))).contains("#[StartTime:");
        assertThat(stderr).contains("pong nakcast: the ping side ended this phase");
        assertThat(json.get("lines").asInt()).isEqualTo(1);
        assertThat(json.get("naksSent").asLong()).as("nothing lost on lo, nothing asked again").isZero();
        assertThat(json.get("media").asString()).isEqualTo("nio");
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void localMeasuresNakcastOnNioThenOnNativeAndReportsNativeOverNio() throws Exception {
        assumeFalse(MediaChoice.of("native").fellBack(), "no native media in this JVM (JDK 22+ and its module)");
        final Run run = local("--media", "nio,native", "--idle", "backoff",
            "--warmup", "2000", "--count", "5000", "--output", dir.toString());

        final String stderr = run.stderr();
        assertThat(stderr).contains("pong nakcast: the ping side ended this phase",
            "pong nakcast-native: the ping side ended this phase").doesNotContain("is not available here");
        final List<String> lines = run.stdout().lines().toList();
        assertThat(lines).anyMatch(line -> line.startsWith("nakcast "))
            .anyMatch(line -> line.startsWith("nakcast-native "))
            .anyMatch(line -> line.startsWith("nakcast-native / nakcast "));
        final JsonNode json = JsonMapper.builder().build().readTree(lines.get(lines.size() - 1));
        assertThat(json.get("media").asString()).isEqualTo("native");
        assertThat(json.get("count").asLong()).isEqualTo(5000);
        assertThat(json.get("nio").get("media").asString()).isEqualTo("nio");
        assertThat(json.get("nio").get("count").asLong()).isEqualTo(5000);
        assertThat(json.get("nio").get("ratioP50").asDouble()).isPositive();
        assertThat(json.get("nio").get("ratioP99").asDouble()).isPositive();
        for (String file : List.of("rtt-nakcast.hgrm", "rtt-nakcast-native.hgrm", "rtt-nakcast-native.hlog")) {
            assertThat(dir.resolve(file)).as(file).isNotEmptyFile();
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void onTwoLinesEachLosingOnePercentEveryEchoComes() throws Exception {
        final Run run = local("--lines", "2", "--loss", "0.01", "--idle",
            "backoff", "--warmup", "2000", "--count", "5000", "--output", dir.toString());

        final String stderr = run.stderr();
        final List<String> lines = run.stdout().lines().toList();
        assertThat(lines.get(0)).endsWith("nakcast on 2 lines, kernel loss 1.00% on each of nakcast's transports");
        final JsonNode json = JsonMapper.builder().build().readTree(lines.get(lines.size() - 1));
        assertThat(json.get("count").asLong()).isEqualTo(5000);
        assertThat(json.get("lines").asInt()).isEqualTo(2);
        assertThat(json.get("loss").asDouble()).isEqualTo(0.01);
        assertThat(json.has("naksSent")).isTrue();
        assertThat(stderr).containsPattern("local: the kernel dropped [1-9][0-9]* datagrams \\(1\\.00% on each of 4"
            + " transports\\)");
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void inRoundsThePathsTakeTurnsForwardThenBackwardAndEachIsReportedOverAllItsTurns() throws Exception {
        final Run run = local("--baseline", "raw-udp", "--rounds", "3", "--idle", "backoff",
            "--warmup", "500", "--count", "3001", "--output", dir.toString());

        final List<String> measuring = run.stderr().lines().filter(line -> line.contains(": measuring ")).toList();
        assertThat(measuring).containsExactly(
            "ping raw-udp, round 1 of 3: measuring 1001 round trips",
            "ping nakcast, round 1 of 3: measuring 1001 round trips",
            "ping nakcast, round 2 of 3: measuring 1000 round trips",
            "ping raw-udp, round 2 of 3: measuring 1000 round trips",
            "ping raw-udp, round 3 of 3: measuring 1000 round trips",
            "ping nakcast, round 3 of 3: measuring 1000 round trips");
        assertThat(run.stderr()).contains("pong nakcast, round 3 of 3: the ping side ended this phase");
        final List<String> lines = run.stdout().lines().toList();
        assertThat(lines.get(0)).endsWith(", paths taking turns in 3 rounds");
        final JsonNode json = JsonMapper.builder().build().readTree(lines.get(lines.size() - 1));
        assertThat(json.get("rounds").asInt()).isEqualTo(3);
        assertThat(json.get("count").asLong()).as("every turn's round trips in one row").isEqualTo(3001);
        assertThat(json.get("baselineCount").asLong()).isEqualTo(3001);
        assertThat(json.get("naksSent").asLong()).as("nothing lost on lo, nothing asked again").isZero();
    }

    /** What {@code latency-rtt local} printed, on stdout and stderr. */
    private record Run(String stdout, String stderr) {
    }

    /** Runs {@code latency-rtt local} with {@code options}; it must exit 0 (stderr says why not). */
    private static Run local(String... options) {
        System.setProperty("java.awt.headless", "true");
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final String[] args = new String[options.length + 1];
        args[0] = "local";
        System.arraycopy(options, 0, args, 1, options.length);
        final int exitCode = LatencyRtt.run(new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8), args);
        final Run run = new Run(out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        assertThat(exitCode).as(run.stderr()).isZero();
        return run;
    }
}
