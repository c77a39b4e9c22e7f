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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.nakcast.config.NodeConfig;

import picocli.CommandLine;

/**
 * The measured loop allocates nothing: after a warm-up, 100,000 round trips recorded into the
 * {@link LatencyLog} cost the ping thread zero bytes, and the pong thread echoing them zero bytes
 * too ({@code com.sun.management.ThreadMXBean#getThreadAllocatedBytes}); on nakcast and on the
 * raw-udp baseline. No slack is allowed: the figures are exact byte counts of two threads.
 *
 * <p>Up to three runs of 100,000 are made and one must be exactly zero on both threads: a late JIT
 * event (a deoptimization re-materializes objects escape analysis had removed, a few KB once) can
 * land in the first, while anything the loop allocates per round trip or per heartbeat (a run
 * lasts about a second, ten heartbeats) shows up in every run.
 */
class PingPongAllocationIT {
    private static final int WARMUP = 50_000;
    private static final int MEASURED = 100_000;
    private static final int ATTEMPTS = 3;

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(LinkKind.class)
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    @SuppressWarnings("deprecation") // Thread.getId(): threadId() is JDK 19+, the baseline is 17
    void roundTripsAllocateNothingOnEitherSide(LinkKind kind) throws Exception {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        final LinkOptions links = new LinkOptions();
        new CommandLine(links).parseArgs("--idle", "yield");
        final NodeConfig config = links.loadConfig();

        final EchoBuffer echo = new EchoBuffer();
        final EchoWatch echoes = new EchoWatch();
        try (RttLink pongLink = links.open(kind, false, echo, config);
             RttLink pingLink = links.open(kind, true, echoes, config)) {
            final Ponger ponger = new Ponger(pongLink, echo, links.newIdleStrategy());
            final Thread pongThread = new Thread(ponger::serve, "pong");
            pongThread.start();
            try {
                final Pinger pinger = new Pinger(pingLink, echoes, links.newIdleStrategy(), 32,
                    TimeUnit.SECONDS.toNanos(5));
                pinger.connect();
                try (LatencyLog warmup = new LatencyLog(null, 0)) {
                    pinger.run(WARMUP, 0, 0, warmup);
                }
                final LatencyLog log = new LatencyLog(dir.resolve(kind.label() + ".hlog"), TimeUnit.SECONDS.toNanos(1));
                final List<String> attempts = new ArrayList<>();
                try {
                    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
                        final long pongBefore = threads.getThreadAllocatedBytes(pongThread.getId());
                        final long pingBefore = threads.getCurrentThreadAllocatedBytes();
                        final long done = pinger.run(MEASURED, 0, 0, log);
                        final long pingAllocated = threads.getCurrentThreadAllocatedBytes() - pingBefore;
                        final long pongAllocated = threads.getThreadAllocatedBytes(pongThread.getId()) - pongBefore;
                        assertThat(done).isEqualTo(MEASURED);
                        attempts.add("ping " + pingAllocated + " bytes, pong " + pongAllocated + " bytes");
                        if (pingAllocated == 0 && pongAllocated == 0) {
                            break;
                        }
                    }
                } finally {
                    log.close();
                }
                assertThat(attempts.get(attempts.size() - 1))
                    .as("bytes allocated in %d round trips, attempt by attempt: %s", MEASURED, attempts)
                    .isEqualTo("ping 0 bytes, pong 0 bytes");
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
