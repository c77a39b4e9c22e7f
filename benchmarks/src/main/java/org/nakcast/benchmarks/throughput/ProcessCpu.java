package org.nakcast.benchmarks.throughput;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;

/**
 * CPU time this JVM has used, every thread together, user and kernel: sampled once a second next
 * to a side's message count, it gives the cores the side spent per measured second, so a table
 * shows whether a run was bound by the machine's cores or by something else.
 */
final class ProcessCpu {
    /** What {@link #nanos()} returns where the JVM cannot tell. */
    static final long UNKNOWN = -1;

    private static final OperatingSystemMXBean OS = ManagementFactory.getOperatingSystemMXBean();

    private ProcessCpu() {
    }

    /** CPU nanoseconds used by this JVM so far, or {@link #UNKNOWN}. */
    static long nanos() {
        return OS instanceof com.sun.management.OperatingSystemMXBean os ? os.getProcessCpuTime() : UNKNOWN;
    }

    /**
     * The cores a side used during the measured seconds: the median of its per-second CPU times
     * over those seconds, in seconds per second; NaN if the JVM could not tell.
     *
     * @param cpuNanos CPU nanoseconds sampled at the end of each second
     */
    static double cores(PerSecondCounts cpuNanos, int from, int count) {
        if (cpuNanos.size() == 0 || cpuNanos.rateAt(0) < 0) {
            return Double.NaN;
        }
        return cpuNanos.median(from, count) / 1e9;
    }
}
