package org.nakcast.rtt;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.nakcast.config.NodeConfig;

import picocli.CommandLine;

/**
 * The contract every {@link RttPath} passes (one small subclass per path names it): its links
 * carry the ping-pong, and the measured loop allocates nothing: after a warm-up, 100,000 round
 * trips recorded into the {@link LatencyLog} cost the ping thread zero bytes, and the pong thread
 * echoing them zero bytes too ({@code com.sun.management.ThreadMXBean#getThreadAllocatedBytes}).
 * No slack is allowed for this project's paths: the figures are exact byte counts of two threads
 * (a peer may allow itself fewer bytes than round trips, see {@link #PEER_BYTES_ALLOWED}).
 * Threads a path runs of its own (a media driver's) are not counted.
 *
 * <p>Up to three runs of 100,000 are made and one must be exactly zero on both threads: a late JIT
 * event (a deoptimization re-materializes objects escape analysis had removed, a few KB once) can
 * land in the first, while anything the loop allocates per round trip or per heartbeat (a run
 * lasts about a second, ten heartbeats) shows up in every run.
 *
 * <p>It lives in this module's test-jar: the subclasses for the built-in paths run here, those for
 * the peers in the module that provides them, with that module's class path.
 */
public abstract class RttPathContractIT {
    private static final int WARMUP = 50_000;
    private static final int MEASURED = 100_000;
    private static final int ATTEMPTS = 3;
    /**
     * What a peer's path may allocate per attempt on each side's thread: fewer bytes than round
     * trips, so nothing per round trip. A peer's own housekeeping (its media driver's, run by the
     * side's thread) may allocate now and then, on a loaded host more often, and is not this
     * project's to hold to zero.
     */
    protected static final long PEER_BYTES_ALLOWED = MEASURED - 1;

    @TempDir
    Path dir;

    private final long bytesAllowedPerAttempt;

    /** A contract for one of this project's paths: not one byte allocated. */
    protected RttPathContractIT() {
        this(0);
    }

    /**
     * @param bytesAllowedPerAttempt the bytes each side's thread may allocate in an attempt: 0, or
     *     {@link #PEER_BYTES_ALLOWED} for a peer
     */
    protected RttPathContractIT(long bytesAllowedPerAttempt) {
        this.bytesAllowedPerAttempt = bytesAllowedPerAttempt;
    }

    /** The path under test. */
    protected abstract RttPath path();

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    @SuppressWarnings("deprecation") // Thread.getId(): threadId() is JDK 19+, the baseline is 17
    void roundTripsAllocateNothingOnEitherSide() throws Exception {
        final RttPath path = path();
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        final LinkOptions links = new LinkOptions();
        new CommandLine(links).parseArgs("--idle", "yield");
        final NodeConfig config = links.loadConfig();

        final EchoBuffer echo = new EchoBuffer();
        final EchoWatch echoes = new EchoWatch();
        try (RttLink pongLink = links.open(path, false, echo, config);
             RttLink pingLink = links.open(path, true, echoes, config)) {
            final Ponger ponger = new Ponger(pongLink, echo, links.newIdleStrategy());
            final Thread pongThread = new Thread(ponger::serve, "pong");
            pongThread.start();
            try {
                final Pinger pinger = new Pinger(pingLink, path.label(), echoes, links.newIdleStrategy(), 32,
                    TimeUnit.SECONDS.toNanos(5));
                pinger.connect();
                try (LatencyLog warmup = new LatencyLog(null, 0)) {
                    pinger.run(WARMUP, 0, 0, warmup);
                }
                final LatencyLog log = new LatencyLog(dir.resolve(path.label() + ".hlog"), TimeUnit.SECONDS.toNanos(1));
                final List<String> attempts = new ArrayList<>();
                final long allowed = bytesAllowedPerAttempt;
                long mostAllocated = Long.MAX_VALUE;
                try {
                    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
                        final long pongBefore = threads.getThreadAllocatedBytes(pongThread.getId());
                        final long pingBefore = threads.getCurrentThreadAllocatedBytes();
                        final long done = pinger.run(MEASURED, 0, 0, log);
                        final long pingAllocated = threads.getCurrentThreadAllocatedBytes() - pingBefore;
                        final long pongAllocated = threads.getThreadAllocatedBytes(pongThread.getId()) - pongBefore;
                        assertThat(done).isEqualTo(MEASURED);
                        attempts.add("ping " + pingAllocated + " bytes, pong " + pongAllocated + " bytes");
                        mostAllocated = Math.max(pingAllocated, pongAllocated);
                        if (mostAllocated <= allowed) {
                            break;
                        }
                    }
                } finally {
                    log.close();
                }
                assertThat(mostAllocated)
                    .as("bytes allocated in %d round trips, attempt by attempt: %s", MEASURED, attempts)
                    .isLessThanOrEqualTo(allowed);
                assertThat(log.total().getTotalCount()).isEqualTo((long) MEASURED * attempts.size());
                pinger.finish();
            } finally {
                ponger.stop();
                pongThread.join();
            }
        }
    }

    @Test
    void theAllocationCounterWorksOnThisJvm() {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        final long before = threads.getCurrentThreadAllocatedBytes();
        final long[] kept = new long[1000];
        assertThat(threads.getCurrentThreadAllocatedBytes() - before).isGreaterThanOrEqualTo(8000);
        assertThat(kept).hasSize(1000);
    }
}
