package org.nakcast.transport.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.nakcast.config.ByteSize;
import org.nakcast.config.FlowControlMode;
import org.nakcast.config.NodeConfig;
import org.nakcast.config.TopicConfig;
import org.nakcast.transport.Delivery;
import org.nakcast.transport.LossEvent;
import org.nakcast.transport.MessageHandler;
import org.nakcast.transport.MessageHeader;
import org.nakcast.transport.Node;
import org.nakcast.transport.NodeContext;
import org.nakcast.transport.OfferResult;
import org.nakcast.transport.PublisherEventListener;
import org.nakcast.transport.BytePublication;
import org.nakcast.transport.ReceiverDropped;
import org.nakcast.transport.ReceiverOutrun;
import org.nakcast.transport.StreamEventListener;
import org.nakcast.transport.node.NodeHarness;
import org.nakcast.transport.status.SystemCounter;

/**
 * A deliberately slow subscriber beside a fast one, a publisher twice as fast as the slow one and a
 * short history: with
 * flow control {@code min} the publisher is held to the slow one and nobody loses anything; with
 * {@code max} the fast one gets everything and the slow one is told, with numbers, what it lost;
 * with {@code min} and a subscriber that stops, the publisher drops it after the timeout, says so
 * with numbers, and the fast one goes on. The two subscriber nodes are given the same seed: they
 * must still be two receivers to the publisher.
 */
