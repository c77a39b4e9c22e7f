package org.nakcast.benchmarks.soak;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code ops/soak --short} on a simulated LAN made by {@code ops/lan} inside this test's private
 * network namespace: a restarted publisher, a subscriber behind 2 % kernel loss, a subscriber
 * killed and restarted; every host gets what it owes.
 */
class SoakIT {
    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void theShortSoakDeliversEverythingOwedThroughLossAndRestarts() throws Exception {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final int status = Soak.run(new PrintStream(out, true, StandardCharsets.UTF_8), System.err,
            "--short", "--lan", lanScript().toString());
        final String output = out.toString(StandardCharsets.UTF_8);

        assertThat(status).as(output).isZero();
        final List<String> lines = output.lines().toList();
        final JsonNode report = JsonMapper.builder().build().readTree(lines.get(lines.size() - 1));
        assertThat(report.get("ok").asBoolean()).isTrue();
        assertThat(report.get("publishers")).hasSize(2);
        final JsonNode hosts = report.get("hosts");
        assertThat(hosts).hasSize(3);
        for (JsonNode host : hosts) {
            assertThat(host.get("missing").asLong()).isZero();
            assertThat(host.get("received").asLong()).isPositive();
            assertThat(host.get("report").get("publisherEnds").asLong())
                .as("each publisher stopped cleanly: its session ended with everything delivered").isEqualTo(2);
        }
        assertThat(hosts.get(1).get("report").get("naksSent").asLong()).as("the lossy host repaired").isPositive();
        assertThat(hosts.get(2).get("declaredGap").asLong()).as("the restarted host joined live").isPositive();
    }

    /** ops/lan, found upwards from the working directory (the module's). */
    private static Path lanScript() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            final Path script = dir.resolve("ops/lan");
            if (Files.isExecutable(script)) {
                return script;
            }
        }
        throw new IllegalStateException("no ops/lan above " + Path.of("").toAbsolutePath());
    }
}
