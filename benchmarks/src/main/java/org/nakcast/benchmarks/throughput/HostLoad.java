package org.nakcast.benchmarks.throughput;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The host's one-minute load average, read before each run: on a shared machine it says whether
 * other work competed for the cores, and so whether a run's figures are worth repeating.
 */
final class HostLoad {
    private static final Path LOADAVG = Path.of("/proc/loadavg");

    private HostLoad() {
    }

    /** The one-minute load average, or NaN where it cannot be read (not Linux). */
    static double oneMinute() {
        try {
            return Double.parseDouble(Files.readString(LOADAVG).trim().split("\\s+")[0]);
        } catch (IOException | RuntimeException ex) {
            return Double.NaN;
        }
    }
}
