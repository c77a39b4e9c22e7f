package org.nakcast.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.EnumSet;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.nakcast.config.ByteSize;
import org.nakcast.config.FlowControlMode;
import org.nakcast.config.LossPolicy;
import org.nakcast.config.NodeConfig;
import org.nakcast.config.TopicConfig;
import org.nakcast.config.TransportConfig;
import org.nakcast.transport.LossEvent;
import org.nakcast.transport.node.NodeHarness;

/**
 * A subscriber stopped for longer than its publisher's history lasts: its
 * socket buffer overflows, and when it goes on, what the history no longer holds is one exact loss
 * event, ending where the publisher's UNRECOVERABLE says the history begins, and the tail the
 * history still holds is repaired and delivered, nothing of it given up. One simulated publisher
 * and subscriber, no other fault.
 */
class StoppedPastHistoryTest {
    private static final long MS = 1_000_000;
    private static final int DATAGRAM_SIZE = 512;
    private static final int HISTORY_DATAGRAMS = 32;

    @Test
    void aSubscriberStoppedPastHistoryIsGivenUpExactlyWhatItNoLongerHoldsAndGetsTheTailItStillHolds() {
        final Simulation simulation = new Simulation(scenario(), null);

        final SimulationResult result = simulation.run();

        assertThat(result.violations()).as("%s", result.firstViolations()).isZero();
        final PublishedSession session = simulation.sessions().values().iterator().next();
        assertThat(session.unrecoverableAnswers).as("the publisher said once what its history no longer held")
            .hasSize(1);
        final long[] answer = session.unrecoverableAnswers.get(0);
        final long oldestHeld = answer[1] + 1;
        final long highestSent = answer[2];
        assertThat(highestSent - oldestHeld + 1).as("the tail its history held when it answered")
            .isGreaterThan(HISTORY_DATAGRAMS / 2);
        final SubscriptionProbe.Track track =
            simulation.subscribers().get(0).probes().get(0).tracks().get(session.sessionId);
        assertThat(track.losses).singleElement().satisfies(loss -> {
            assertThat(loss.cause()).isEqualTo(LossEvent.Cause.UNRECOVERABLE);
            assertThat(loss.toSequence()).as("given up up to the oldest datagram held, not beyond")
                .isEqualTo(oldestHeld - 1);
            assertThat(loss.fromSequence()).isLessThanOrEqualTo(loss.toSequence());
            assertThat(loss.lostMessages()).isPositive();
            assertThat(track.delivered + loss.lostMessages()).as("every other message delivered, the tail too")
                .isEqualTo(session.published);
        });
        assertThat(result.retransmits()).as("the tail was repaired").isGreaterThan(HISTORY_DATAGRAMS / 2);
    }

    /**
     * One publisher sending 20 messages a millisecond on a topic whose history holds 32 datagrams
     * (flow control {@code max}: it waits for nobody), one subscriber whose socket buffer holds 8
     * datagrams, stopped from 30 to 60 ms.
     */
    private static Scenario scenario() {
        final TransportConfig transport = new TransportConfig("sim", "lo", "239.255.77.9", 40100)
            .withDatagramSize(new ByteSize(DATAGRAM_SIZE));
        final TopicConfig topic = new TopicConfig("t1", 1, "sim", SimMessageCodec.NAME)
            .withHistory(new ByteSize((long) HISTORY_DATAGRAMS * DATAGRAM_SIZE))
            .withHeartbeat(Duration.ofMillis(5))
            .withPublisherTimeout(Duration.ofMillis(20))
            .withFlowControl(FlowControlMode.MAX)
            .withLossPolicy(LossPolicy.CONTINUE)
            .withOfferBuffer(new ByteSize(64 << 10));
        final NodeConfig config =
            new NodeConfig(NodeConfig.embeddedDefault().node(), List.of(transport), List.of(topic)).conclude();
        final Scenario.PublisherPlan publisher = new Scenario.PublisherPlan(new HostShape(256, 2_000, 50_000),
            "pub0", List.of(new PublisherHost.Topic("t1", 1, 2_000, 20, false)), List.of(), Scenario.Stop.NEVER);
        final Scenario.SubscriberPlan subscriber = new Scenario.SubscriberPlan(new HostShape(8, 2_000, 50_000),
            List.of(new SubscriberHost.SubscriptionPlan("t1", 1, SubscriptionProbe.Kind.CALLBACK, false,
                Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE)),
            0, List.of(new Scenario.Pause(30 * MS, 60 * MS)), Scenario.Stop.NEVER);
        final NetworkFaults faults = new NetworkFaults();
        faults.healAtNs = 60 * MS;
        return new Scenario(1, EnumSet.of(FaultKind.SUBSCRIBER_PAUSE), config, new NodeHarness(), List.of(publisher),
            List.of(subscriber), List.of(), faults, 0, null, 60 * MS, 50 * MS, null);
    }
}
