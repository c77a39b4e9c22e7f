package org.nakcast.transport.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.status.CountersReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.nakcast.config.NodeConfig;
import org.nakcast.transport.Delivery;
import org.nakcast.transport.Node;
import org.nakcast.transport.BytePublication;
import org.nakcast.transport.StreamEventListener;
import org.nakcast.transport.status.CounterTypeIds;
import org.nakcast.transport.status.StreamCounters;

/** The position and lag of each stream, read from the counters files as another process would. */
class StreamCountersIT {
    private static final long MISSING = Long.MIN_VALUE;

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void theReceiverPositionCatchesUpWithThePublisherPositionAndTheLagFallsToZero() throws InterruptedException {
        final int count = 50_000;
        final SequenceChecker checker = new SequenceChecker();
        try (Node publisherNode = Node.launch(NodeConfig.embeddedDefault());
            Node subscriberNode = Node.launch(NodeConfig.embeddedDefault())) {
            subscriberNode.newByteSubscription("prices", checker, StreamEventListener.NONE,
                Delivery.ON_RECEIVING_THREAD);
            final BytePublication publication = publisherNode.newBytePublication("prices");
            NumberedMessages.publish(publication, count, 70);
            checker.awaitCount(count, System.currentTimeMillis() + 30_000);

            final int topicId = publication.topicId();
            final int session = publication.sessionId();
            final long deadline = System.currentTimeMillis() + 10_000;
            long published;
            long received;
            do {
                published =
                    read(publisherNode, CounterTypeIds.PUBLISHER_POSITION, topicId, session);
                received =
                    read(subscriberNode, CounterTypeIds.RECEIVER_POSITION, topicId, session);
                Thread.sleep(10);
            } while (published != received && System.currentTimeMillis() < deadline);

            assertThat(published).as("datagrams of %d messages of 70 bytes", count).isBetween(count / 18L, count / 2L);
            assertThat(received).isEqualTo(published);
            assertThat(read(subscriberNode, CounterTypeIds.RECEIVER_LAG, topicId, session))
                .isZero();
            publication.close();
        }
        assertThat(checker.errors()).isEmpty();
    }

    /**
     * The value of the node's stream counter of that type and stream, or {@link #MISSING}: read
     * through the node's own mapping (opening its file again here would release its lock).
     */
    private static long read(Node node, int typeId, int topicId, int sessionId) {
        final CountersReader counters = node.countersReader();
        final long[] value = {MISSING};
        counters.forEach((counterId, type, key, label) -> {
            if (type == typeId && key.getInt(StreamCounters.KEY_TOPIC_ID_OFFSET) == topicId
                && key.getInt(StreamCounters.KEY_SESSION_ID_OFFSET) == sessionId) {
                value[0] = counters.getCounterValue(counterId);
            }
        });
        return value[0];
    }
}
