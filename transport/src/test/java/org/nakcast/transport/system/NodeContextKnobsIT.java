package org.nakcast.transport.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.nakcast.config.ByteSize;
import org.nakcast.config.FlowControlMode;
import org.nakcast.config.NodeConfig;
import org.nakcast.config.ThreadingMode;
import org.nakcast.config.TopicConfig;
import org.nakcast.transport.BytePublication;
import org.nakcast.transport.Delivery;
import org.nakcast.transport.LossEvent;
import org.nakcast.transport.Node;
import org.nakcast.transport.NodeContext;
import org.nakcast.transport.PublisherGone;
import org.nakcast.transport.StreamEventListener;
import org.nakcast.transport.StreamStarted;
import org.nakcast.transport.lossinjection.SequenceRangeLossGenerator;
import org.nakcast.transport.media.DatagramReceiver;
import org.nakcast.transport.media.DatagramSender;
import org.nakcast.transport.media.Media;
import org.nakcast.transport.media.MulticastAddress;
import org.nakcast.transport.media.NioMedia;
import org.nakcast.transport.node.NodeHarness;
import org.nakcast.transport.protocol.FrameType;
import org.nakcast.transport.status.SystemCounter;
import org.nakcast.transport.status.SystemCounters;

/**
 * The knobs a node takes in code beside its configuration, on real sockets: a node-wide listener
 * of the receiving side's decisions, where ids come from, a media given in code, counters kept in
 * memory, and a closed publication that says when it has finished.
 */
