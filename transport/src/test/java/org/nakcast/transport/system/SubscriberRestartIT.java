package org.nakcast.transport.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.nakcast.config.FlowControlMode;
import org.nakcast.config.NodeConfig;
import org.nakcast.config.TopicConfig;
import org.nakcast.transport.Delivery;
import org.nakcast.transport.Node;
import org.nakcast.transport.NodeContext;
import org.nakcast.transport.PublisherEventListener;
import org.nakcast.transport.BytePublication;
import org.nakcast.transport.ReceiverDropped;
import org.nakcast.transport.StreamEventListener;

/**
 * A subscriber killed mid-stream and started again, on a topic with flow control {@code min}: the
 * publisher drops the dead one after the timeout instead of waiting for it forever, the restarted
 * one joins at the live edge and gets every message from there on, in order.
 */
class SubscriberRestartIT {
    private static final int TOTAL = 200_000;
    private static final int KILL_AT = 50_000;

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aRestartedSubscriberJoinsLiveAndTheDeadOneIsDropped() throws InterruptedException {
        final NodeConfig config = config();
        final List<ReceiverDropped> dropped = new CopyOnWriteArrayList<>();
        final FromFirstSeen restarted = new FromFirstSeen();
        try (Node publisherNode = Node.launch(new NodeContext().config(config).publisherEvents(
            new PublisherEventListener() {
                @Override
                public void onReceiverDropped(ReceiverDropped event) {
                    dropped.add(event);
                }
            }))) {
            final BytePublication publication = publisherNode.newBytePublication("prices");
            final SequenceChecker first = new SequenceChecker();
            final Node firstSubscriber = Node.launch(config);
            firstSubscriber.newByteSubscription("prices", first, StreamEventListener.NONE,
                Delivery.ON_RECEIVING_THREAD);
            Thread.sleep(100);
            NumberedMessages.publish(publication, KILL_AT, 70);
            first.awaitCount(KILL_AT, System.currentTimeMillis() + 10_000);
            firstSubscriber.close();

            try (Node secondSubscriber = Node.launch(config)) {
                secondSubscriber.newByteSubscription("prices", restarted, StreamEventListener.NONE,
                    Delivery.ON_RECEIVING_THREAD);
                NumberedMessages.publishFrom(publication, KILL_AT, TOTAL - KILL_AT, 70);
                restarted.awaitLast(TOTAL - 1);
            }

            assertThat(first.errors()).isEmpty();
            assertThat(first.count()).isEqualTo(KILL_AT);
            assertThat(dropped).as("the dead subscriber, dropped after the timeout").hasSize(1);
            assertThat(restarted.first()).isGreaterThanOrEqualTo(KILL_AT);
            assertThat(restarted.errors()).isZero();
            assertThat(restarted.last()).isEqualTo(TOTAL - 1);
        }
    }

    private static NodeConfig config() {
        final NodeConfig base = TestConfigs.paced("40m");
        final List<TopicConfig> topics = base.topics().stream()
            .map(topic -> topic.withFlowControl(FlowControlMode.MIN).withHeartbeat(Duration.ofMillis(20))
                .withFlowControlTimeout(Duration.ofMillis(200)))
            .toList();
        return new NodeConfig(base.node(), base.transports(), topics).conclude();
    }
}
