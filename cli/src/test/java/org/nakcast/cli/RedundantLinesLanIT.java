package org.nakcast.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code ops/redundant-lines} on a simulated LAN of two networks made by {@code ops/lan} inside this
 * test's private network namespace, running {@code nakcast pub} and {@code nakcast sub} from this
 * module's class path: a topic on lines A and B, all of line A cut for a second mid-stream, then 5 %
 * kernel loss on each line of each subscriber host. Every message arrives once and in order, line A's
 * failure is a LineDown and a LineUp, and the NAKs are about what both lines lost (0.25 % of the
 * datagrams), not what either lost (5 %).
 */
class RedundantLinesLanIT {
    @TempDir
    Path lanState;

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void aCutLineIsAnEventAndOnlyWhatBothLinesLostIsNaked() throws Exception {
        final ProcessBuilder builder = new ProcessBuilder(script().toString(), "--classpath",
            System.getProperty("java.class.path")).redirectErrorStream(true);
        builder.environment().put("NAKCAST_LAN_DIR", lanState.resolve("lan").toString());
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        final Process drill = builder.start();
        final String output = new String(drill.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(drill.waitFor(60, TimeUnit.SECONDS)).as(output).isTrue();

        assertThat(drill.exitValue()).as(output).isZero();
        final List<String> lines = output.lines().toList();
        final JsonNode report = JsonMapper.builder().build().readTree(lines.get(lines.size() - 1));
        assertThat(report.get("ok").asBoolean()).as(output).isTrue();
        assertThat(report.get("cutFramesDropped").asLong()).as("the cut dropped line A's frames").isPositive();
        final long count = report.get("count").asLong();
        final JsonNode subscribers = report.get("subscribers");
        assertThat(subscribers).hasSize(2);
        for (JsonNode host : subscribers) {
            assertThat(host.get("received").asLong()).as(output).isEqualTo(count);
            assertThat(host.get("reason").asString()).contains("exactly once and in order");
            assertThat(host.get("lineADowns").asLong()).as("line A's cut told as LineDown").isPositive();
            assertThat(host.get("lineAUps").asLong()).as("and its mending as LineUp").isPositive();
            final long lineA = host.get("lineA").asLong();
            assertThat(host.get("droppedA").asDouble() / lineA).as("line A's loss").isBetween(0.04, 0.06);
            assertThat(host.get("droppedB").asDouble() / host.get("lineB").asLong()).as("line B's loss")
                .isBetween(0.04, 0.06);
            final double bothLost = host.get("bothLost").asDouble();
            assertThat(bothLost / lineA).as("both lines lost about 0.25 %").isBetween(0.0015, 0.0035);
            assertThat(host.get("naks").asDouble()).as(output).isBetween(0.5 * bothLost, 1.5 * bothLost);
        }
    }

    /** ops/redundant-lines, found upwards from the working directory (the module's). */
    private static Path script() throws IOException {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            final Path script = dir.resolve("ops/redundant-lines");
            if (Files.isExecutable(script)) {
                return script;
            }
        }
        throw new IOException("no ops/redundant-lines above " + Path.of("").toAbsolutePath());
    }
}