class NodeContextKnobsIT {
    private static final int DATAGRAM_LENGTH = 1408;
    /** Fills one datagram: its 32-byte header, a 4-byte frame header and this. */
    private static final int MESSAGE_LENGTH = DATAGRAM_LENGTH - 32 - 4;
    private static final int COUNT = 200;

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aNodeWideListenerHearsEveryStreamDecisionOnceWhateverTheSubscriptions() throws InterruptedException {
        final NodeConfig config = smallHistory();
        final List<Object> decided = new CopyOnWriteArrayList<>();
        final List<LossEvent> subscriptionLosses = new CopyOnWriteArrayList<>();
        final SequenceChecker first = new SequenceChecker();
        final SequenceChecker second = new SequenceChecker();
        try (Node publisherNode = Node.launch(config);
            Node subscriberNode = Node.launch(new NodeContext().config(config)
                .receiverEvents(recording(decided)),
                new NodeHarness()
                .receiveLoss(new SequenceRangeLossGenerator(10, 59, EnumSet.of(FrameType.DATA))))) {
            subscriberNode.newByteSubscription("prices", first, new StreamEventListener() {
                @Override
                public void onLoss(LossEvent event) {
                    subscriptionLosses.add(event);
                }
            }, Delivery.ON_RECEIVING_THREAD);
            subscriberNode.newByteSubscription("prices", second, StreamEventListener.NONE,
                Delivery.ON_RECEIVING_THREAD);
            final BytePublication prices = publisherNode.newBytePublication("prices");

            NumberedMessages.publish(prices, COUNT, MESSAGE_LENGTH);
            prices.close();
            awaitEnded(decided);

            // The lost run is given up in one loss event, or in two when the history moved on
            // between the publisher's answers: either way each is decided once, not per subscription.
            assertThat(subscriptionLosses).isNotEmpty();
            assertThat(decided).as("started, each loss, ended: once each for two subscriptions")
                .hasSize(subscriptionLosses.size() + 2);
            assertThat(((StreamStarted) decided.get(0)).sessionId()).isEqualTo(prices.sessionId());
            assertThat(decided.subList(1, decided.size() - 1)).containsExactlyElementsOf(subscriptionLosses);
            assertThat(((PublisherGone) decided.get(decided.size() - 1)).cause()).isEqualTo(PublisherGone.Cause.ENDED);
            assertThat(first.count())
                .isEqualTo(COUNT - subscriptionLosses.stream().mapToLong(LossEvent::lostMessages).sum());
            assertThat(second.count()).isEqualTo(first.count());
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aNodeWideListenerThatThrowsIsAnErrorOfTheNodeAndTheStreamGoesOn() throws InterruptedException {
        final NodeConfig config = NodeConfig.embeddedDefault();
        final SequenceChecker checker = new SequenceChecker();
        try (Node publisherNode = Node.launch(config);
            Node subscriberNode = Node.launch(new NodeContext().config(config)
                .receiverEvents(new StreamEventListener() {
                    @Override
                    public void onStreamStarted(StreamStarted event) {
                        throw new IllegalStateException("a monitoring listener that fails");
                    }
                }))) {
            subscriberNode.newByteSubscription("prices", checker, StreamEventListener.NONE,
                Delivery.ON_RECEIVING_THREAD);

            NumberedMessages.publish(publisherNode.newBytePublication("prices"), COUNT, 70);
            checker.awaitCount(COUNT, System.currentTimeMillis() + 20_000);

            assertThat(checker.count()).isEqualTo(COUNT);
            assertThat(checker.errors()).isEmpty();
            assertThat(subscriberNode.counters().get(SystemCounter.ERRORS).get()).isEqualTo(1);
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void idsFromOneSeedRepeatAndAMediaGivenInCodeAndCountersInMemoryCarryTheStream() throws InterruptedException {
        final NodeConfig config = NodeConfig.embeddedDefault();
        final AtomicInteger socketsOpened = new AtomicInteger();
        final NioMedia nio = new NioMedia();
        final Media media = new Media() {
            @Override
            public String name() {
                return "nio, counted";
            }

            @Override
            public String unavailableBecause() {
                return null;
            }

            @Override
            public DatagramReceiver openReceiver(MulticastAddress address, int port, SystemCounters counters) {
                socketsOpened.incrementAndGet();
                return nio.openReceiver(address, port, counters);
            }

            @Override
            public DatagramSender openSender(MulticastAddress address, int port, SystemCounters counters) {
                socketsOpened.incrementAndGet();
                return nio.openSender(address, port, counters);
            }
        };
        final SequenceChecker checker = new SequenceChecker();
        try (Node publisherNode = Node.launch(new NodeContext().config(config),
            new NodeHarness().ids(new SplittableRandom(7)));
            Node again = Node.launch(new NodeContext().config(config), new NodeHarness().ids(new SplittableRandom(7)));
            Node subscriberNode = Node.launch(new NodeContext().config(config).countersInFile(false),
                new NodeHarness().media(media))) {
            subscriberNode.newByteSubscription("prices", checker, StreamEventListener.NONE,
                Delivery.ON_RECEIVING_THREAD);
            final BytePublication prices = publisherNode.newBytePublication("prices");

            NumberedMessages.publish(prices, COUNT, 70);
            checker.awaitCount(COUNT, System.currentTimeMillis() + 20_000);

            // Made only now: the same session from another node's socket would be another source of it, and a
            // receiver that heard that node first would take it for the session's publisher.
            final BytePublication pricesAgain = again.newBytePublication("prices");
            assertThat(pricesAgain.sessionId()).as("the same seed draws the same session id")
                .isEqualTo(prices.sessionId());
            assertThat(socketsOpened).as("the sockets came from the media given").hasPositiveValue();
            assertThat(subscriberNode.mediaFallback()).isNull();
            assertThat(subscriberNode.countersFile()).isNull();
            assertThat(subscriberNode.counters().get(SystemCounter.DATAGRAMS_RECEIVED).get()).isPositive();
            assertThat(checker.count()).isEqualTo(COUNT);
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aClosedPublicationSaysWhenItHasFinishedToTheApplicationThatDrivesItsNode() {
        final NodeConfig base = NodeConfig.embeddedDefault();
        final NodeConfig config = new NodeConfig(base.node().withThreading(ThreadingMode.INVOKER), base.transports(),
            base.topics().stream().map(topic -> topic.withFlowControl(FlowControlMode.MAX)
                .withCloseLinger(Duration.ofMillis(50))).toList()).conclude();
        try (Node node = Node.launch(config)) {
            final BytePublication prices = node.newBytePublication("prices");
            final UnsafeBuffer message = new UnsafeBuffer(new byte[70]);
            for (int i = 0; i < COUNT; i++) {
                prices.offer(message, 0, message.capacity());
                node.doWork();
            }
            assertThat(prices.isFinished()).as("open").isFalse();

            prices.close();
            final long startNs = System.nanoTime();
            while (!prices.isFinished() && System.nanoTime() - startNs < TimeUnit.SECONDS.toNanos(10)) {
                node.doWork();
            }

            assertThat(prices.isFinished()).isTrue();
            assertThat(System.nanoTime() - startNs).as("it lingered for repairs first")
                .isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(50));
        }
    }

    private static StreamEventListener recording(List<Object> events) {
        return new StreamEventListener() {
            @Override
            public void onStreamStarted(StreamStarted event) {
                events.add(event);
            }

            @Override
            public void onPublisherGone(PublisherGone event) {
                events.add(event);
            }

            @Override
            public void onLoss(LossEvent event) {
                events.add(event);
            }
        };
    }

    private static void awaitEnded(List<Object> events) throws InterruptedException {
        final long deadlineMs = System.currentTimeMillis() + 20_000;
        while (events.stream().noneMatch(PublisherGone.class::isInstance) && System.currentTimeMillis() < deadlineMs) {
            Thread.sleep(5);
        }
    }

    /** The embedded default, paced, on flow control {@code max} with a 16-datagram history: a loss beyond it. */
    private static NodeConfig smallHistory() {
        final NodeConfig paced = TestConfigs.paced("300k");
        final List<TopicConfig> topics = paced.topics().stream()
            .map(topic -> topic.withHistory(new ByteSize(16L * DATAGRAM_LENGTH)).withFlowControl(FlowControlMode.MAX))
            .toList();
        return new NodeConfig(paced.node(), paced.transports(), topics).conclude();
    }
}
