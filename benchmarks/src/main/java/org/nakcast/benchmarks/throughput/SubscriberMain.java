package org.nakcast.benchmarks.throughput;

import java.util.EnumSet;

import org.nakcast.benchmarks.child.ChildProtocol;
import org.nakcast.benchmarks.child.Figures;
import org.nakcast.transport.Node;
import org.nakcast.transport.lossinjection.LossGenerator;
import org.nakcast.transport.lossinjection.RandomLossGenerator;
import org.nakcast.transport.node.NodeHarness;
import org.nakcast.transport.protocol.FrameType;
import org.nakcast.transport.status.SystemCounter;
import org.nakcast.transport.status.SystemCounters;

/**
 * The nakcast subscriber JVM of a throughput run (started by {@link ThroughputBench}): subscribes
 * with a {@link DeliveryChecker} as the run's payload says (decoding with its codec), losing the
 * run's injected share of DATA and RETRANSMIT datagrams on receipt (seeded), and goes through the
 * protocol of {@link CheckedSubscriber}; it reports the delivery figures with the node's counters
 * and exits.
 */
public final class SubscriberMain {
    private SubscriberMain() {
    }

    /**
     * @param args the run, as {@link RunSettings#toArgs()} writes it
     * @throws Exception if the node fails or the orchestrator goes away
     */
    public static void main(String[] args) throws Exception {
        final RunSettings run = RunSettings.fromArgs(args);
        final CheckedSubscriber subscriber = new CheckedSubscriber(run);
        try (Node node = run.launch(run.nodeConfig(),
            new NodeHarness().seed(run.seed()).receiveLoss(receiveLoss(run)))) {
            run.payload().subscribe(node, RunSettings.TOPIC, subscriber.checker());
            final Figures figures = subscriber.awaitDelivery();
            ChildProtocol.say(ChildProtocol.RESULT, figures.putAll(counters(node.counters())).toLine());
        }
    }

    private static LossGenerator receiveLoss(RunSettings run) {
        return run.injectedLoss() == 0
            ? LossGenerator.NONE
            : new RandomLossGenerator(run.seed(), run.injectedLoss(), EnumSet.of(FrameType.DATA, FrameType.RETRANSMIT));
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
            .put("groTrainsReceived", counters.get(SystemCounter.GRO_TRAINS_RECEIVED).get())
            .put("malformed", counters.get(SystemCounter.MALFORMED).get())
            .put("errors", counters.get(SystemCounter.ERRORS).get());
    }
}