class FlowControlIT {
    private static final int COUNT = 20_000;
    private static final int MESSAGE_LENGTH = 1_000;
    /** 10,000 messages a second: half the publisher's pace (20 MB/s). */
    private static final long SLOW_NS_PER_MESSAGE = 100_000;
    /** Both subscriber nodes get it: receivers with equal seeds are still two receivers. */
    private static final long SUBSCRIBER_SEED = 7;

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void minHoldsThePublisherToTheSlowestAndNothingIsLost() throws InterruptedException {
        final Outcome outcome = run(FlowControlMode.MIN, SLOW_NS_PER_MESSAGE, 0);

        outcome.fast.assertAll(COUNT);
        outcome.slow.assertAll(COUNT);
        assertThat(outcome.publisherCounter(SystemCounter.FLOW_CONTROL_HOLDS)).as(outcome.counters).isPositive();
        assertThat(outcome.dropped).isEmpty();
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void maxLetsThePublisherRunAndTheSlowSubscriberIsToldWhatItLost() throws InterruptedException {
        final Outcome outcome = run(FlowControlMode.MAX, SLOW_NS_PER_MESSAGE, 0);

        outcome.fast.assertAll(COUNT);
        assertThat(outcome.slow.losses).as(outcome.counters).isNotEmpty();
        assertThat(outcome.slow.checker.count() + outcome.slow.lostMessages())
            .as("every message delivered or counted lost, none silently").isEqualTo(COUNT);
        assertThat(outcome.publisherCounter(SystemCounter.FLOW_CONTROL_HOLDS)).isZero();
        assertThat(outcome.outrun).as("the publisher's side of it").isNotEmpty()
            .allSatisfy(event -> assertThat(event.toSequence()).isGreaterThanOrEqualTo(event.fromSequence()));
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void minDropsASubscriberThatStopsAndTheOthersGoOn() throws InterruptedException {
        final Outcome outcome = run(FlowControlMode.MIN, 0, 1_500);

        outcome.fast.assertAll(COUNT);
        assertThat(outcome.dropped).as(outcome.counters).singleElement().satisfies(event -> {
            assertThat(event.forNs()).isGreaterThan(Duration.ofMillis(300).toNanos());
            assertThat(event.datagramsBehind()).isPositive();
            assertThat(event.describe()).contains("dropped from flow control", "datagrams behind", "history holds");
        });
        assertThat(outcome.publisherCounter(SystemCounter.RECEIVERS_DROPPED)).isOne();
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void aMinTopicWithNoReceiverSaysNotConnectedUntilOneReports() throws InterruptedException {
        final NodeConfig config = config(FlowControlMode.MIN);
        final UnsafeBuffer message = new UnsafeBuffer(new byte[70]);
        try (Node publisherNode = Node.launch(config)) {
            final BytePublication publication = publisherNode.newBytePublication("prices");
            Thread.sleep(50);
            assertThat(publication.offer(message, 0, 70)).isEqualTo(OfferResult.NOT_CONNECTED);

            try (Node subscriberNode = Node.launch(config)) {
                subscriberNode.newByteSubscription("prices", (bytes, header) -> { },
                    StreamEventListener.NONE, Delivery.ON_RECEIVING_THREAD);
                final long deadlineMs = System.currentTimeMillis() + 10_000;
                long result = OfferResult.NOT_CONNECTED;
                while (result == OfferResult.NOT_CONNECTED && System.currentTimeMillis() < deadlineMs) {
                    Thread.sleep(5);
                    result = publication.offer(message, 0, 70);
                }
                assertThat(result).as("connected by the receiver's first STATUS").isPositive();
            }
        }
    }

    private static Outcome run(FlowControlMode mode, long slowNsPerMessage, long stallMs) throws InterruptedException {
        final NodeConfig config = config(mode);
        final Subscriber fast = new Subscriber(0, 0);
        final Subscriber slow = new Subscriber(slowNsPerMessage, stallMs);
        final List<ReceiverDropped> dropped = new CopyOnWriteArrayList<>();
        final List<ReceiverOutrun> outrun = new CopyOnWriteArrayList<>();
        try (Node publisherNode = Node.launch(new NodeContext().config(config).publisherEvents(
                new PublisherEventListener() {
                    @Override
                    public void onReceiverDropped(ReceiverDropped event) {
                        dropped.add(event);
                    }

                    @Override
                    public void onReceiverOutrun(ReceiverOutrun event) {
                        outrun.add(event);
                    }
                }));
            Node fastNode = Node.launch(new NodeContext().config(config), new NodeHarness().seed(SUBSCRIBER_SEED));
            Node slowNode = Node.launch(new NodeContext().config(config), new NodeHarness().seed(SUBSCRIBER_SEED))) {
            fastNode.newByteSubscription("prices", fast, fast, Delivery.ON_RECEIVING_THREAD);
            slowNode.newByteSubscription("prices", slow, slow, Delivery.ON_RECEIVING_THREAD);
            Thread.sleep(100);

            NumberedMessages.publish(publisherNode.newBytePublication("prices"), COUNT, MESSAGE_LENGTH);
            fast.checker.awaitCount(COUNT, System.currentTimeMillis() + 30_000);
            slow.awaitSettled(COUNT, System.currentTimeMillis() + 30_000);

            final String counters = "publisher: " + publisherNode.counters().describeNonZero()
                + "\nfast: " + fastNode.counters().describeNonZero()
                + "\nslow: " + slowNode.counters().describeNonZero();
            return new Outcome(fast, slow, dropped, outrun, counters, publisherNode);
        }
    }

    private static NodeConfig config(FlowControlMode mode) {
        final NodeConfig base = TestConfigs.paced("20m");
        final List<TopicConfig> topics = base.topics().stream()
            .map(topic -> topic.withFlowControl(mode).withHistory(ByteSize.parse("256k"))
                .withHeartbeat(Duration.ofMillis(20)).withFlowControlTimeout(Duration.ofMillis(300)))
            .toList();
        return new NodeConfig(base.node(), base.transports(), topics).conclude();
    }

    /** A subscriber that takes its time over each message, or stalls once. */
    private static final class Subscriber implements MessageHandler<DirectBuffer>, StreamEventListener {
        private final SequenceChecker checker = new SequenceChecker();
        private final List<LossEvent> losses = new CopyOnWriteArrayList<>();
        private final long nsPerMessage;
        private long stallMs;

        Subscriber(long nsPerMessage, long stallMs) {
            this.nsPerMessage = nsPerMessage;
            this.stallMs = stallMs;
        }

        @Override
        public void onMessage(DirectBuffer message, MessageHeader header) {
            if (stallMs > 0 && message.getLong(0) == 1_000) {
                sleep(stallMs);
                stallMs = 0;
            }
            final long until = System.nanoTime() + nsPerMessage;
            while (System.nanoTime() < until) {
                Thread.onSpinWait();
            }
            checker.onMessage(message, header);
        }

        @Override
        public void onLoss(LossEvent event) {
            losses.add(event);
        }

        long lostMessages() {
            return losses.stream().mapToLong(LossEvent::lostMessages).sum();
        }

        void awaitSettled(long count, long deadlineMs) throws InterruptedException {
            while (checker.count() + lostMessages() < count && System.currentTimeMillis() < deadlineMs) {
                Thread.sleep(5);
            }
        }

        void assertAll(long count) {
            assertThat(losses).isEmpty();
            assertThat(checker.errors()).isEmpty();
            assertThat(checker.skippedRanges()).isEmpty();
            assertThat(checker.count()).isEqualTo(count);
        }

        private static void sleep(long millis) {
            try {
                Thread.sleep(millis);
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** What a run left behind. */
    private record Outcome(Subscriber fast, Subscriber slow, List<ReceiverDropped> dropped,
        List<ReceiverOutrun> outrun, String counters, Node publisherNode) {

        long publisherCounter(SystemCounter counter) {
            return publisherNode.counters().get(counter).get();
        }
    }
}
