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
 * carry the ping-pong, and the measured loop allocates nothing: after a warm-up, the round trips
 * recorded into the {@link LatencyLog} cost the ping thread zero bytes, and the pong thread echoing
 * them zero bytes too ({@code com.sun.management.ThreadMXBean#getThreadAllocatedBytes}). No slack
 * is allowed for this project's paths: the figures are exact byte counts of two threads (a peer may
 * allow itself fewer bytes than round trips, see {@link #PEER}). Threads a path runs of its own (a
 * media driver's) are not counted.
 *
 * <p>Both sides wait with the {@code backoff} idle strategy: spinning, then yielding, then parking.
 * On a host whose cores are all busy with other work, a side that only yields waits out the other
 * processes' time slices (about 5 ms a round trip with two {@code yes} loops on two cores), while a
 * parked side is woken promptly.
 *
 * <p>The warm-up is {@value #WARMUP} round trips (enough for the JIT's last tier), or {@value
 * #WARMUP_SECONDS} s on a host too busy for that. Then come measured attempts of {@value #MEASURED}
 * round trips, each cut at {@value #ATTEMPT_SECONDS} s, so at least ten heartbeats, until one is
 * clean on both threads with at least {@value #FEWEST_ROUND_TRIPS} round trips, for at most {@value
 * #ATTEMPTS} attempts. A late JIT event (a deoptimization re-materializes objects escape analysis
 * had removed, a few KB once) or code still being compiled on a busy host can land in an attempt,
 * while anything the loop allocates per round trip or per heartbeat shows up in every attempt.
 *
 * <p>It lives in this module's test-jar: the subclasses for the built-in paths run here, those for
 * the peers in the module that provides them, with that module's class path.
 */
public abstract class RttPathContractIT {
    private static final int WARMUP = 50_000;
    private static final int WARMUP_SECONDS = 20;
    private static final int MEASURED = 100_000;
    private static final int ATTEMPT_SECONDS = 3;
    private static final int FEWEST_ROUND_TRIPS = 100;
    private static final int ATTEMPTS = 10;

    /** How many bytes each side's thread may allocate in an attempt of so many round trips. */
    @FunctionalInterface
    protected interface Allowance {
        /**
         * @param roundTrips the round trips the attempt made
         * @return the bytes each side's thread may allocate in it
         */
        long bytes(long roundTrips);
    }

    /** This project's paths: not one byte. */
    protected static final Allowance NOTHING = roundTrips -> 0;

    /**
     * A peer's path: fewer bytes than round trips, so nothing per round trip. A peer's own
     * housekeeping (its media driver's, run by the side's thread) may allocate now and then, on a
     * loaded host more often, and is not this project's to hold to zero.
     */
    protected static final Allowance PEER = roundTrips -> roundTrips - 1;

    @TempDir
    Path dir;

    private final Allowance allowance;

    /** A contract for one of this project's paths: not one byte allocated. */
    protected RttPathContractIT() {
        this(NOTHING);
    }

    /**
     * @param allowance what each side's thread may allocate in an attempt: {@link #NOTHING}, or
     *     {@link #PEER} for a peer
     */
    protected RttPathContractIT(Allowance allowance) {
        this.allowance = allowance;
    }

    /** The path under test. */
    protected abstract RttPath path();

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    @SuppressWarnings("deprecation") // Thread.getId(): threadId() is JDK 19+, the baseline is 17
    void roundTripsAllocateNothingOnEitherSide() throws Exception {
        final RttPath path = path();
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        final LinkOptions links = new LinkOptions();
        new CommandLine(links).parseArgs("--idle", "backoff");
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
                    pinger.run(WARMUP, TimeUnit.SECONDS.toNanos(WARMUP_SECONDS), 0, warmup);
                }
                final LatencyLog log = new LatencyLog(dir.resolve(path.label() + ".hlog"), TimeUnit.SECONDS.toNanos(1));
                final List<String> attempts = new ArrayList<>();
                long measured = 0;
                boolean clean = false;
                try {
                    for (int attempt = 0; attempt < ATTEMPTS && !clean; attempt++) {
                        final long pongBefore = threads.getThreadAllocatedBytes(pongThread.getId());
                        final long pingBefore = threads.getCurrentThreadAllocatedBytes();
                        final long done = pinger.run(MEASURED, TimeUnit.SECONDS.toNanos(ATTEMPT_SECONDS), 0, log);
                        final long pingAllocated = threads.getCurrentThreadAllocatedBytes() - pingBefore;
                        final long pongAllocated = threads.getThreadAllocatedBytes(pongThread.getId()) - pongBefore;
                        measured += done;
                        attempts.add(done + " round trips: ping " + pingAllocated + " bytes, pong " + pongAllocated
                            + " bytes");
                        clean = done >= FEWEST_ROUND_TRIPS
                            && Math.max(pingAllocated, pongAllocated) <= allowance.bytes(done);
                    }
                } finally {
                    log.close();
                }
                assertThat(clean)
                    .as("an attempt of at least %d round trips within the allowance, attempt by attempt: %s",
                        FEWEST_ROUND_TRIPS, attempts)
                    .isTrue();
                assertThat(log.total().getTotalCount()).isEqualTo(measured);
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
