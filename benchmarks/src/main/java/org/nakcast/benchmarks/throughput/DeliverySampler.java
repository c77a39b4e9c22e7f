package org.nakcast.benchmarks.throughput;

import java.util.concurrent.locks.LockSupport;

/**
 * A daemon thread that reads the subscriber's delivered count, and the CPU time its JVM has used
 * ({@link ProcessCpu}), once a second, starting from the first message, so that the warm-up and
 * measured seconds line up with the publisher's (which start with its first offer). Seconds are
 * measured on {@link System#nanoTime()} from the first message, not from the previous sample, so
 * they do not drift.
 */
final class DeliverySampler implements Runnable {
    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    private static final long POLL_NS = 1_000_000L;

    private final DeliveryChecker checker;
    private final PerSecondCounts counts;
    private final PerSecondCounts cpuNanos;
    private final Thread thread;
    private volatile boolean running = true;

    /**
     * @param checker whose count to read
     * @param capacitySeconds the most seconds kept
     */
    DeliverySampler(DeliveryChecker checker, int capacitySeconds) {
        this.checker = checker;
        this.counts = new PerSecondCounts(capacitySeconds);
        this.cpuNanos = new PerSecondCounts(capacitySeconds);
        this.thread = new Thread(this, "delivery-sampler");
        thread.setDaemon(true);
    }

    /** Starts sampling; the first second starts with the first message. */
    void start() {
        thread.start();
    }

    @Override
    public void run() {
        long firstNs;
        while ((firstNs = checker.firstMessageNs()) == 0) {
            if (!running) {
                return;
            }
            LockSupport.parkNanos(POLL_NS);
        }
        long nextNs = firstNs + NANOS_PER_SECOND;
        while (running) {
            final long waitNs = nextNs - System.nanoTime();
            if (waitNs > 0) {
                LockSupport.parkNanos(Math.min(waitNs, POLL_NS * 100));
                continue;
            }
            counts.record(checker.delivered());
            cpuNanos.record(ProcessCpu.nanos());
            nextNs += NANOS_PER_SECOND;
        }
    }

    /**
     * Stops sampling and waits for the thread.
     *
     * @return the counts, one per whole second since the first message
     * @throws InterruptedException if interrupted while waiting
     */
    PerSecondCounts stop() throws InterruptedException {
        running = false;
        thread.join();
        return counts;
    }

    /** The JVM's CPU nanoseconds used by the end of each second; read after {@link #stop()}. */
    PerSecondCounts cpuNanos() {
        return cpuNanos;
    }
}
