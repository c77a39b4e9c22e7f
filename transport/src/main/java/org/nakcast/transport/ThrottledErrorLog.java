package org.nakcast.transport;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Writes a node's errors to its log without flooding it: the first of each distinct error (its
 * class, its message and where it was thrown) with its stack trace; then, while the same error
 * keeps coming, one line per interval saying how many more came. A subscription's handler that
 * throws on every message thus logs one trace and a line per interval, not a trace per message
 * (20,000 throws used to write 380,000 lines). Every error still reaches the node's error log file
 * and the application's error handler, each time.
 *
 * <p>At most {@value #MAX_DISTINCT} distinct errors are followed; one beyond them is logged whole.
 * Thread-safe: errors come from the node's threads and the application's pollers.
 */
final class ThrottledErrorLog {
    /** Distinct errors followed at once. */
    static final int MAX_DISTINCT = 64;

    /** Where the lines go: the node's logger. */
    interface Sink {
        /** One line, with the error whose trace follows it, or null for a line alone. */
        void write(String line, Throwable error);
    }

    /** One distinct error: how many came since it was last written, and when that was. */
    private static final class Followed {
        long unwritten;
        long writtenNs;
    }

    private final String nodeName;
    private final LongSupplier clockNs;
    private final long intervalNs;
    private final Sink sink;
    private final Map<String, Followed> followed = new LinkedHashMap<>();

    /**
     * @param nodeName the node the errors are of, named in every line
     * @param clockNs the time, in nanoseconds
     * @param intervalNs the shortest time between two lines of one distinct error
     * @param sink where the lines go
     */
    ThrottledErrorLog(String nodeName, LongSupplier clockNs, long intervalNs, Sink sink) {
        this.nodeName = nodeName;
        this.clockNs = clockNs;
        this.intervalNs = intervalNs;
        this.sink = sink;
    }

    /** One error: written with its trace if it is new, counted (and the count written once per interval) if not. */
    synchronized void log(Throwable error) {
        final String key = keyOf(error);
        final long nowNs = clockNs.getAsLong();
        Followed seen = followed.get(key);
        if (seen == null) {
            if (followed.size() < MAX_DISTINCT) {
                seen = new Followed();
                seen.writtenNs = nowNs;
                followed.put(key, seen);
            }
            sink.write("node " + nodeName + ": " + error, error);
            return;
        }
        seen.unwritten++;
        if (nowNs - seen.writtenNs >= intervalNs) {
            writeCount(error.toString(), seen, nowNs);
        }
    }

    /** Writes what was counted and not written yet: the node closes. */
    synchronized void flush() {
        final long nowNs = clockNs.getAsLong();
        for (Map.Entry<String, Followed> entry : followed.entrySet()) {
            if (entry.getValue().unwritten > 0) {
                writeCount(entry.getKey(), entry.getValue(), nowNs);
            }
        }
    }

    private void writeCount(String what, Followed seen, long nowNs) {
        sink.write("node " + nodeName + ": " + seen.unwritten + " more in the last "
            + (nowNs - seen.writtenNs) / 1_000_000 + " ms of the error logged before: " + what, null);
        seen.unwritten = 0;
        seen.writtenNs = nowNs;
    }

    /** What makes errors the same: class, message, and the frame that threw. */
    private static String keyOf(Throwable error) {
        final StackTraceElement[] trace = error.getStackTrace();
        return error + (trace.length > 0 ? " at " + trace[0] : "");
    }
}
