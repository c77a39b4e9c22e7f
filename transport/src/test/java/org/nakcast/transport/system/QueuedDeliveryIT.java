package org.nakcast.transport.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.agrona.DirectBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.nakcast.config.ByteSize;
import org.nakcast.config.DeliveryMode;
import org.nakcast.config.NodeConfig;
import org.nakcast.config.TopicConfig;
import org.nakcast.transport.LossEvent;
import org.nakcast.transport.MessageHandler;
import org.nakcast.transport.MessageHeader;
import org.nakcast.transport.Node;
import org.nakcast.transport.StreamEventListener;
import org.nakcast.transport.Subscription;
import org.nakcast.transport.status.SystemCounter;

/**
 * Topic {@code delivery: queue}: messages and events reach the thread that polls the subscription,
 * in order; a consumer that polls slowly through a small queue slows its stream down and loses
 * nothing.
 */
class QueuedDeliveryIT {
    private static final int COUNT = 100_000;

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void messagesAndEventsArriveOnThePollingThreadInOrder() throws InterruptedException {
        final Consumer consumer = new Consumer();
        try (Node publisherNode = Node.launch(TestConfigs.paced("40m"));
            Node subscriberNode = Node.launch(queued("4m"))) {
            final Subscription subscription = subscriberNode.subscribe("prices", consumer, consumer);
            assertThat(subscription.isQueued()).isTrue();

            final Thread publisher = new Thread(() ->
                NumberedMessages.publish(publisherNode.publication("prices"), COUNT, 70));
            publisher.start();
            pollUntil(subscription, consumer, COUNT, 100, 0);
            publisher.join();
        }
        assertThat(consumer.checker.errors()).isEmpty();
        assertThat(consumer.checker.count()).isEqualTo(COUNT);
        assertThat(consumer.threads).containsOnly(Thread.currentThread().getName());
        assertThat(consumer.streamsStarted).isEqualTo(1);
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aSlowPollerThroughASmallQueueSlowsItsStreamAndLosesNothing() throws InterruptedException {
        final Consumer consumer = new Consumer();
        try (Node publisherNode = Node.launch(TestConfigs.paced("40m"));
            Node subscriberNode = Node.launch(queued("128k"))) {
            final Subscription subscription = subscriberNode.subscribe("prices", consumer, consumer);

            final Thread publisher = new Thread(() ->
                NumberedMessages.publish(publisherNode.publication("prices"), COUNT, 70));
            publisher.start();
            pollUntil(subscription, consumer, COUNT, 10, 50_000);
            publisher.join();

            final String counters = subscriberNode.counters().describeNonZero();
            assertThat(consumer.losses).as(counters).isEmpty();
            assertThat(consumer.checker.errors()).as(counters).isEmpty();
            assertThat(consumer.checker.count()).as(counters).isEqualTo(COUNT);
            assertThat(subscriberNode.counters().get(SystemCounter.LOST_MESSAGES).get()).isZero();
            assertThat(subscriberNode.counters().get(SystemCounter.DELIVERY_QUEUE_FULL).get())
                .as("the stream waited for the queue").isPositive();
        }
    }

    @Test
    void pollingASubscriptionThatDeliversOnTheReceivingThreadIsAnError() {
        try (Node node = Node.launch(NodeConfig.embeddedDefault())) {
            final Subscription subscription = node.subscribe("prices", (buffer, offset, length, header) -> { },
                new StreamEventListener() { });

            assertThatIllegalStateException().isThrownBy(() -> subscription.poll(10))
                .withMessageContaining("topic 'prices' delivers on the receiving thread");
        }
    }

    /** Polls {@code limit} at a time until {@code count} messages arrived, pausing {@code pauseNs} after each. */
    private static void pollUntil(Subscription subscription, Consumer consumer, int count, int limit, long pauseNs) {
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (consumer.checker.count() < count && System.nanoTime() < deadlineNs) {
            subscription.poll(limit);
            if (pauseNs > 0) {
                final long until = System.nanoTime() + pauseNs;
                while (System.nanoTime() < until) {
                    Thread.onSpinWait();
                }
            }
        }
    }

    private static NodeConfig queued(String queueSize) {
        final NodeConfig base = NodeConfig.embeddedDefault();
        final List<TopicConfig> topics = base.topics().stream()
            .map(topic -> topic.withDelivery(DeliveryMode.QUEUE, ByteSize.parse(queueSize)))
            .toList();
        return new NodeConfig(base.node(), base.transports(), topics).conclude();
    }

    /** Checks messages and records which threads delivered them and the events. */
    private static final class Consumer implements MessageHandler, StreamEventListener {
        private final SequenceChecker checker = new SequenceChecker();
        private final List<String> threads = new CopyOnWriteArrayList<>();
        private final List<LossEvent> losses = new CopyOnWriteArrayList<>();
        private int streamsStarted;

        @Override
        public void onMessage(DirectBuffer buffer, int offset, int length, MessageHeader header) {
            if (threads.isEmpty() || !threads.get(threads.size() - 1).equals(Thread.currentThread().getName())) {
                threads.add(Thread.currentThread().getName());
            }
            checker.onMessage(buffer, offset, length, header);
        }

        @Override
        public void onStreamStarted(int topicId, int sessionId, long firstSequence) {
            streamsStarted++;
        }

        @Override
        public void onLoss(LossEvent event) {
            losses.add(event);
        }
    }
}
