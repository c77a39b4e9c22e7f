package org.nakcast.benchmarks.throughput;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.agrona.IoUtil;
import org.nakcast.config.AuthKeyFile;
import org.nakcast.config.AuthKeys;

/**
 * The key file of the runs with authentication: one fresh key, written owner-only into a
 * temporary directory the first time a run asks, shared by the run's JVMs, deleted when this JVM
 * exits.
 */
final class BenchKeyFile {
    private static Path path;

    private BenchKeyFile() {
    }

    /** The key file's path, written on the first call. */
    static synchronized String path() {
        if (path == null) {
            try {
                final Path dir = Files.createTempDirectory("nakcast-bench-keys");
                final Path file = dir.resolve("bench.keys");
                AuthKeyFile.write(file, new AuthKeys(1, List.of(AuthKeyFile.newKey(1))));
                Runtime.getRuntime().addShutdownHook(new Thread(() -> IoUtil.delete(dir.toFile(), true)));
                path = file;
            } catch (IOException ex) {
                throw new UncheckedIOException("cannot write the bench's key file", ex);
            }
        }
        return path.toString();
    }
}
