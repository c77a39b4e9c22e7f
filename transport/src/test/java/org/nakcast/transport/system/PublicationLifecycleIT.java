package org.nakcast.transport.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.nakcast.config.NodeConfig;
import org.nakcast.config.TopicConfig;
import org.nakcast.transport.Delivery;
import org.nakcast.transport.MessageClaim;
import org.nakcast.transport.Node;
import org.nakcast.transport.OfferResult;
import org.nakcast.transport.PublisherGone;
import org.nakcast.transport.BytePublication;
import org.nakcast.transport.StreamEventListener;
import org.nakcast.transport.status.CounterTypeIds;
import org.nakcast.transport.status.SystemCounter;

/**
 * A publication's life: closing it sends everything offered before, marks the stream's end so
 * subscribers hear {@code PublisherGone} ({@code ENDED}) at once rather than after the publisher
 * timeout, and frees the stream; a node's close closes every publication it made, after which
 * offers answer {@code CLOSED}.
 */
class PublicationLifecycleIT {
    private static final int MESSAGE_LENGTH = 70;

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aClosedPublicationDeliversEverythingOfferedThenEndsItsStreamAtOnce() throws InterruptedException {
        final int count = 50_000;
        final SequenceChecker checker = new SequenceChecker();
        final Events events = new Events();
        try (Node publisherNode = Node.launch(TestConfigs.paced("40m"));
            Node subscriberNode = Node.launch(NodeConfig.embeddedDefault())) {
            subscriberNode.newByteSubscription("prices", checker, events, Delivery.ON_RECEIVING_THREAD);
            final BytePublication publication = publisherNode.newBytePublication("prices");
            NumberedMessages.publish(publication, count, MESSAGE_LENGTH);
            publication.close();

            events.awaitGone(1, System.currentTimeMillis() + 10_000);
            assertThat(checker.count()).as("everything offered before the close").isEqualTo(count);
            assertThat(events.gone).singleElement().satisfies(gone -> {
                assertThat(gone.cause()).isEqualTo(PublisherGone.Cause.ENDED);
                assertThat(gone.sessionId()).isEqualTo(publication.sessionId());
            });
            assertThat(publication.offer(new UnsafeBuffer(new byte[8]), 0, 8)).isEqualTo(OfferResult.CLOSED);
        }
        assertThat(checker.errors()).isEmpty();
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void publicationsOpenedAndClosedInALoopLeaveNoStreamBehindOnEitherSide() throws InterruptedException {
        final int cycles = 40;
        final int maxPublishers = 4;
        final NodeConfig base = NodeConfig.embeddedDefault();
        final List<TopicConfig> topics = base.topics().stream()
            .map(topic -> topic.withMaxPublishers(maxPublishers)).toList();
        final NodeConfig config = new NodeConfig(base.node(), base.transports(), topics).conclude();
        final SessionSequenceCheckers checkers = new SessionSequenceCheckers();
        final Events events = new Events();
        try (Node publisherNode = Node.launch(config);
            Node subscriberNode = Node.launch(config)) {
            subscriberNode.newByteSubscription("prices", checkers, events, Delivery.ON_RECEIVING_THREAD);
            for (int cycle = 1; cycle <= cycles; cycle++) {
                try (BytePublication publication = publisherNode.newBytePublication("prices")) {
                    NumberedMessages.publish(publication, 100, MESSAGE_LENGTH);
                }
                events.awaitGone(cycle, System.currentTimeMillis() + 10_000);
            }
            awaitNoPublisherPositions(publisherNode, System.currentTimeMillis() + 10_000);

            assertThat(events.gone).hasSize(cycles)
                .allSatisfy(gone -> assertThat(gone.cause()).isEqualTo(PublisherGone.Cause.ENDED));
            assertThat(checkers.sessions()).hasSize(cycles)
                .allSatisfy(session -> assertThat(checkers.session(session).count()).isEqualTo(100));
            assertThat(subscriberNode.counters().get(SystemCounter.PUBLISHER_STREAMS_REFUSED).get())
                .as("each ended stream made room for the next").isZero();
            assertThat(countOf(publisherNode, CounterTypeIds.PUBLISHER_POSITION))
                .as("every stream freed its counters").isZero();
        }
        checkers.sessions().forEach(session -> assertThat(checkers.session(session).errors()).isEmpty());
    }

    @Test
    void afterItsNodeClosesAPublicationAnswersClosed() {
        final BytePublication publication;
        try (Node node = Node.launch(NodeConfig.embeddedDefault())) {
            publication = node.newBytePublication("prices");
        }
        final UnsafeBuffer message = new UnsafeBuffer(new byte[8]);

        assertThat(publication.offer(message, 0, 8)).isEqualTo(OfferResult.CLOSED);
        assertThat(publication.tryClaim(8, new MessageClaim())).isEqualTo(OfferResult.CLOSED);
        publication.close();
        assertThat(publication.offer(message, 0, 8)).isEqualTo(OfferResult.CLOSED);
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void closingTheNodeSendsWhatItsPublicationsWereOfferedFirst() throws InterruptedException {
        final int count = 20_000;
        final SequenceChecker checker = new SequenceChecker();
        final Events events = new Events();
        try (Node subscriberNode = Node.launch(NodeConfig.embeddedDefault())) {
            subscriberNode.newByteSubscription("prices", checker, events, Delivery.ON_RECEIVING_THREAD);
            try (Node publisherNode = Node.launch(TestConfigs.paced("40m"))) {
                NumberedMessages.publish(publisherNode.newBytePublication("prices"), count, MESSAGE_LENGTH);
            }
            events.awaitGone(1, System.currentTimeMillis() + 10_000);

            assertThat(checker.count()).isEqualTo(count);
            assertThat(events.gone).singleElement()
                .satisfies(gone -> assertThat(gone.cause()).isEqualTo(PublisherGone.Cause.ENDED));
        }
        assertThat(checker.errors()).isEmpty();
    }

    private static void awaitNoPublisherPositions(Node node, long deadlineMs) throws InterruptedException {
        while (countOf(node, CounterTypeIds.PUBLISHER_POSITION) > 0
            && System.currentTimeMillis() < deadlineMs) {
            Thread.sleep(5);
        }
    }

    /** How many counters of {@code typeId} the node's counters file holds, read through its own mapping. */
    private static int countOf(Node node, int typeId) {
        final int[] count = {0};
        node.countersReader().forEach((counterId, type, key, label) -> {
            if (type == typeId) {
                count[0]++;
            }
        });
        return count[0];
    }

    /** The publisher-gone events a subscription heard. */
    private static final class Events implements StreamEventListener {
        private final List<PublisherGone> gone = new CopyOnWriteArrayList<>();

        @Override
        public void onPublisherGone(PublisherGone event) {
            gone.add(event);
        }

        void awaitGone(int count, long deadlineMs) throws InterruptedException {
            while (gone.size() < count && System.currentTimeMillis() < deadlineMs) {
                Thread.sleep(1);
            }
            assertThat(gone).as("publisher-gone events").hasSizeGreaterThanOrEqualTo(count);
        }
    }
}
