package org.nakcast.benchmarks.throughput;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Runs the whole throughput measurement, orchestrator and both child JVMs, for 1 s with no loss
 * and with 1% loss: every message must be delivered, none lost, none out of order. The rate is a
 * quarter of the default so that a test machine busy with other work still keeps up: this tests
 * the measurement and the repair path, not the machine's speed. The test JVM runs in a private
 * network namespace (the parent pom's java wrapper), and the children inherit it.
 */
class ThroughputBenchIT {
    private static final Pattern RUN = Pattern.compile(
        "\"loss\": ([0-9.]+), \"loadBefore\": [^,]+, \"deliveredPerSecond\": [0-9.]+, \"delivered\": (\\d+),"
            + " \"lost\": (\\d+),"
            + " \"sequenceErrors\": (\\d+), \"unaccounted\": (-?\\d+)");

    @Test
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void deliversEverythingWithoutAndWithOnePercentLoss() {
        final ByteArrayOutputStream captured = new ByteArrayOutputStream();
        final PrintStream out = new PrintStream(captured, true, StandardCharsets.UTF_8);

        final int status = ThroughputBench.run(
            new String[] {"--seconds", "1", "--warmup", "1", "--rate", "32m", "--loss", "0,0.01"}, out, System.err);

        final String output = captured.toString(StandardCharsets.UTF_8);
        final String[] lines = output.trim().split("\n");
        final String json = lines[lines.length - 1];
        assertThat(status).as(output).isZero();
        assertThat(json).as(output).startsWith("{\"system\": \"nakcast\"").endsWith("]}");

        final List<String> losses = new ArrayList<>();
        final Matcher run = RUN.matcher(json);
        while (run.find()) {
            losses.add(run.group(1));
            assertThat(Long.parseLong(run.group(2))).as("delivered\n" + output).isPositive();
            assertThat(Long.parseLong(run.group(3))).as("lost\n" + output).isZero();
            assertThat(Long.parseLong(run.group(4))).as("sequence errors\n" + output).isZero();
            assertThat(Long.parseLong(run.group(5))).as("unaccounted\n" + output).isZero();
        }
        assertThat(losses).as(output).containsExactly("0.000000", "0.010000");
    }
}
