package org.nakcast.transport.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.nakcast.config.ByteSize;
import org.nakcast.config.NodeConfig;
import org.nakcast.config.TopicConfig;
import org.nakcast.config.TransportConfig;
import org.nakcast.transport.Delivery;
import org.nakcast.transport.LineDown;
import org.nakcast.transport.LineUp;
import org.nakcast.transport.Node;
import org.nakcast.transport.NodeContext;
import org.nakcast.transport.StreamEventListener;
import org.nakcast.transport.node.NodeHarness;
import org.nakcast.transport.lossinjection.SequenceRangeLossGenerator;
import org.nakcast.transport.protocol.FrameType;
import org.nakcast.transport.status.SystemCounter;

/**
 * A topic on two lines, two groups on loopback: the publisher sends each datagram on both, the
 * subscriber takes the first copy of each. With one line dead for a stretch the other carries
 * the stream: every message arrives once and in order, and nothing is NAKed.
 */
class TwoLinesIT {
    /** Fills one 1408-byte datagram, so message n travels in datagram n. */
    private static final int MESSAGE_LENGTH = 1408 - 32 - 4;
    private static final int COUNT = 3_000;
    /** Line A's datagrams of these sequences are dropped on the receive path: at the pace below, about 70 ms. */
    private static final long FIRST_LOST = 1_000;
    private static final long LAST_LOST = 1_999;

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void everyMessageArrivesOnceAndInOrderOverTwoLines() throws InterruptedException {
        final NodeConfig config = twoLines();
        final SequenceChecker checker = new SequenceChecker();
        final LineEvents events = new LineEvents();
        try (Node publisherNode = Node.launch(config);
            Node subscriberNode = Node.launch(config)) {
            subscriberNode.newByteSubscription("prices", checker, events, Delivery.ON_RECEIVING_THREAD);

            NumberedMessages.publish(publisherNode.newBytePublication("prices"), COUNT, MESSAGE_LENGTH);
            checker.awaitCount(COUNT, System.currentTimeMillis() + 20_000);

            final String counters = describe(publisherNode, subscriberNode);
            assertThat(checker.count()).as(counters).isEqualTo(COUNT);
            assertThat(checker.errors()).as(counters).isEmpty();
            assertThat(subscriberNode.counters().get(SystemCounter.NOT_SUBSCRIBED).get())
                .as("both lines' datagrams are the topic's: " + counters).isZero();
            assertThat(subscriberNode.counters().get(SystemCounter.DATAGRAMS_RECEIVED).get())
                .as("each datagram came on both lines: " + counters).isGreaterThanOrEqualTo(2L * COUNT);
            assertThat(events.downs).as(counters).isEmpty();
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void lineBCarriesTheStreamWhileLineAIsDeadAndNothingIsNaked() throws InterruptedException {
        final NodeConfig config = twoLines();
        final SequenceChecker checker = new SequenceChecker();
        final LineEvents events = new LineEvents();
        try (Node publisherNode = Node.launch(config);
            Node subscriberNode = Node.launch(new NodeContext().config(config),
                new NodeHarness().receiveLoss("line-a",
                new SequenceRangeLossGenerator(FIRST_LOST, LAST_LOST, EnumSet.of(FrameType.DATA, FrameType.HEARTBEAT,
                    FrameType.RETRANSMIT, FrameType.UNRECOVERABLE))))) {
            subscriberNode.newByteSubscription("prices", checker, events, Delivery.ON_RECEIVING_THREAD);

            NumberedMessages.publish(publisherNode.newBytePublication("prices"), COUNT, MESSAGE_LENGTH);
            checker.awaitCount(COUNT, System.currentTimeMillis() + 20_000);

            final String counters = describe(publisherNode, subscriberNode) + "\nline events: " + events;
            assertThat(checker.count()).as(counters).isEqualTo(COUNT);
            assertThat(checker.errors()).as(counters).isEmpty();
            assertThat(checker.skippedRanges()).as(counters).isEmpty();
            assertThat(subscriberNode.counters().get(SystemCounter.LOSS_INJECTED).get())
                .as("line A's stretch was dropped: " + counters).isGreaterThanOrEqualTo(LAST_LOST - FIRST_LOST + 1);
            assertThat(subscriberNode.counters().get(SystemCounter.NAKS_SENT).get())
                .as("line B had it all: " + counters).isZero();
            assertThat(publisherNode.counters().get(SystemCounter.RETRANSMITS_SENT).get()).as(counters).isZero();
            assertThat(events.downs).as(counters).extracting(LineDown::line).containsExactly("line-a");
            assertThat(events.ups).as(counters).extracting(LineUp::line).containsExactly("line-a");
        }
    }

    /**
     * The embedded default's topic {@code prices} on two lines of loopback, line A and line B on
     * their own groups and ports, paced so both nodes keep up on two shared cores.
     */
    private static NodeConfig twoLines() {
        final NodeConfig base = NodeConfig.embeddedDefault();
        final ByteSize rate = ByteSize.parse("20m");
        final List<TransportConfig> lines = List.of(
            new TransportConfig("line-a", "lo", "239.255.78.1", 40_470).withSendRate(rate),
            new TransportConfig("line-b", "lo", "239.255.78.3", 40_472).withSendRate(rate));
        final TopicConfig prices = base.topic("prices").withLines("line-a", "line-b");
        return new NodeConfig(base.node(), lines, List.of(prices)).conclude();
    }

    private static String describe(Node publisherNode, Node subscriberNode) {
        return "publisher: " + publisherNode.counters().describeNonZero()
            + "\nsubscriber: " + subscriberNode.counters().describeNonZero();
    }

    /** The line events a subscription heard. */
    private static final class LineEvents implements StreamEventListener {
        private final List<LineDown> downs = new CopyOnWriteArrayList<>();
        private final List<LineUp> ups = new CopyOnWriteArrayList<>();

        @Override
        public void onLineDown(LineDown event) {
            downs.add(event);
        }

        @Override
        public void onLineUp(LineUp event) {
            ups.add(event);
        }

        @Override
        public String toString() {
            return "down " + downs + ", up " + ups;
        }
    }
}
