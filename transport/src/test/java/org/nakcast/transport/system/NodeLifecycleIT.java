package org.nakcast.transport.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.SocketException;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.nakcast.config.ConfigException;
import org.nakcast.config.NodeConfig;
import org.nakcast.config.ThreadingMode;
import org.nakcast.transport.Node;
import org.nakcast.transport.RawPublication;
import org.nakcast.transport.StreamEventListener;
import org.nakcast.transport.TransportException;

/** Starting and stopping nodes, and the mistakes a user can make that must fail with a name. */
class NodeLifecycleIT {

    @ParameterizedTest
    @EnumSource(ThreadingMode.class)
    void closingANodeStopsEveryThreadItStarted(ThreadingMode threading) {
        final String name = "lifecycle-" + threading.name().toLowerCase();
        final NodeConfig base = NodeConfig.embeddedDefault();
        final NodeConfig config = new NodeConfig(
            base.node().withName(name).withThreading(threading), base.transports(), base.topics()).conclude();

        final Node node = Node.launch(config);
        node.subscribe("prices", (buffer, offset, length, header) -> { }, new StreamEventListener() { });
        node.newPublication("prices");
        node.close();

        assertThat(Thread.getAllStackTraces().keySet())
            .filteredOn(thread -> thread.isAlive() && thread.getName().contains(name))
            .isEmpty();
    }

    @Test
    void severalNodesRunInOneJvmAndCloseInAnyOrder() {
        final Node first = Node.launch(NodeConfig.embeddedDefault());
        final Node second = Node.launch(NodeConfig.embeddedDefault());
        first.subscribe("prices", (buffer, offset, length, header) -> { }, new StreamEventListener() { });
        second.subscribe("prices", (buffer, offset, length, header) -> { }, new StreamEventListener() { });

        first.close();
        final RawPublication publication = second.newPublication("prices");
        final UnsafeBuffer message = new UnsafeBuffer(new byte[8]);
        assertThat(UntilTaken.offer(() -> publication.offer(message, 0, 8), new BackoffIdleStrategy()))
            .as("taken once the second node's own subscription reports in (flow control min)")
            .isPositive();
        second.close();
        first.close();

        assertThatThrownBy(() -> first.newPublication("prices"))
            .isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
    }

    @Test
    void anInterfaceThisHostDoesNotHaveFailsNamingIt() {
        final String yaml = """
            transports:
              - name: lan
                interface: eth9
                group: 239.255.77.1
                port: 40456
            topics:
              - name: prices
                id: 1
                transport: lan
                codec: flyweight
            """;

        assertThatThrownBy(() -> Node.launch(NodeConfig.parse(yaml, "inline.yaml")))
            .isInstanceOf(ConfigException.class)
            .hasMessageContaining("eth9")
            .hasMessageContaining("lo");
    }

    @Test
    void aPortHeldByAnotherProgramFailsAtSubscribeNamingIt() throws SocketException {
        final int port = NodeConfig.embeddedDefault().transports().get(0).port();
        try (DatagramSocket squatter = new DatagramSocket(new InetSocketAddress(port));
            Node node = Node.launch(NodeConfig.embeddedDefault())) {
            assertThat(squatter.isBound()).isTrue();

            assertThatThrownBy(() -> node.subscribe("prices", (buffer, offset, length, header) -> { },
                new StreamEventListener() { }))
                .isInstanceOf(TransportException.class)
                .hasMessageContaining("cannot listen on").hasMessageContaining(String.valueOf(port))
                .hasMessageContaining("lo");
        }
    }
}
