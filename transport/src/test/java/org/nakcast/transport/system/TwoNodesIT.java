package org.nakcast.transport.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.nakcast.config.NodeConfig;
import org.nakcast.transport.Delivery;
import org.nakcast.transport.Node;
import org.nakcast.transport.StreamEventListener;

class TwoNodesIT {
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void twoNodesInOneJvmHearEachOther() throws InterruptedException {
        final int count = 100_000;
        final SequenceChecker checker = new SequenceChecker();
        try (Node publisherNode = Node.launch(NodeConfig.embeddedDefault());
            Node subscriberNode = Node.launch(NodeConfig.embeddedDefault())) {
            subscriberNode.newByteSubscription("prices", checker, StreamEventListener.NONE,
                Delivery.ON_RECEIVING_THREAD);

            NumberedMessages.publish(publisherNode.newBytePublication("prices"), count, 70);

            checker.awaitCount(count, System.currentTimeMillis() + 30_000);
        }
        assertThat(checker.errors()).isEmpty();
        assertThat(checker.skippedRanges()).isEmpty();
        assertThat(checker.count()).isEqualTo(count);
    }
}
