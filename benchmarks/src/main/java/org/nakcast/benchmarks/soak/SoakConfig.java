package org.nakcast.benchmarks.soak;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** The node configs of a soak run: one file per node, in a directory of the run's own. */
final class SoakConfig {
    private SoakConfig() {
    }

    /**
     * Writes the config of node {@code name}: interface {@code eth0} of its simulated host, TTL 1
     * (the bridge is one segment), topic {@code topic}.
     *
     * @return the file
     */
    static Path write(Path directory, String name, String topic) throws IOException {
        final String yaml = """
            node:
              name: %s
            transports:
              - name: lan
                interface: eth0
                group: 239.255.78.1
                port: 40480
                ttl: 1
            topics:
              - name: %s
                id: 1
                transport: lan
                codec: flyweight
            """.formatted(name, topic);
        return Files.writeString(directory.resolve(name + ".yaml"), yaml, StandardCharsets.UTF_8);
    }

    /** Deletes the directory and the configs in it. */
    static void delete(Path directory) throws IOException {
        try (Stream<Path> files = Files.list(directory)) {
            for (Path file : files.toList()) {
                Files.delete(file);
            }
        }
        Files.delete(directory);
    }
}
