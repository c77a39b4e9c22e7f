package org.nakcast.transport.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.nakcast.config.NodeConfig;
import org.nakcast.transport.Node;
import org.nakcast.transport.TransportException;

/**
 * A service started without nakcast's one JVM flag: {@code Node.launch} stops with an error that
 * names the flag, not with Agrona's bare {@link IllegalAccessError}. The service is a JVM of its
 * own, started with this JVM's java and class path and no flag at all; it inherits this test JVM's
 * private network namespace.
 */
class MissingJvmFlagIT {
    private static final int LAUNCHED = 0;
    private static final int REFUSED = 3;

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void launchWithoutTheFlagNamesIt() throws IOException, InterruptedException {
        final Process service = new ProcessBuilder(List.of(
            ProcessHandle.current().info().command().orElseThrow(),
            "-cp", System.getProperty("java.class.path"),
            LaunchOnTheDefaultConfig.class.getName()))
            .redirectErrorStream(true)
            .start();
        final String output = new String(service.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

        assertThat(service.waitFor()).as(output).isEqualTo(REFUSED);
        assertThat(output)
            .contains("nakcast needs the JVM flag --add-exports java.base/jdk.internal.misc=ALL-UNNAMED")
            .doesNotContain("IllegalAccessError");
    }

    /**
     * The service: launches a node on the embedded default config, as a first-time user does.
     */
    static final class LaunchOnTheDefaultConfig {
        private LaunchOnTheDefaultConfig() {
        }

        /**
         * @param args none
         */
        public static void main(String[] args) {
            try (Node node = Node.launch(NodeConfig.embeddedDefault())) {
                System.out.println("launched " + node);
                System.exit(LAUNCHED);
            } catch (TransportException refused) {
                System.out.println(refused.getMessage());
                System.exit(REFUSED);
            }
        }
    }
}
