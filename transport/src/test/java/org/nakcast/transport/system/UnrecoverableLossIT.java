package org.nakcast.transport.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.nakcast.config.ByteSize;
import org.nakcast.config.FlowControlMode;
import org.nakcast.config.LossPolicy;
import org.nakcast.config.NodeConfig;
import org.nakcast.config.TopicConfig;
import org.nakcast.transport.Delivery;
import org.nakcast.transport.LossEvent;
import org.nakcast.transport.Node;
import org.nakcast.transport.NodeContext;
import org.nakcast.transport.StreamEventListener;
import org.nakcast.transport.node.NodeHarness;
import org.nakcast.transport.lossinjection.SequenceRangeLossGenerator;
import org.nakcast.transport.protocol.FrameType;
import org.nakcast.transport.status.SystemCounter;

/**
 * A subscriber misses more datagrams than the publisher's history holds: one message per
 * datagram, a 16-datagram history, the first sends of datagrams 10..59 lost (retransmits pass).
 * Loss events must say which datagrams and how many messages are gone, and the messages missing
 * at the subscriber must be exactly those; then the topic's policy applies. Usually one event
 * covers the run; a heartbeat sent in the middle of it (the publisher paused long enough to send
 * one) makes the receiver ask early, and the publisher then gives the run up in two answers. The
 * topic is on flow control {@code max}: under {@code min} the publisher would wait for the repairs.
 */
class UnrecoverableLossIT {
    private static final int DATAGRAM_LENGTH = 1408;
    /** Fills one datagram: its 32-byte header, a 4-byte frame header and this. */
    private static final int MESSAGE_LENGTH = DATAGRAM_LENGTH - 32 - 4;
    private static final int HISTORY_DATAGRAMS = 16;
    private static final long FIRST_LOST = 10;
    private static final long LAST_LOST = 59;
    private static final int COUNT = 200;

    @ParameterizedTest
    @EnumSource(LossPolicy.class)
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aLossBeyondHistoryRaisesExactlyOneEventWithTheRange(LossPolicy policy) throws InterruptedException {
        final NodeConfig config = smallHistory(policy);
        final SequenceChecker checker = new SequenceChecker();
        final List<LossEvent> events = new CopyOnWriteArrayList<>();
        try (Node publisherNode = Node.launch(config);
            Node subscriberNode = Node.launch(new NodeContext().config(config),
                new NodeHarness()
                .receiveLoss(new SequenceRangeLossGenerator(FIRST_LOST, LAST_LOST, EnumSet.of(FrameType.DATA))))) {
            subscriberNode.newByteSubscription("prices", checker, new StreamEventListener() {
                @Override
                public void onLoss(LossEvent event) {
                    events.add(event);
                }
            }, Delivery.ON_RECEIVING_THREAD);

            NumberedMessages.publish(publisherNode.newBytePublication("prices"), COUNT, MESSAGE_LENGTH);
            awaitQuiet(checker, events, policy);
            final String counters = "publisher: " + publisherNode.counters().describeNonZero()
                + "\nsubscriber: " + subscriberNode.counters().describeNonZero();

            assertThat(events).as(counters).isNotEmpty();
            long lostBefore = FIRST_LOST - 1;
            for (LossEvent event : events) {
                assertThat(event.fromSequence()).as("%s after the loss before it", event).isGreaterThan(lostBefore);
                assertThat(event.toSequence()).as("history moved on by the time the NAK came, no further")
                    .isBetween(event.fromSequence(), LAST_LOST);
                assertThat(event.lostMessages()).isEqualTo(event.toSequence() - event.fromSequence() + 1);
                lostBefore = event.toSequence();
            }
            assertThat(subscriberNode.counters().get(SystemCounter.LOST_MESSAGES).get()).isEqualTo(lost(events));
            assertThat(checker.errors()).as(counters).isEmpty();
            if (policy == LossPolicy.CONTINUE) {
                assertThat(events).noneMatch(LossEvent::streamDropped);
                assertThat(checker.skippedRanges()).as(counters)
                    .containsExactlyElementsOf(events.stream()
                        .map(event -> new long[] {event.fromSequence(), event.toSequence()}).toList());
                assertThat(checker.count()).isEqualTo(COUNT - lost(events));
            } else {
                final LossEvent drop = events.get(0);
                assertThat(events).as("nothing heard after the drop").singleElement();
                assertThat(drop.streamDropped()).isTrue();
                assertThat(checker.skippedRanges()).isEmpty();
                assertThat(checker.count()).as("delivered up to the gap, nothing after")
                    .isEqualTo(drop.fromSequence());
            }
        }
    }

    /**
     * Waits for the loss event and, when delivery goes on, for every message after the gap; then
     * a little longer, so a second event would be seen.
     */
    private static void awaitQuiet(SequenceChecker checker, List<LossEvent> events, LossPolicy policy)
        throws InterruptedException {
        final long deadlineMs = System.currentTimeMillis() + 20_000;
        while (!settled(checker, events, policy) && System.currentTimeMillis() < deadlineMs) {
            Thread.sleep(5);
        }
        Thread.sleep(200);
    }

    private static boolean settled(SequenceChecker checker, List<LossEvent> events, LossPolicy policy) {
        return !events.isEmpty() && (policy == LossPolicy.DROP || checker.count() == COUNT - lost(events));
    }

    private static long lost(List<LossEvent> events) {
        return events.stream().mapToLong(LossEvent::lostMessages).sum();
    }

    private static NodeConfig smallHistory(LossPolicy policy) {
        final NodeConfig paced = TestConfigs.paced("300k");
        final List<TopicConfig> topics = paced.topics().stream()
            .map(topic -> topic.withHistory(new ByteSize((long) HISTORY_DATAGRAMS * DATAGRAM_LENGTH))
                .withFlowControl(FlowControlMode.MAX).withLossPolicy(policy))
            .toList();
        return new NodeConfig(paced.node(), paced.transports(), topics).conclude();
    }
}
