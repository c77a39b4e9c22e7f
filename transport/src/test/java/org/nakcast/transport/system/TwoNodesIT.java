package org.nakcast.transport.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.nakcast.config.NodeConfig;
import org.nakcast.transport.Node;
import org.nakcast.transport.RawPublication;
import org.nakcast.transport.StreamEventListener;

class TwoNodesIT {
    private static final IdleStrategy BACK_OFF = new BackoffIdleStrategy();

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void twoNodesInOneJvmHearEachOther() throws InterruptedException {
        final int count = 100_000;
        final SequenceChecker checker = new SequenceChecker();
        try (Node publisherNode = Node.launch(NodeConfig.embeddedDefault());
            Node subscriberNode = Node.launch(NodeConfig.embeddedDefault())) {
            subscriberNode.subscribe("prices", checker, new StreamEventListener() { });
            final RawPublication publication = publisherNode.publication("prices");
            final UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(70));

            for (long i = 0; i < count; i++) {
                message.putLong(0, i);
                while (publication.offer(message, 0, 70) != RawPublication.OK) {
                    BACK_OFF.idle();
                }
            }

            checker.awaitCount(count, 30_000);
        }
        assertThat(checker.errors()).isEmpty();
        assertThat(checker.count()).isEqualTo(count);
    }
}
