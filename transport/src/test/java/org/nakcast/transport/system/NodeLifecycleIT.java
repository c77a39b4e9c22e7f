package org.nakcast.transport.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.nakcast.codecs.CodecRegistry;
import org.nakcast.config.ConfigException;
import org.nakcast.config.NodeConfig;
import org.nakcast.config.ThreadingMode;
import org.nakcast.config.TopicConfig;
import org.nakcast.transport.Delivery;
import org.nakcast.transport.Node;
import org.nakcast.transport.NodeContext;
import org.nakcast.transport.BytePublication;
import org.nakcast.transport.StreamEventListener;
import org.nakcast.transport.TransportException;
import org.nakcast.transport.media.Media;

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
        node.newByteSubscription("prices", (message, header) -> { }, StreamEventListener.NONE,
            Delivery.ON_RECEIVING_THREAD);
        node.newBytePublication("prices");
        node.close();

        assertThat(Thread.getAllStackTraces().keySet())
            .filteredOn(thread -> thread.isAlive() && thread.getName().contains(name))
            .isEmpty();
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void theNodesThreadsComeFromItsFactoryAndItsErrorsReachItsHandler() throws InterruptedException {
        final List<String> made = new CopyOnWriteArrayList<>();
        final List<Throwable> errors = new CopyOnWriteArrayList<>();
        final NodeConfig base = NodeConfig.embeddedDefault();
        final NodeConfig dedicated = new NodeConfig(base.node().withName("factory-made")
            .withThreading(ThreadingMode.DEDICATED), base.transports(), base.topics()).conclude();
        try (Node node = Node.launch(new NodeContext().config(dedicated).errorHandler(errors::add)
            .threadFactory(runnable -> {
                final Thread thread = new Thread(runnable);
                thread.setDaemon(true);
                made.add("made");
                return thread;
            }))) {
            node.newByteSubscription("prices", (message, header) -> {
                throw new IllegalStateException("handler " + message.getLong(0));
            }, StreamEventListener.NONE, Delivery.ON_RECEIVING_THREAD);
            final BytePublication publication = node.newBytePublication("prices");
            final UnsafeBuffer message = new UnsafeBuffer(new byte[8]);
            message.putLong(0, 7);
            assertThat(UntilTaken.offer(() -> publication.offer(message, 0, 8), new BackoffIdleStrategy()))
                .isPositive();
            final long deadlineMs = System.currentTimeMillis() + 10_000;
            while (errors.isEmpty() && System.currentTimeMillis() < deadlineMs) {
                Thread.sleep(1);
            }

            assertThat(made).as("a sending and a receiving thread").hasSize(2);
            assertThat(errors).first().isInstanceOf(IllegalStateException.class)
                .extracting(Throwable::getMessage).isEqualTo("handler 7");
            assertThat(Thread.getAllStackTraces().keySet()).extracting(Thread::getName)
                .contains("factory-made-nakcast-sender", "factory-made-nakcast-receiver");
        }
    }

    @Test
    void launchConcludesAConfigBuiltInCodeAgainstTheCodecsTheNodeHasAndThoseItCouldHave() {
        final NodeConfig base = NodeConfig.embeddedDefault();
        final NodeConfig fstTopic = new NodeConfig(base.node(), base.transports(),
            List.of(new TopicConfig("orders", 2, base.transports().get(0).name(), "fst")));
        final NodeConfig customTopic = new NodeConfig(base.node(), base.transports(),
            List.of(new TopicConfig("orders", 2, base.transports().get(0).name(), "custom")));
        final CodecRegistry custom = CodecRegistry.builtIns().register("custom",
            CodecRegistry.builtIns().factory("jdk"));

        try (Node node = Node.launch(new NodeContext().config(customTopic).codecs(custom))) {
            assertThat(node.config().topic("orders").codec()).as("registered in code, known without a list")
                .isEqualTo("custom");
        }
        try (Node withoutFst = Node.launch(new NodeContext().config(fstTopic).codecs(CodecRegistry.builtIns()))) {
            assertThatThrownBy(() -> withoutFst.newTypedPublication("orders", String.class))
                .as("a codec whose module is missing fails where it is used, naming the dependency")
                .hasMessageContaining("org.nakcast:nakcast-codecs-fst");
        }
    }

    @Test
    void aConfigFileNamingACodecRegisteredInCodeLoadsAsItIsAndLaunchesWithTheRegistryThatHasIt(@TempDir Path dir)
        throws IOException {
        final Path file = dir.resolve("custom.yaml");
        try (InputStream embedded = NodeConfig.class.getClassLoader()
            .getResourceAsStream(NodeConfig.EMBEDDED_DEFAULT_RESOURCE)) {
            Files.writeString(file, new String(embedded.readAllBytes(), StandardCharsets.UTF_8)
                .replace("codec: flyweight", "codec: custom"));
        }
        final CodecRegistry custom = CodecRegistry.builtIns().register("custom",
            CodecRegistry.builtIns().factory("flyweight"));

        final NodeConfig config = NodeConfig.load(file);
        try (Node node = Node.launch(new NodeContext().config(config).codecs(custom))) {
            assertThat(node.config().topic("prices").codec()).isEqualTo("custom");
        }
        assertThatThrownBy(() -> Node.launch(new NodeContext().config(config).codecs(CodecRegistry.builtIns())))
            .as("a node without it names the codec and the ones it has")
            .isInstanceOf(ConfigException.class)
            .hasMessageContaining("unknown codec 'custom' at topics[0].codec (line ")
            .hasMessageContaining("; known codecs: ")
            .hasMessageContaining("flyweight");
    }

    @Test
    void severalNodesRunInOneJvmAndCloseInAnyOrder() {
        final Node first = Node.launch(NodeConfig.embeddedDefault());
        final Node second = Node.launch(NodeConfig.embeddedDefault());
        first.newByteSubscription("prices", (message, header) -> { }, StreamEventListener.NONE,
            Delivery.ON_RECEIVING_THREAD);
        second.newByteSubscription("prices", (message, header) -> { }, StreamEventListener.NONE,
            Delivery.ON_RECEIVING_THREAD);

        first.close();
        final BytePublication publication = second.newBytePublication("prices");
        final UnsafeBuffer message = new UnsafeBuffer(new byte[8]);
        assertThat(UntilTaken.offer(() -> publication.offer(message, 0, 8), new BackoffIdleStrategy()))
            .as("taken once the second node's own subscription reports in (flow control min)")
            .isPositive();
        second.close();
        first.close();

        assertThatThrownBy(() -> first.newBytePublication("prices"))
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

            assertThatThrownBy(() -> node.newByteSubscription("prices", (message, header) -> { },
                StreamEventListener.NONE, Delivery.ON_RECEIVING_THREAD))
                .isInstanceOf(TransportException.class)
                .hasMessageContaining("cannot listen on").hasMessageContaining(String.valueOf(port))
                .hasMessageContaining("lo").hasMessageEndingWith(Media.LISTEN_REFUSED_HINT);
        }
    }
}
