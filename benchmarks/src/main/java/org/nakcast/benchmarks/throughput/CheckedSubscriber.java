package org.nakcast.benchmarks.throughput;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.function.LongSupplier;

import org.nakcast.benchmarks.child.ChildProtocol;
import org.nakcast.benchmarks.child.Figures;

/**
 * The subscriber JVM's side of a throughput run, the same for nakcast and every peer: a
 * {@link DeliveryChecker} the system's handler feeds, a {@link DeliverySampler} counting per second
 * from the first message, and the protocol: READY once subscribed, then EXPECT n, then a drain
 * until every offered message was delivered, reported lost or skipped, or until nothing moves for
 * {@value #STALL_SECONDS} s ({@value #MAX_DRAIN_SECONDS} s at most). The caller adds its own
 * figures and says RESULT.
 */
public final class CheckedSubscriber {
    /** The drain gives up after this long without progress. */
    static final int STALL_SECONDS = 5;
    /** The drain gives up after this long in all. */
    static final int MAX_DRAIN_SECONDS = 60;
    private static final long POLL_MS = 10;

    private final RunSettings run;
    private final DeliveryChecker checker = new DeliveryChecker();
    private final DeliverySampler sampler;
    private final BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));

    /** Starts the per-second sampler of a run; it counts from the first message. */
    public CheckedSubscriber(RunSettings run) {
        this.run = run;
        this.sampler = new DeliverySampler(checker, run.totalSeconds() + MAX_DRAIN_SECONDS + 10);
        sampler.start();
    }

    /** What the system's message handler reports each message to. */
    public DeliveryChecker checker() {
        return checker;
    }

    /**
     * Says READY, waits to be told how many messages were offered, then waits until each is
     * accounted for or delivery stalls, and stops the sampler.
     *
     * @return the delivery figures: per-second rates, the cores used, delivered, lost, skipped, sequence errors
     * @throws IOException if the orchestrator goes away
     * @throws InterruptedException if interrupted while waiting
     */
    public Figures awaitDelivery() throws IOException, InterruptedException {
        ChildProtocol.say(ChildProtocol.READY);
        final long offered = Long.parseLong(ChildProtocol.await(in, ChildProtocol.EXPECT));
        final long drainStartNs = System.nanoTime();
        drain(this::accounted, offered);
        final long drainNs = System.nanoTime() - drainStartNs;
        final PerSecondCounts perSecond = sampler.stop();
        return new Figures()
            .put("deliveredPerSecond", perSecond.median(run.warmupSeconds(), run.seconds()))
            .put("deliveredPerSecondMean", mean(perSecond))
            .put("cpuCores", ProcessCpu.cores(sampler.cpuNanos(), run.warmupSeconds(), run.seconds()))
            .put("measuredSeconds", (long) Math.max(0, Math.min(perSecond.size() - run.warmupSeconds(),
                run.seconds())))
            .put("delivered", checker.delivered())
            .put("lost", checker.lost())
            .put("lossEvents", checker.lossEvents())
            .put("skipped", checker.skipped())
            .put("sequenceErrors", checker.sequenceErrors())
            .put("streams", checker.streamsStarted())
            .put("drainMs", drainNs / 1_000_000);
    }

    private long accounted() {
        return checker.delivered() + checker.lost() + checker.skipped();
    }

    /**
     * Waits until {@code accounted} reaches {@code offered}, or stops moving for {@value #STALL_SECONDS} s,
     * or {@value #MAX_DRAIN_SECONDS} s have passed.
     */
    static void drain(LongSupplier accounted, long offered) throws InterruptedException {
        final long deadlineNs = System.nanoTime() + MAX_DRAIN_SECONDS * 1_000_000_000L;
        long lastProgress = -1;
        long lastProgressNs = System.nanoTime();
        while (true) {
            final long now = accounted.getAsLong();
            final long nowNs = System.nanoTime();
            if (now >= offered || nowNs >= deadlineNs) {
                return;
            }
            if (now != lastProgress) {
                lastProgress = now;
                lastProgressNs = nowNs;
            } else if (nowNs - lastProgressNs >= STALL_SECONDS * 1_000_000_000L) {
                return;
            }
            Thread.sleep(POLL_MS);
        }
    }

    /** The mean delivered per second over the measured seconds that were recorded. */
    private double mean(PerSecondCounts perSecond) {
        final int end = Math.min(perSecond.size(), run.totalSeconds());
        if (end <= run.warmupSeconds()) {
            return 0;
        }
        long sum = 0;
        for (int second = run.warmupSeconds(); second < end; second++) {
            sum += perSecond.rateAt(second);
        }
        return (double) sum / (end - run.warmupSeconds());
    }
}
