package org.nakcast.transport.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.agrona.DirectBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.nakcast.config.ByteSize;
import org.nakcast.config.ConfigException;
import org.nakcast.config.NodeConfig;
import org.nakcast.config.TopicConfig;
import org.nakcast.transport.Delivery;
import org.nakcast.transport.LossEvent;
import org.nakcast.transport.MessageHandler;
import org.nakcast.transport.MessageHeader;
import org.nakcast.transport.Node;
import org.nakcast.transport.StreamEventListener;
import org.nakcast.transport.StreamStarted;
import org.nakcast.transport.Subscription;
import org.nakcast.transport.status.SystemCounter;

/**
 * Subscriptions that are polled (the default): messages and events reach the thread that polls
 * the subscription, in order; a consumer that polls slowly through a small queue slows its stream down and loses
 * nothing; one that stops polling harms no other subscription and is told exactly what it missed.
 */
class QueuedDeliveryIT {
    private static final int COUNT = 100_000;
    private static final int STOP_COUNT = 300_000;
    /**
     * The delivery-queue timeout of a poller that is slow but never stops: longer than a loaded
     * machine keeps its thread off the CPU (the default 100 ms is not, with a simulation and a
     * build beside the test on two cores), so what the test sees is the queue slowing the stream.
     */
    private static final Duration PATIENT_QUEUE_TIMEOUT = Duration.ofSeconds(5);

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void messagesAndEventsArriveOnThePollingThreadInOrder() throws InterruptedException {
        final Consumer consumer = new Consumer();
        try (Node publisherNode = Node.launch(TestConfigs.paced("40m"));
            Node subscriberNode = Node.launch(queued("4m"))) {
            final Subscription subscription = subscriberNode.newByteSubscription("prices", consumer, consumer);
            assertThat(subscription.delivery()).isEqualTo(Delivery.ON_POLL);

            final Thread publisher = new Thread(() ->
                NumberedMessages.publish(publisherNode.newBytePublication("prices"), COUNT, 70));
            publisher.start();
            pollUntil(subscription, consumer, COUNT, 100, 0);
            publisher.join();
            assertThat(consumer.checker.count()).as(subscriberNode.counters().describeNonZero()).isEqualTo(COUNT);
        }
        assertThat(consumer.checker.errors()).isEmpty();
        assertThat(consumer.threads).containsOnly(Thread.currentThread().getName());
        assertThat(consumer.streamsStarted).isEqualTo(1);
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aSlowPollerThroughASmallQueueSlowsItsStreamAndLosesNothing() throws InterruptedException {
        final Consumer consumer = new Consumer();
        try (Node publisherNode = Node.launch(TestConfigs.paced("40m"));
            Node subscriberNode = Node.launch(queued("128k", "64k", PATIENT_QUEUE_TIMEOUT))) {
            final Subscription subscription = subscriberNode.newByteSubscription("prices", consumer, consumer);

            final Thread publisher = new Thread(() ->
                NumberedMessages.publish(publisherNode.newBytePublication("prices"), COUNT, 70));
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
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aPollerThatStopsHarmsNoOtherSubscriptionAndIsToldExactlyWhatItMissed() throws InterruptedException {
        final Consumer stopping = new Consumer();
        final Consumer steady = new Consumer();
        try (Node publisherNode = Node.launch(TestConfigs.paced("40m"));
            Node subscriberNode = Node.launch(queued("16m"))) {
            // The steady poller's queue holds more than the stream sends while a loaded machine may keep
            // the polling thread off the CPU; the stopped one's fills and stays full.
            final Subscription stopped = subscriberNode.newByteSubscription("prices", stopping, stopping);
            final Subscription polled = subscriberNode.newByteSubscription("prices", steady, steady);

            final Thread publisher = new Thread(() ->
                NumberedMessages.publish(publisherNode.newBytePublication("prices"), STOP_COUNT, 70));
            publisher.start();
            pollUntil(polled, steady, STOP_COUNT, 100, 0);
            publisher.join();
            final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (stopping.checker.count() + lost(stopping) < STOP_COUNT && System.nanoTime() < deadlineNs) {
                stopped.poll(1_000);
            }

            final String counters = subscriberNode.counters().describeNonZero();
            assertThat(steady.checker.count()).as(counters).isEqualTo(STOP_COUNT);
            assertThat(steady.losses).as(counters).isEmpty();
            assertThat(stopping.losses).as(counters).isNotEmpty()
                .allSatisfy(loss -> assertThat(loss.cause()).isEqualTo(LossEvent.Cause.SUBSCRIPTION_OVERRUN));
            assertThat(stopping.checker.errors()).isEmpty();
            assertThat(accountedFor(stopping)).as("messages and loss events, in order, account for every message")
                .isEqualTo(STOP_COUNT);
            assertThat(subscriberNode.counters().get(SystemCounter.SUBSCRIPTION_OVERRUN_MESSAGES).get())
                .isEqualTo(lost(stopping));
        }
    }

    @Test
    void aQueueTooSmallForTheLargestMessageIsRefusedWhenTheNodeLaunchesNamingTheKey() {
        final NodeConfig base = NodeConfig.embeddedDefault();
        final NodeConfig tooSmall = new NodeConfig(base.node(), base.transports(), base.topics().stream()
            .map(topic -> topic.withDeliveryQueue(ByteSize.parse("128k"), TopicConfig.DEFAULT_DELIVERY_QUEUE_TIMEOUT))
            .toList());

        assertThatThrownBy(() -> Node.launch(tooSmall).close())
            .isInstanceOf(ConfigException.class)
            .hasMessageContaining("delivery-queue 128k carries messages of at most")
            .hasMessageContaining("raise delivery-queue to at least 2m");
    }

    /**
     * Walks what the consumer got in order: each message the next number, each loss event naming the
     * next numbers; returns how far that accounts for.
     */
    private static long accountedFor(Consumer consumer) {
        long next = 0;
        for (Object entry : consumer.log) {
            if (entry instanceof LossEvent loss) {
                assertThat(loss.firstMessage()).as("the loss event's first message").isEqualTo(next);
                next += loss.lostMessages();
            } else {
                assertThat((Long) entry).as("the message after %d", next - 1).isEqualTo(next);
                next++;
            }
        }
        return next;
    }

    private static long lost(Consumer consumer) {
        return consumer.losses.stream().mapToLong(LossEvent::lostMessages).sum();
    }

    @Test
    void aSubscriptionOnTheReceivingThreadHasNothingToPollAndItsHandlerRunsThere() throws InterruptedException {
        final Consumer consumer = new Consumer();
        try (Node publisherNode = Node.launch(TestConfigs.paced("40m"));
            Node subscriberNode = Node.launch(NodeConfig.embeddedDefault())) {
            final Subscription subscription =
                subscriberNode.newByteSubscription("prices", consumer, consumer, Delivery.ON_RECEIVING_THREAD);

            NumberedMessages.publish(publisherNode.newBytePublication("prices"), 1_000, 70);
            consumer.checker.awaitCount(1_000, System.currentTimeMillis() + 10_000);

            assertThat(subscription.delivery()).isEqualTo(Delivery.ON_RECEIVING_THREAD);
            assertThat(subscription.poll(10)).isZero();
            assertThat(consumer.threads).singleElement().asString().contains("nakcast-receiver");
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
        return queued(queueSize, TopicConfig.DEFAULT_MAX_MESSAGE.toString(),
            TopicConfig.DEFAULT_DELIVERY_QUEUE_TIMEOUT);
    }

    /**
     * The embedded default with that delivery queue, its timeout and largest received message on
     * every topic.
     */
    private static NodeConfig queued(String queueSize, String maxMessage, Duration queueTimeout) {
        final NodeConfig base = NodeConfig.embeddedDefault();
        final List<TopicConfig> topics = base.topics().stream()
            .map(topic -> topic.withDeliveryQueue(ByteSize.parse(queueSize), queueTimeout)
                .withMaxMessage(ByteSize.parse(maxMessage)))
            .toList();
        return new NodeConfig(base.node(), base.transports(), topics).conclude();
    }

    /** Checks messages and records which threads delivered them and the events. */
    private static final class Consumer implements MessageHandler<DirectBuffer>, StreamEventListener {
        private final SequenceChecker checker = new SequenceChecker();
        private final List<String> threads = new CopyOnWriteArrayList<>();
        private final List<LossEvent> losses = new CopyOnWriteArrayList<>();
        private final Queue<Object> log = new ConcurrentLinkedQueue<>();
        private int streamsStarted;

        @Override
        public void onMessage(DirectBuffer message, MessageHeader header) {
            if (threads.isEmpty() || !threads.get(threads.size() - 1).equals(Thread.currentThread().getName())) {
                threads.add(Thread.currentThread().getName());
            }
            checker.onMessage(message, header);
            log.add(message.getLong(0));
        }

        @Override
        public void onStreamStarted(StreamStarted event) {
            streamsStarted++;
        }

        @Override
        public void onLoss(LossEvent event) {
            losses.add(event);
            log.add(event);
        }
    }
}
