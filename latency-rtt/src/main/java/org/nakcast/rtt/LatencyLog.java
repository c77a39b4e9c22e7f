package org.nakcast.rtt;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.SplittableRandom;
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
 * the warm-up runs the very code the measurement runs; the interval code, which a warm-up does not
 * run, is warmed once by {@link #warmIntervalCode()}.
 */
final class LatencyLog implements AutoCloseable {
    /** The largest value recorded. */
    static final long HIGHEST_NS = TimeUnit.SECONDS.toNanos(10);
    /** Significant decimal digits kept. */
    static final int SIGNIFICANT_DIGITS = 3;
    /** Intervals written by {@link #warmIntervalCode()}: past the JIT's thresholds for its loops and calls. */
    private static final int WARM_INTERVALS = 2_000;
    /** Round trips recorded per warming interval, drawn evenly on a log scale between the two below. */
    private static final int WARM_ROUND_TRIPS_PER_INTERVAL = 500;
    /** The shortest round trip a warming interval may record. */
    private static final long WARM_SHORTEST_NS = TimeUnit.MICROSECONDS.toNanos(1);
    /**
     * The longest; each interval's shortest and longest vary about the total's, so the code that
     * keeps the total's minimum and maximum runs both ways.
     */
    private static final long WARM_LONGEST_NS = TimeUnit.MILLISECONDS.toNanos(20);
    /** The warming round trips are the same in every run. */
    private static final long WARM_SEED = 1;

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
        this(hlog == null ? null : open(hlog), intervalNs, hlog != null);
    }

    private LatencyLog(PrintStream file, long intervalNs, boolean flushEveryInterval) {
        this.intervalNs = intervalNs;
        this.file = file;
        if (file == null) {
            this.writer = null;
            this.flusher = null;
            return;
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
        if (!flushEveryInterval) {
            this.flusher = null;
            return;
        }
        this.flusher = new Thread(this::flushEveryInterval, "latency-rtt-hlog");
        flusher.setDaemon(true);
        flusher.start();
    }

    /**
     * Runs the interval code (take the interval, add it to the total, encode and write it) until
     * the JIT has compiled it, into a log that writes nowhere. Once a second the interval thread
     * wakes during a measurement; left cold, its code would be compiled there, by a compiler thread
     * that needs one of the cores the two measuring sides are using, and the path measured at that
     * moment would pay for the tool. Call once, before the first path.
     */
    static void warmIntervalCode() {
        final PrintStream nowhere = new PrintStream(OutputStream.nullOutputStream(), false, StandardCharsets.US_ASCII);
        final SplittableRandom random = new SplittableRandom(WARM_SEED);
        final double spread = Math.log((double) WARM_LONGEST_NS / WARM_SHORTEST_NS);
        try (LatencyLog log = new LatencyLog(nowhere, 0, false)) {
            for (int round = 0; round < WARM_INTERVALS; round++) {
                for (int roundTrip = 0; roundTrip < WARM_ROUND_TRIPS_PER_INTERVAL; roundTrip++) {
                    log.record((long) (WARM_SHORTEST_NS * Math.exp(spread * random.nextDouble())), 0);
                }
                log.flush();
            }
        }
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
        if (file == null) {
            return;
        }
        if (flusher != null) {
            LockSupport.unpark(flusher);
            try {
                flusher.join();
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
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

    private static PrintStream open(Path hlog) {
        try {
            return new PrintStream(hlog.toFile(), StandardCharsets.US_ASCII);
        } catch (IOException ex) {
            throw new UncheckedIOException("cannot write " + hlog + ": " + ex.getMessage(), ex);
        }
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
