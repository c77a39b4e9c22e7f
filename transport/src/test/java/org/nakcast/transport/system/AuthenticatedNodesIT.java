package org.nakcast.transport.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.nakcast.config.AuthKeyFile;
import org.nakcast.config.AuthKeys;
import org.nakcast.config.FlowControlMode;
import org.nakcast.config.NodeConfig;
import org.nakcast.config.TopicConfig;
import org.nakcast.config.TransportConfig;
import org.nakcast.transport.Delivery;
import org.nakcast.transport.Node;
import org.nakcast.transport.BytePublication;
import org.nakcast.transport.StreamEventListener;
import org.nakcast.transport.status.SystemCounter;

/**
 * Nodes whose transport has a key file, on real sockets: they hear each other whole, and a node
 * with another key, or with none, publishing the same topic on the same group at the same time
 * reaches no stream: its every datagram is dropped and counted at the socket.
 */
class AuthenticatedNodesIT {
    private static final int COUNT = 20_000;

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void nodesWithOneKeyFileHearEachOtherWhileNodesWithAnotherKeyOrNoneReachNothing()
        throws IOException, InterruptedException {
        final NodeConfig keyed = config(keyFile("group.keys", 1), FlowControlMode.MIN);
        final NodeConfig otherKey = config(keyFile("other.keys", 1), FlowControlMode.MAX);
        final SequenceChecker checker = new SequenceChecker();
        try (Node subscriberNode = Node.launch(keyed);
            Node publisherNode = Node.launch(keyed);
            Node otherKeyNode = Node.launch(otherKey);
            Node noKeyNode = Node.launch(config(null, FlowControlMode.MAX))) {
            subscriberNode.newByteSubscription("prices", checker, StreamEventListener.NONE,
                Delivery.ON_RECEIVING_THREAD);
            final BytePublication forgedWithOtherKey = otherKeyNode.newBytePublication("prices");
            final BytePublication forgedWithoutKey = noKeyNode.newBytePublication("prices");

            NumberedMessages.publish(forgedWithOtherKey, 1_000, 70);
            NumberedMessages.publish(forgedWithoutKey, 1_000, 70);
            NumberedMessages.publish(publisherNode.newBytePublication("prices"), COUNT, 70);
            NumberedMessages.publish(forgedWithOtherKey, 1_000, 70);
            NumberedMessages.publish(forgedWithoutKey, 1_000, 70);

            checker.awaitCount(COUNT, System.currentTimeMillis() + 30_000);
            assertThat(checker.errors()).isEmpty();
            assertThat(checker.skippedRanges()).isEmpty();
            assertThat(checker.count()).isEqualTo(COUNT);
            assertThat(subscriberNode.counters().get(SystemCounter.AUTH_BAD_TAG).get())
                .as("the other key has the same id, another secret").isPositive();
            assertThat(subscriberNode.counters().get(SystemCounter.AUTH_UNSIGNED).get()).isPositive();
            assertThat(subscriberNode.counters().get(SystemCounter.AUTH_REPLAYED).get()).isZero();
            assertThat(subscriberNode.counters().get(SystemCounter.WRONG_SOURCE).get())
                .as("nothing forged got as far as source pinning").isZero();
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void nodesThatEncryptHearEachOtherWhole() throws IOException, InterruptedException {
        final NodeConfig encrypting = config(keyFile("group.keys", 3), FlowControlMode.MIN, true);
        final SequenceChecker checker = new SequenceChecker();
        try (Node subscriberNode = Node.launch(encrypting);
            Node publisherNode = Node.launch(encrypting)) {
            subscriberNode.newByteSubscription("prices", checker, StreamEventListener.NONE,
                Delivery.ON_RECEIVING_THREAD);

            NumberedMessages.publish(publisherNode.newBytePublication("prices"), COUNT, 70);

            checker.awaitCount(COUNT, System.currentTimeMillis() + 30_000);
            assertThat(checker.errors()).isEmpty();
            assertThat(checker.count()).isEqualTo(COUNT);
            assertThat(subscriberNode.counters().get(SystemCounter.AUTH_UNKNOWN_KEY).get()).isZero();
            assertThat(subscriberNode.counters().get(SystemCounter.AUTH_BAD_TAG).get()).isZero();
        }
    }

    private Path keyFile(String name, int id) throws IOException {
        final Path file = dir.resolve(name);
        AuthKeyFile.write(file, new AuthKeys(id, List.of(AuthKeyFile.newKey(id))));
        return file;
    }

    /**
     * The embedded default with a key file (or none) and a flow control: {@code max} for the nodes
     * that forge, which nobody answers, so that they send whatever they offer.
     */
    private static NodeConfig config(Path keyFile, FlowControlMode flowControl) {
        return config(keyFile, flowControl, false);
    }

    private static NodeConfig config(Path keyFile, FlowControlMode flowControl, boolean encrypt) {
        final NodeConfig base = NodeConfig.embeddedDefault();
        final List<TransportConfig> transports = base.transports().stream()
            .map(transport -> transport.withAuthKeyFile(keyFile == null ? null : keyFile.toString())
                .withEncrypt(encrypt))
            .toList();
        final List<TopicConfig> topics = base.topics().stream()
            .map(topic -> topic.withFlowControl(flowControl))
            .toList();
        return new NodeConfig(base.node(), transports, topics).conclude();
    }
}
