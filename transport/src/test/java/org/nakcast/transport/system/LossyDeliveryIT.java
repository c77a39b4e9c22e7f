package org.nakcast.transport.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.nakcast.config.NodeConfig;
import org.nakcast.transport.Delivery;
import org.nakcast.transport.LossEvent;
import org.nakcast.transport.Node;
import org.nakcast.transport.NodeContext;
import org.nakcast.transport.StreamEventListener;
import org.nakcast.transport.node.NodeHarness;
import org.nakcast.transport.lossinjection.LossGenerator;
import org.nakcast.transport.lossinjection.RandomLossGenerator;
import org.nakcast.transport.lossinjection.SequenceRangeLossGenerator;
import org.nakcast.transport.protocol.FrameType;
import org.nakcast.transport.status.SystemCounter;

/**
 * One publisher and two subscribers, each subscriber losing its own seeded-random share of what
 * the network brings it, or its own burst of 1,000 consecutive datagrams (overlapping the other's):
 * every message must still arrive, exactly once, in order, with no loss event, repaired by NAKs
 * and retransmits.
 */
class LossyDeliveryIT {
    private static final int MESSAGE_LENGTH = 70;

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void onePercentDataLoss() throws InterruptedException {
        final Outcome outcome = run(1_000_000, seed -> dataLoss(seed, 0.01), seed -> LossGenerator.NONE);

        outcome.assertEverythingDelivered(1_000_000);
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void fivePercentDataLoss() throws InterruptedException {
        final Outcome outcome = run(1_000_000, seed -> dataLoss(seed, 0.05), seed -> LossGenerator.NONE);

        outcome.assertEverythingDelivered(1_000_000);
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void twentyPercentDataLoss() throws InterruptedException {
        final Outcome outcome = run(300_000, seed -> dataLoss(seed, 0.20), seed -> LossGenerator.NONE);

        outcome.assertEverythingDelivered(300_000);
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void twentyPercentLossOfNaksAndHeartbeatsOnTopOfDataLoss() throws InterruptedException {
        final Outcome outcome = run(300_000,
            seed -> new RandomLossGenerator(seed, 0.20,
                EnumSet.of(FrameType.DATA, FrameType.RETRANSMIT, FrameType.HEARTBEAT)),
            seed -> new RandomLossGenerator(seed, 0.20, EnumSet.of(FrameType.NAK)));

        outcome.assertEverythingDelivered(300_000);
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void burstOfAThousandConsecutiveDatagrams() throws InterruptedException {
        final Outcome outcome = run(300_000,
            seed -> new SequenceRangeLossGenerator(seed * 100, seed * 100 + 999, EnumSet.of(FrameType.DATA)),
            seed -> LossGenerator.NONE);

        outcome.assertEverythingDelivered(300_000);
    }

    private static LossGenerator dataLoss(long seed, double rate) {
        return new RandomLossGenerator(seed, rate, EnumSet.of(FrameType.DATA, FrameType.RETRANSMIT));
    }

    /** Makes a loss generator from a seed, so each subscriber loses differently. */
    @FunctionalInterface
    interface LossFactory {
        LossGenerator create(long seed);
    }

    private static Outcome run(int count, LossFactory receiveLoss, LossFactory sendLoss)
        throws InterruptedException {
        final NodeConfig config = TestConfigs.paced("40m");
        final List<SequenceChecker> checkers = List.of(new SequenceChecker(), new SequenceChecker());
        final List<LossEvent> lossEvents = new CopyOnWriteArrayList<>();
        final List<Node> subscribers = new ArrayList<>();
        try (Node publisherNode = Node.launch(config)) {
            for (int i = 0; i < checkers.size(); i++) {
                final Node node = Node.launch(new NodeContext().config(config),
                    new NodeHarness().seed(1_000 + i)
                    .receiveLoss(receiveLoss.create(42 + i)).sendLoss(sendLoss.create(4_242 + i)));
                subscribers.add(node);
                node.newByteSubscription("prices", checkers.get(i), new StreamEventListener() {
                    @Override
                    public void onLoss(LossEvent event) {
                        lossEvents.add(event);
                    }
                }, Delivery.ON_RECEIVING_THREAD);
            }
            NumberedMessages.publish(publisherNode.newBytePublication("prices"), count, MESSAGE_LENGTH);
            final long deadlineMs = System.currentTimeMillis() + 30_000;
            for (SequenceChecker checker : checkers) {
                checker.awaitCount(count, deadlineMs);
            }
            final StringBuilder counters = new StringBuilder("publisher: ")
                .append(publisherNode.counters().describeNonZero());
            subscribers.forEach(node -> counters.append("\nsubscriber: ").append(node.counters().describeNonZero()));
            return new Outcome(checkers, lossEvents, counters.toString(),
                publisherNode.counters().get(SystemCounter.RETRANSMITS_SENT).get(),
                subscribers.stream().mapToLong(node -> node.counters().get(SystemCounter.NAKS_SENT).get()).sum(),
                subscribers.stream().mapToLong(node -> node.counters().get(SystemCounter.LOSS_INJECTED).get()).sum());
        } finally {
            subscribers.forEach(Node::close);
        }
    }

    private record Outcome(List<SequenceChecker> checkers, List<LossEvent> lossEvents, String counters,
        long retransmits,
        long naksSent, long injectedLosses) {

        void assertEverythingDelivered(int count) {
            for (SequenceChecker checker : checkers) {
                assertThat(checker.errors()).as(counters).isEmpty();
                assertThat(checker.skippedRanges()).as(counters).isEmpty();
                assertThat(checker.count()).as(counters).isEqualTo(count);
            }
            assertThat(lossEvents).as(counters).isEmpty();
            assertThat(injectedLosses).as("losses injected").isPositive();
            assertThat(naksSent).as("NAKs sent").isPositive();
            assertThat(retransmits).as("retransmits").isPositive();
        }
    }
}
