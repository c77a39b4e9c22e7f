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
 * Runs the quickstart, every child JVM included, for the flyweight codec (zero-copy claim path) and
 * Kryo (object path), 1 s each end to end: both codecs' rates are measured, and each end-to-end run
 * decodes every message, in order, none lost. The test JVM runs in a private network namespace
 * (the parent pom's java wrapper), and the children inherit it.
 */
class QuickstartIT {
    private static final Pattern CODEC = Pattern.compile(
        "\\{\"codec\": \"([a-z-]+)\", \"encodePerSecond\": ([0-9.]+), \"decodePerSecond\": ([0-9.]+), .*?"
            + "\"delivered\": (\\d+), \"lost\": (\\d+), \"sequenceErrors\": (\\d+), \"unaccounted\": (-?\\d+)");

    @Test
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void flyweightAndKryoDeliverEveryMessageEndToEnd() {
        final ByteArrayOutputStream captured = new ByteArrayOutputStream();
        final PrintStream out = new PrintStream(captured, true, StandardCharsets.UTF_8);

        final int status = Quickstart.run(
            new String[] {"--codecs", "flyweight,kryo", "--seconds", "1", "--warmup", "1"}, out, System.err);

        final String output = captured.toString(StandardCharsets.UTF_8);
        final String[] lines = output.trim().split("\n");
        final String json = lines[lines.length - 1];
        assertThat(status).as(output).isZero();
        assertThat(lines[0]).startsWith("codec");
        assertThat(lines[1]).startsWith("flyweight").endsWith(" 0");
        assertThat(lines[2]).startsWith("kryo").endsWith(" 0");
        assertThat(output).contains("OK: every codec delivered every message exactly once and in order");
        assertThat(json).as(output).startsWith("{\"command\": \"quickstart\"").contains("\"ok\": true");

        final List<String> codecs = new ArrayList<>();
        final Matcher codec = CODEC.matcher(json);
        while (codec.find()) {
            codecs.add(codec.group(1));
            assertThat(Double.parseDouble(codec.group(2))).as("encode/s\n" + output).isPositive();
            assertThat(Double.parseDouble(codec.group(3))).as("decode/s\n" + output).isPositive();
            assertThat(Long.parseLong(codec.group(4))).as("delivered\n" + output).isPositive();
            assertThat(Long.parseLong(codec.group(5))).as("lost\n" + output).isZero();
            assertThat(Long.parseLong(codec.group(6))).as("sequence errors\n" + output).isZero();
            assertThat(Long.parseLong(codec.group(7))).as("unaccounted\n" + output).isZero();
        }
        assertThat(codecs).as(output).containsExactly("flyweight", "kryo");
    }
}
