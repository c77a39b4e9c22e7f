package org.nakcast.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.nakcast.config.ByteSize;
import org.nakcast.config.FlowControlMode;
import org.nakcast.config.LossPolicy;
import org.nakcast.config.NodeConfig;
import org.nakcast.config.TopicConfig;
import org.nakcast.config.TransportConfig;
import org.nakcast.transport.node.NodeHarness;

/**
 * A publisher stopped again and again for longer than the line timeout, its topic on two lines that
 * each lose data at random and nothing else: a line that lost the datagram before a stop and the
 * first one after it missed two datagrams, and is not down; the stop, both lines silent, is no
 * line's fault. One simulated publisher and subscriber, no other fault.
 */
class LinesAcrossPublisherPausesTest {
    private static final long MS = 1_000_000;
    private static final long LINE_TIMEOUT_NS = 10 * MS;
    private static final int PAUSES = 40;
    private static final long RUNNING_BETWEEN_PAUSES_NS = 5 * MS;
    private static final long PAUSE_NS = 15 * MS;
    private static final double DATA_LOSS_PER_LINE = 0.3;
    /** A message every 5 ms, each its own datagram. */
    private static final double MESSAGES_PER_MS = 0.2;

    @Test
    void aPublisherStoppedForLongerThanTheLineTimeoutTakesNoLineDown() {
        final Simulation simulation = new Simulation(scenario(), null);

        final SimulationResult result = simulation.run();

        assertThat(result.violations()).as("%s", result.firstViolations()).isZero();
        assertThat(simulation.subscribers().get(0).linesDown).as("lines called down").isZero();
    }

    /**
     * One publisher sending a message every 5 ms (a datagram each; its quick heartbeats spent after
     * ten a heartbeat interval of a second), stopped for 15 ms every 20 ms forty times; one
     * subscriber; each line losing 30% of data on its own until the stops are over. A line that
     * loses the datagram before a stop and the one after it is behind for longer than the line
     * timeout with one datagram heard on the other line: with the stop counted in full, this run told
     * two false {@code LineDown}s.
     */
    private static Scenario scenario() {
        final TransportConfig lineA = new TransportConfig("sim", "lo", "239.255.77.9", 40100)
            .withDatagramSize(new ByteSize(512));
        final TransportConfig lineB = new TransportConfig("sim-b", "lo", "239.255.77.11", 40102)
            .withDatagramSize(new ByteSize(512));
        final TopicConfig topic = new TopicConfig("t1", 1, "sim", SimMessageCodec.NAME)
            .withHistory(new ByteSize(1 << 20))
            .withHeartbeat(Duration.ofSeconds(1))
            .withPublisherTimeout(Duration.ofSeconds(3))
            .withFlowControl(FlowControlMode.MAX)
            .withLossPolicy(LossPolicy.CONTINUE)
            .withOfferBuffer(new ByteSize(64 << 10))
            .withLines("sim", "sim-b")
            .withLineTimeout(Duration.ofNanos(LINE_TIMEOUT_NS));
        final NodeConfig config =
            new NodeConfig(NodeConfig.embeddedDefault().node(), List.of(lineA, lineB), List.of(topic)).conclude();
        final List<Scenario.Pause> pauses = new ArrayList<>();
        for (int pause = 0; pause < PAUSES; pause++) {
            final long fromNs = (1 + pause) * (RUNNING_BETWEEN_PAUSES_NS + PAUSE_NS);
            pauses.add(new Scenario.Pause(fromNs, fromNs + PAUSE_NS));
        }
        final long pausedUntilNs = pauses.get(PAUSES - 1).untilNs();
        final long messages = (long) (MESSAGES_PER_MS * pausedUntilNs / MS);
        final Scenario.PublisherPlan publisher = new Scenario.PublisherPlan(new HostShape(4096, 2_000, 50_000),
            "pub0", List.of(new PublisherHost.Topic("t1", 1, messages, MESSAGES_PER_MS, false)), pauses,
            Scenario.Stop.NEVER);
        final Scenario.SubscriberPlan subscriber = new Scenario.SubscriberPlan(new HostShape(4096, 2_000, 50_000),
            List.of(new SubscriberHost.SubscriptionPlan("t1", 1, SubscriptionProbe.Kind.CALLBACK, false,
                Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE)),
            0, List.of(), Scenario.Stop.NEVER);
        return new Scenario(1, EnumSet.of(FaultKind.PUBLISHER_PAUSE, FaultKind.LOSS, FaultKind.REDUNDANT_LINES),
            config, new NodeHarness(), List.of(publisher), List.of(subscriber), List.of(), lossy(pausedUntilNs), 0,
            new Scenario.SecondLine(lossy(pausedUntilNs), false), pausedUntilNs, 50 * MS, null);
    }

    private static NetworkFaults lossy(long healAtNs) {
        final NetworkFaults faults = new NetworkFaults();
        faults.dataLoss = DATA_LOSS_PER_LINE;
        faults.healAtNs = healAtNs;
        return faults;
    }
}
