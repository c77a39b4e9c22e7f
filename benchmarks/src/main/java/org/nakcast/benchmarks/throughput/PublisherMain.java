package org.nakcast.benchmarks.throughput;

import org.nakcast.benchmarks.child.ChildProtocol;
import org.nakcast.benchmarks.child.Figures;
import org.nakcast.transport.Node;
import org.nakcast.transport.node.NodeHarness;
import org.nakcast.transport.status.SystemCounter;
import org.nakcast.transport.status.SystemCounters;

/**
 * The nakcast publisher JVM of a throughput run (started by {@link ThroughputBench}): opens the
 * publication the run's payload needs, lets its first heartbeat announce the stream, offers
 * numbered messages ({@link CheckedPublisher}), keeps the node running to answer NAKs until told
 * STOP, then reports its figures with the node's counters and exits.
 */
public final class PublisherMain {
    /**
     * Time between opening the publication and the first offer: the stream's first heartbeat goes
     * out alone and tells the subscriber the stream starts at message 0, so a first DATA datagram
     * lost on purpose is repaired instead of moving the start.
     */
    private static final long START_DELAY_MS = 200;

    private PublisherMain() {
    }

    /**
     * @param args the run, as {@link RunSettings#toArgs()} writes it
     * @throws Exception if the node fails or the orchestrator goes away
     */
    public static void main(String[] args) throws Exception {
        final RunSettings run = RunSettings.fromArgs(args);
        try (Node node = run.launch(run.nodeConfig(), new NodeHarness().seed(run.seed() + 1))) {
            final SequencedPublisher publisher = run.payload().publish(node, RunSettings.TOPIC);
            Thread.sleep(START_DELAY_MS);
            final Figures figures = CheckedPublisher.offerUntilStop(run, publisher).putAll(counters(node.counters()));
            ChildProtocol.say(ChildProtocol.RESULT, figures.toLine());
        }
    }

    private static Figures counters(SystemCounters counters) {
        return new Figures()
            .put("backPressure", counters.get(SystemCounter.BACK_PRESSURE).get())
            .put("retransmitsSent", counters.get(SystemCounter.RETRANSMITS_SENT).get())
            .put("retransmitsHeldOff", counters.get(SystemCounter.RETRANSMITS_HELD_OFF).get())
            .put("repairsHeldBack", counters.get(SystemCounter.REPAIRS_HELD_BACK).get())
            .put("naksReceived", counters.get(SystemCounter.NAKS_RECEIVED).get())
            .put("unrecoverableSent", counters.get(SystemCounter.UNRECOVERABLE_SENT).get())
            .put("datagramsSent", counters.get(SystemCounter.DATAGRAMS_SENT).get())
            .put("bytesSent", counters.get(SystemCounter.BYTES_SENT).get())
            .put("sendFailures", counters.get(SystemCounter.SEND_FAILURES).get())
            .put("gsoTrainsSent", counters.get(SystemCounter.GSO_TRAINS_SENT).get())
            .put("errors", counters.get(SystemCounter.ERRORS).get());
    }
}
