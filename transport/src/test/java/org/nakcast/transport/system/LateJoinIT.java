package org.nakcast.transport.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.nakcast.config.FlowControlMode;
import org.nakcast.config.LateJoinPolicy;
import org.nakcast.config.NodeConfig;
import org.nakcast.config.TopicConfig;
import org.nakcast.transport.Delivery;
import org.nakcast.transport.Node;
import org.nakcast.transport.BytePublication;
import org.nakcast.transport.StreamEventListener;
import org.nakcast.transport.status.SystemCounter;

/**
 * A subscriber that starts while a publisher is mid-stream: with late join {@code now} it starts
 * at the live edge and asks for nothing of the past; with {@code oldest} it replays what history
 * still holds (from an eighth of the way in), then goes on live. Both see every later message. The
 * topic is on flow control {@code max}, so the publisher publishes before anybody listens.
 */
class LateJoinIT {
    private static final int BEFORE = 20_000;
    private static final int AFTER = 20_000;

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void nowStartsAtTheLiveEdgeAndOldestReplaysHistory() throws InterruptedException {
        final FromFirstSeen now = new FromFirstSeen();
        final FromFirstSeen oldest = new FromFirstSeen();
        try (Node publisherNode = Node.launch(lateJoin(LateJoinPolicy.NOW))) {
            final BytePublication publication = publisherNode.newBytePublication("prices");
            NumberedMessages.publish(publication, BEFORE, 70);
            Thread.sleep(50);
            try (Node nowNode = Node.launch(lateJoin(LateJoinPolicy.NOW));
                Node oldestNode = Node.launch(lateJoin(LateJoinPolicy.OLDEST))) {
                nowNode.newByteSubscription("prices", now, StreamEventListener.NONE, Delivery.ON_RECEIVING_THREAD);
                oldestNode.newByteSubscription("prices", oldest, StreamEventListener.NONE,
                    Delivery.ON_RECEIVING_THREAD);
                Thread.sleep(300);

                NumberedMessages.publishFrom(publication, BEFORE, AFTER, 70);
                now.awaitLast(BEFORE + AFTER - 1);
                oldest.awaitLast(BEFORE + AFTER - 1);

                assertThat(now.first()).as("now: the first message after joining").isGreaterThanOrEqualTo(BEFORE);
                assertThat(now.errors()).isZero();
                assertThat(nowNode.counters().get(SystemCounter.NAKS_SENT).get()).as("now asks for no past").isZero();
                // The replay starts an eighth of the way into the history's datagrams; how many messages
                // that is depends on how full the sender packed them, which the machine's load moves.
                assertThat(oldest.first()).as("oldest: replayed from early in history").isLessThan(BEFORE / 4);
                assertThat(oldest.errors()).isZero();
                assertThat(oldest.count()).isEqualTo(BEFORE + AFTER - oldest.first());
                assertThat(oldestNode.counters().get(SystemCounter.LOST_MESSAGES).get()).isZero();
            }
        }
    }

    private static NodeConfig lateJoin(LateJoinPolicy policy) {
        final NodeConfig base = NodeConfig.embeddedDefault();
        final List<TopicConfig> topics = base.topics().stream()
            .map(topic -> topic.withLateJoin(policy).withFlowControl(FlowControlMode.MAX))
            .toList();
        return new NodeConfig(base.node(), base.transports(), topics).conclude();
    }
}
