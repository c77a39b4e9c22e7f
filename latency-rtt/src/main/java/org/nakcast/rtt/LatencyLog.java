package org.nakcast.rtt;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;
import org.HdrHistogram.SingleWriterRecorder;

/**
 * Where the measured round trips go. The measuring thread records into a pre-allocated
 * {@link SingleWriterRecorder} (wait-free, allocation-free); a background thread takes the interval
 * histogram once per interval, writes it to the {@code .hlog} interval log and adds it to the
 * total. Values are nanoseconds, from 1 ns to 10 s, at 3 significant digits; a longer round trip
 * is recorded as 10 s. A log without a file (warm-up) records the same way and writes nothing, so
 * the warm-up runs the very code the measurement runs.
 */
final class LatencyLog implements AutoCloseable {
    /** The largest value recorded. */
    static final long HIGHEST_NS = TimeUnit.SECONDS.toNanos(10);
    /** Significant decimal digits kept. */
    static final int SIGNIFICANT_DIGITS = 3;

    private final SingleWriterRecorder recorder = new SingleWriterRecorder(1, HIGHEST_NS, SIGNIFICANT_DIGITS);
    private final Histogram total = newHistogram();
    private final PrintStream file;
    private final HistogramLogWriter writer;
    private final Thread flusher;
    private final long intervalNs;
    private Histogram interval;
    private volatile boolean closed;

    /**
     * Starts a log: writes the {@code .hlog} header and starts the interval thread.
     *
     * @param hlog the interval log to write; null to write none (warm-up)
     * @param intervalNs how often an interval is written
     */
    LatencyLog(Path hlog, long intervalNs) {
        this.intervalNs = intervalNs;
        if (hlog == null) {
            this.file = null;
            this.writer = null;
            this.flusher = null;
            return;
        }
        try {
            this.file = new PrintStream(hlog.toFile(), StandardCharsets.US_ASCII);
        } catch (IOException ex) {
            throw new UncheckedIOException("cannot write " + hlog + ": " + ex.getMessage(), ex);
        }
        this.writer = new HistogramLogWriter(file);
        final long startMs = System.currentTimeMillis();
        writer.outputLogFormatVersion();
        writer.outputComment("nakcast latency-rtt: round trips in nanoseconds");
        writer.outputStartTime(startMs);
        writer.setBaseTime(startMs);
        writer.outputBaseTime(startMs);
        writer.outputLegend();
        recorder.reset();
        this.flusher = new Thread(this::flushEveryInterval, "latency-rtt-hlog");
        flusher.setDaemon(true);
        flusher.start();
    }

    /**
     * Records one round trip; allocates nothing.
     *
     * @param roundTripNs the round trip
     * @param expectedIntervalNs at a fixed rate the time between sends, so that a stall also counts
     *     the sends it held up; 0 back-to-back
     */
    void record(long roundTripNs, long expectedIntervalNs) {
        final long value = Math.min(Math.max(roundTripNs, 1), HIGHEST_NS);
        if (expectedIntervalNs > 0) {
            recorder.recordValueWithExpectedInterval(value, expectedIntervalNs);
        } else {
            recorder.recordValue(value);
        }
    }

    /** Stops the interval thread, writes the last interval and closes the file. */
    @Override
    public void close() {
        closed = true;
        if (flusher == null) {
            return;
        }
        LockSupport.unpark(flusher);
        try {
            flusher.join();
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
        flush();
        file.close();
    }

    /** Every round trip recorded; complete once closed. */
    Histogram total() {
        return total;
    }

    /** A histogram with this log's range and precision. */
    static Histogram newHistogram() {
        return new Histogram(1, HIGHEST_NS, SIGNIFICANT_DIGITS);
    }

    private void flushEveryInterval() {
        long nextNs = System.nanoTime() + intervalNs;
        while (!closed) {
            LockSupport.parkNanos(nextNs - System.nanoTime());
            if (!closed && System.nanoTime() - nextNs >= 0) {
                flush();
                nextNs += intervalNs;
            }
        }
    }

    private void flush() {
        interval = recorder.getIntervalHistogram(interval);
        total.add(interval);
        writer.outputIntervalHistogram(interval);
    }
}
