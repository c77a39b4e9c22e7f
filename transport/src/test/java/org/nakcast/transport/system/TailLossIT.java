package org.nakcast.transport.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumSet;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.nakcast.config.NodeConfig;
import org.nakcast.transport.Delivery;
import org.nakcast.transport.Node;
import org.nakcast.transport.NodeContext;
import org.nakcast.transport.StreamEventListener;
import org.nakcast.transport.node.NodeHarness;
import org.nakcast.transport.lossinjection.SequenceRangeLossGenerator;
import org.nakcast.transport.protocol.FrameType;
import org.nakcast.transport.status.SystemCounter;

/**
 * The last datagram a publisher sends is lost and nothing follows it: the publisher's heartbeat
 * tells the subscriber what it missed, the subscriber NAKs it and gets it.
 */
class TailLossIT {
    /** Fills one 1408-byte datagram, so message n travels in datagram n. */
    private static final int MESSAGE_LENGTH = 1408 - 32 - 4;
    private static final int COUNT = 50;

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void aLostLastDatagramIsFoundThroughTheHeartbeatAndRepaired() throws InterruptedException {
        final NodeConfig config = NodeConfig.embeddedDefault();
        final SequenceChecker checker = new SequenceChecker();
        try (Node publisherNode = Node.launch(config);
            Node subscriberNode = Node.launch(new NodeContext().config(config),
                new NodeHarness()
                .receiveLoss(new SequenceRangeLossGenerator(COUNT - 1, COUNT - 1, EnumSet.of(FrameType.DATA))))) {
            subscriberNode.newByteSubscription("prices", checker, StreamEventListener.NONE,
                Delivery.ON_RECEIVING_THREAD);

            NumberedMessages.publish(publisherNode.newBytePublication("prices"), COUNT, MESSAGE_LENGTH);
            checker.awaitCount(COUNT, System.currentTimeMillis() + 10_000);

            final String counters = "publisher: " + publisherNode.counters().describeNonZero()
                + "\nsubscriber: " + subscriberNode.counters().describeNonZero();
            assertThat(checker.count()).as(counters).isEqualTo(COUNT);
            assertThat(checker.errors()).as(counters).isEmpty();
            assertThat(subscriberNode.counters().get(SystemCounter.LOSS_INJECTED).get()).as(counters).isOne();
            assertThat(publisherNode.counters().get(SystemCounter.RETRANSMITS_SENT).get()).as(counters).isOne();
        }
    }
}
