package org.nakcast.benchmarks.throughput;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;

import org.nakcast.benchmarks.child.ChildProtocol;
import org.nakcast.benchmarks.child.Figures;
import org.nakcast.transport.Node;
import org.nakcast.transport.NodeContext;
import org.nakcast.transport.loss.LossGenerator;
import org.nakcast.transport.loss.RandomLossGenerator;
import org.nakcast.transport.protocol.FrameType;
import org.nakcast.transport.status.SystemCounter;
import org.nakcast.transport.status.SystemCounters;

/**
 * The subscriber JVM of a throughput run (started by {@link ThroughputBench}): subscribes with a
 * {@link DeliveryChecker} as the run's payload says (decoding with its codec), losing the run's
 * share of DATA and RETRANSMIT datagrams on receipt (seeded), says READY, counts deliveries per
 * second from the first message, and once told how many messages were offered waits until each
 * was delivered or reported lost, or until nothing moves for {@value #STALL_SECONDS} s. Then it
 * reports its figures and exits.
 */
public final class SubscriberMain {
    /** The drain gives up after this long without a delivery or a loss event. */
    static final int STALL_SECONDS = 5;
    /** The drain gives up after this long in all. */
    static final int MAX_DRAIN_SECONDS = 60;
    private static final long POLL_MS = 10;

    private SubscriberMain() {
    }

    /**
     * @param args the run, as {@link RunSettings#toArgs()} writes it
     * @throws Exception if the node fails or the orchestrator goes away
     */
    public static void main(String[] args) throws Exception {
        final RunSettings run = RunSettings.fromArgs(args);
        final BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        final DeliveryChecker checker = new DeliveryChecker();
        final NodeContext context = new NodeContext().config(run.nodeConfig()).seed(run.seed())
            .receiveLoss(receiveLoss(run));
        try (Node node = Node.launch(context)) {
            final DeliverySampler sampler = new DeliverySampler(checker, run.totalSeconds() + MAX_DRAIN_SECONDS + 10);
            sampler.start();
            run.payload().subscribe(node, RunSettings.TOPIC, checker);
            ChildProtocol.say(ChildProtocol.READY);

            final long offered = Long.parseLong(ChildProtocol.await(in, ChildProtocol.EXPECT));
            final long drainStartNs = System.nanoTime();
            drain(checker, offered);
            final long drainNs = System.nanoTime() - drainStartNs;
            final PerSecondCounts perSecond = sampler.stop();

            final Figures figures = new Figures()
                .put("deliveredPerSecond", perSecond.median(run.warmupSeconds(), run.seconds()))
                .put("deliveredPerSecondMean", mean(perSecond, run))
                .put("measuredSeconds", (long) Math.max(0, Math.min(perSecond.size() - run.warmupSeconds(),
                    run.seconds())))
                .put("delivered", checker.delivered())
                .put("lost", checker.lost())
                .put("lossEvents", checker.lossEvents())
                .put("sequenceErrors", checker.sequenceErrors())
                .put("streams", checker.streamsStarted())
                .put("drainMs", drainNs / 1_000_000);
            ChildProtocol.say(ChildProtocol.RESULT, figures.putAll(counters(node.counters())).toLine());
        }
    }

    private static LossGenerator receiveLoss(RunSettings run) {
        return run.loss() == 0
            ? LossGenerator.NONE
            : new RandomLossGenerator(run.seed(), run.loss(), EnumSet.of(FrameType.DATA, FrameType.RETRANSMIT));
    }

    /** Waits until every offered message was delivered or reported lost, or delivery stalls. */
    private static void drain(DeliveryChecker checker, long offered) throws InterruptedException {
        final long deadlineNs = System.nanoTime() + MAX_DRAIN_SECONDS * 1_000_000_000L;
        long lastProgress = -1;
        long lastProgressNs = System.nanoTime();
        while (true) {
            final long accounted = checker.delivered() + checker.lost();
            final long nowNs = System.nanoTime();
            if (accounted >= offered || nowNs >= deadlineNs) {
                return;
            }
            if (accounted != lastProgress) {
                lastProgress = accounted;
                lastProgressNs = nowNs;
            } else if (nowNs - lastProgressNs >= STALL_SECONDS * 1_000_000_000L) {
                return;
            }
            Thread.sleep(POLL_MS);
        }
    }

    /** The mean delivered per second over the measured seconds that were recorded. */
    private static double mean(PerSecondCounts perSecond, RunSettings run) {
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

    private static Figures counters(SystemCounters counters) {
        return new Figures()
            .put("naksSent", counters.get(SystemCounter.NAKS_SENT).get())
            .put("naksSuppressed", counters.get(SystemCounter.NAKS_SUPPRESSED).get())
            .put("duplicates", counters.get(SystemCounter.DUPLICATES).get())
            .put("gaps", counters.get(SystemCounter.GAPS).get())
            .put("lossInjected", counters.get(SystemCounter.LOSS_INJECTED).get())
            .put("unrecoverableRanges", counters.get(SystemCounter.UNRECOVERABLE_RANGES).get())
            .put("reorderWindowOverflows", counters.get(SystemCounter.REORDER_WINDOW_OVERFLOWS).get())
            .put("datagramsReceived", counters.get(SystemCounter.DATAGRAMS_RECEIVED).get())
            .put("malformed", counters.get(SystemCounter.MALFORMED).get())
            .put("errors", counters.get(SystemCounter.ERRORS).get());
    }
}
