package org.nakcast.benchmarks.throughput;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Reads how many UDP datagrams the kernel dropped because a socket's receive buffer was full
 * ({@code RcvbufErrors} in {@code /proc/net/snmp}). The file describes the reader's network
 * namespace, and a run's namespace holds nothing but the run, so the growth of this count during
 * a run is the datagrams the subscriber's sockets could not take in time: the overrun that flow
 * control will one day prevent.
 */
final class KernelUdpDrops {
    /** What {@link #read()} answers where the count cannot be read (not Linux). */
    static final long UNKNOWN = -1;

    private static final Path SNMP = Path.of("/proc/net/snmp");
    private static final String UDP = "Udp:";
    private static final String RCVBUF_ERRORS = "RcvbufErrors";

    private KernelUdpDrops() {
    }

    /** The namespace's count of datagrams dropped for a full receive buffer, or {@link #UNKNOWN}. */
    static long read() {
        try {
            return parse(Files.readAllLines(SNMP));
        } catch (IOException | RuntimeException ex) {
            return UNKNOWN;
        }
    }

    /** The {@code RcvbufErrors} of the {@code Udp:} title and value lines, or {@link #UNKNOWN}. */
    static long parse(List<String> lines) {
        String titles = null;
        for (String line : lines) {
            if (!line.startsWith(UDP)) {
                continue;
            }
            if (titles == null) {
                titles = line;
                continue;
            }
            final String[] names = titles.trim().split("\\s+");
            final String[] values = line.trim().split("\\s+");
            for (int i = 1; i < names.length && i < values.length; i++) {
                if (RCVBUF_ERRORS.equals(names[i])) {
                    return Long.parseLong(values[i]);
                }
            }
            return UNKNOWN;
        }
        return UNKNOWN;
    }
}
