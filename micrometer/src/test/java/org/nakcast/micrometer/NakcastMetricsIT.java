package org.nakcast.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.nakcast.config.NodeConfig;
import org.nakcast.config.TransportConfig;
import org.nakcast.transport.Delivery;
import org.nakcast.transport.Node;
import org.nakcast.transport.OfferResult;
import org.nakcast.transport.BytePublication;
import org.nakcast.transport.StreamEventListener;
import org.nakcast.transport.status.SystemCounter;

/**
 * A publisher node and a subscriber node on the embedded default config (loopback, TTL 0), each bound
 * to a {@link SimpleMeterRegistry}: what the meters say against what the nodes count.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NakcastMetricsIT {
    private static final int MESSAGES = 10_000;
    private static final int MESSAGE_LENGTH = 64;
    private static final long DEADLINE_MS = 20_000;

    @TempDir
    Path directory;

    @Test
    void theSystemCountersReadWhatTheNodeCounts() throws InterruptedException {
        try (Node publisherNode = Node.launch(config("metrics-pub"));
            Node subscriberNode = Node.launch(config("metrics-sub"));
            NakcastMetrics publisherMetrics = NakcastMetrics.of(publisherNode);
            NakcastMetrics subscriberMetrics = NakcastMetrics.of(subscriberNode)) {
            final MeterRegistry registry = new SimpleMeterRegistry();
            publisherMetrics.bindTo(registry);
            subscriberMetrics.bindTo(registry);
            final AtomicLong received = subscribe(subscriberNode);

            publish(publisherNode.newBytePublication("prices"), MESSAGES);
            await(() -> received.get() == MESSAGES, "every message received");

            for (Node node : new Node[] {publisherNode, subscriberNode}) {
                for (SystemCounter counter : SystemCounter.values()) {
                    final long before = node.counters().get(counter).get();
                    final double exported = counterValue(registry, NakcastMetrics.meterName(counter),
                        Tags.of(NakcastMetrics.NODE_TAG, node.config().node().name()));
                    final long after = node.counters().get(counter).get();
                    assertThat(exported).as("%s of %s", counter, node.config().node().name())
                        .isBetween((double) before, (double) after);
                }
            }
            assertThat(counterValue(registry, "nakcast.datagrams.sent", Tags.of("node", "metrics-pub")))
                .isGreaterThanOrEqualTo(MESSAGES / (1408.0 / MESSAGE_LENGTH));
            assertThat(counterValue(registry, "nakcast.datagrams.received", Tags.of("node", "metrics-sub")))
                .isGreaterThanOrEqualTo(MESSAGES / (1408.0 / MESSAGE_LENGTH));
        }
    }

    @Test
    void eachStreamHasGaugesWhileItRunsAndNoneOnceItEnded() throws InterruptedException {
        try (Node publisherNode = Node.launch(config("metrics-pub"));
            Node subscriberNode = Node.launch(config("metrics-sub"));
            NakcastMetrics publisherMetrics = NakcastMetrics.of(publisherNode);
            NakcastMetrics subscriberMetrics = NakcastMetrics.of(subscriberNode)) {
            final MeterRegistry registry = new SimpleMeterRegistry();
            publisherMetrics.bindTo(registry);
            subscriberMetrics.bindTo(registry);
            final AtomicLong received = subscribe(subscriberNode);
            final BytePublication publication = publisherNode.newBytePublication("prices");
            final Tags stream = Tags.of(NakcastMetrics.TOPIC_TAG, "prices",
                NakcastMetrics.TOPIC_ID_TAG, Integer.toString(publication.topicId()),
                NakcastMetrics.SESSION_TAG, Integer.toString(publication.sessionId()));

            publish(publication, MESSAGES);
            await(() -> received.get() == MESSAGES, "every message received");
            publisherMetrics.refresh();
            subscriberMetrics.refresh();

            final Tags publisherStream = stream.and("node", "metrics-pub");
            final Tags receiverStream = stream.and("node", "metrics-sub");
            final Gauge published = gauge(registry, NakcastMetrics.PUBLISHER_POSITION, publisherStream);
            final Gauge delivered = gauge(registry, NakcastMetrics.RECEIVER_POSITION, receiverStream);
            final Gauge lag = gauge(registry, NakcastMetrics.RECEIVER_LAG, receiverStream);
            assertThat(published.value()).isPositive();
            await(() -> delivered.value() == published.value(), "the receiver position reaching the publisher's");
            assertThat(lag.value()).isZero();

            publication.close();
            await(() -> {
                publisherMetrics.refresh();
                subscriberMetrics.refresh();
                return registry.find(NakcastMetrics.PUBLISHER_POSITION).meters().isEmpty()
                    && registry.find(NakcastMetrics.RECEIVER_POSITION).meters().isEmpty()
                    && registry.find(NakcastMetrics.RECEIVER_LAG).meters().isEmpty();
            }, "the ended stream's gauges removed");
            assertThat(registry.find("nakcast.datagrams.sent").meters()).hasSize(2);
        }
    }

    @Test
    void aMalformedDatagramIsCountedUnderItsCause() throws IOException, InterruptedException {
        final NodeConfig config = config("metrics-sub");
        try (Node node = Node.launch(config);
            NakcastMetrics metrics = NakcastMetrics.of(node);
            DatagramChannel stranger = sender(config.lines(config.topic("prices")).get(0))) {
            final MeterRegistry registry = new SimpleMeterRegistry();
            metrics.bindTo(registry);
            subscribe(node);
            final TransportConfig transport = config.lines(config.topic("prices")).get(0);

            final ByteBuffer garbage = ByteBuffer.wrap(
                "GET / HTTP/1.1 - a stranger's datagram, longer than a header".getBytes(StandardCharsets.UTF_8));
            stranger.send(garbage, new InetSocketAddress(transport.group(), transport.port()));

            final Tags badMagic = Tags.of("node", "metrics-sub", NakcastMetrics.CAUSE_TAG, "bad_magic");
            await(() -> counterValue(registry, NakcastMetrics.MALFORMED_BY_CAUSE, badMagic) == 1,
                "the datagram counted as malformed");
            assertThat(counterValue(registry, "nakcast.malformed", Tags.of("node", "metrics-sub"))).isOne();
            assertThat(registry.find(NakcastMetrics.MALFORMED_BY_CAUSE).tag(NakcastMetrics.CAUSE_TAG, "too_short")
                .functionCounter().count()).isZero();
        }
    }

    @Test
    void closingRemovesEveryMeterItRegistered() throws InterruptedException {
        final MeterRegistry registry = new SimpleMeterRegistry();
        final MeterRegistry another = new SimpleMeterRegistry();
        try (Node publisherNode = Node.launch(config("metrics-pub"));
            Node subscriberNode = Node.launch(config("metrics-sub"));
            NakcastMetrics subscriberMetrics = NakcastMetrics.of(subscriberNode)) {
            final NakcastMetrics publisherMetrics = NakcastMetrics.of(publisherNode);
            publisherMetrics.bindTo(registry);
            publisherMetrics.bindTo(another);
            subscriberMetrics.bindTo(registry);
            subscribe(subscriberNode);
            publish(publisherNode.newBytePublication("prices"), 100);
            publisherMetrics.refresh();
            assertThat(registry.find(NakcastMetrics.PUBLISHER_POSITION).meters()).hasSize(1);

            publisherMetrics.close();

            assertThat(another.getMeters()).isEmpty();
            assertThat(registry.getMeters()).isNotEmpty()
                .allSatisfy(meter -> assertThat(meter.getId().getTag("node")).isEqualTo("metrics-sub"));
            publisherMetrics.close();
            assertThatThrownBy(publisherMetrics::refresh).isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void theDaemonRefreshAddsTheMetersOfANewStream() throws InterruptedException {
        try (Node publisherNode = Node.launch(config("metrics-pub"));
            Node subscriberNode = Node.launch(config("metrics-sub"));
            NakcastMetrics metrics = NakcastMetrics.of(publisherNode)) {
            final MeterRegistry registry = new SimpleMeterRegistry();
            metrics.bindTo(registry);
            metrics.startRefreshing(Duration.ofMillis(20));
            subscribe(subscriberNode);

            final BytePublication publication = publisherNode.newBytePublication("prices");

            final Tags stream = Tags.of("session", Integer.toString(publication.sessionId()));
            await(() -> registry.find(NakcastMetrics.PUBLISHER_POSITION).tags(stream).gauge() != null,
                "the new stream's gauge");
            assertThatThrownBy(metrics::startRefreshing).isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void theCountersFileOfAStoppedNodeReadsItsLastCounts() throws InterruptedException {
        final Node stopped;
        try (Node subscriberNode = Node.launch(config("metrics-sub"))) {
            final AtomicLong received = subscribe(subscriberNode);
            try (Node publisherNode = Node.launch(config("metrics-stopped"))) {
                publish(publisherNode.newBytePublication("prices"), 100);
                await(() -> received.get() == 100, "every message received");
                stopped = publisherNode;
            }
        }
        final Path file = stopped.countersFile();
        final long datagramsSent = stopped.counters().get(SystemCounter.DATAGRAMS_SENT).get();

        try (NakcastMetrics metrics = NakcastMetrics.open(file)) {
            final MeterRegistry registry = new SimpleMeterRegistry();
            metrics.bindTo(registry);

            assertThat(metrics.nodeName()).isEqualTo("metrics-stopped");
            assertThat(datagramsSent).isPositive();
            assertThat(counterValue(registry, "nakcast.datagrams.sent", Tags.of("node", "metrics-stopped")))
                .isEqualTo((double) datagramsSent);
        }
    }

    @Test
    void aPathThatIsNotACountersFileIsRefusedByName() throws IOException {
        final Path text = Files.writeString(directory.resolve("notes.counters"), "just text\n".repeat(20));
        final Path missing = directory.resolve("missing.counters");

        assertThatIllegalArgumentException().isThrownBy(() -> NakcastMetrics.open(text))
            .withMessageContaining(text.toString()).withMessageContaining("not a counters file");
        assertThatThrownBy(() -> NakcastMetrics.open(missing)).isInstanceOf(UncheckedIOException.class)
            .hasMessageContaining(missing.toString());
        assertThatThrownBy(() -> NakcastMetrics.open(directory)).isInstanceOf(UncheckedIOException.class)
            .hasMessageContaining(directory.toString());
    }

    @Test
    void twoNodesOfOneNameCannotShareARegistry() {
        try (Node first = Node.launch(config("metrics-twin"));
            Node second = Node.launch(config("metrics-twin"));
            NakcastMetrics firstMetrics = NakcastMetrics.of(first);
            NakcastMetrics secondMetrics = NakcastMetrics.of(second)) {
            final MeterRegistry registry = new SimpleMeterRegistry();
            firstMetrics.bindTo(registry);

            assertThatThrownBy(() -> secondMetrics.bindTo(registry)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("metrics-twin").hasMessageContaining("node.name");
            secondMetrics.bindTo(new SimpleMeterRegistry());
        }
    }

    /**
     * The embedded default with its prices topic only (its codec needs nothing on the class path), for a node of
     * this name, with its counters file in the test's directory.
     */
    private NodeConfig config(String nodeName) {
        final NodeConfig base = NodeConfig.embeddedDefault();
        final Path countersFile = directory.resolve(nodeName + ".counters");
        return new NodeConfig(base.node().withName(nodeName).withCountersFile(countersFile), base.transports(),
            base.topics().stream().filter(topic -> topic.name().equals("prices")).toList()).conclude();
    }

    /** Subscribes to prices on the receiving thread; the count of messages received. */
    private static AtomicLong subscribe(Node node) {
        final AtomicLong received = new AtomicLong();
        node.newByteSubscription("prices", (message, header) -> received.incrementAndGet(), StreamEventListener.NONE,
            Delivery.ON_RECEIVING_THREAD);
        return received;
    }

    /** Offers {@code count} messages, backing off while back-pressured or while no receiver is there yet. */
    private static void publish(BytePublication publication, int count) {
        final UnsafeBuffer message = new UnsafeBuffer(new byte[MESSAGE_LENGTH]);
        final IdleStrategy backOff = new BackoffIdleStrategy();
        final long deadlineMs = System.currentTimeMillis() + DEADLINE_MS;
        for (int i = 0; i < count; i++) {
            message.putInt(0, i);
            long result;
            while ((result = publication.offer(message, 0, MESSAGE_LENGTH)) == OfferResult.BACK_PRESSURED
                || result == OfferResult.NOT_CONNECTED) {
                assertThat(System.currentTimeMillis()).as("offer of message %d in time", i).isLessThan(deadlineMs);
                backOff.idle();
            }
            assertThat(result).as("offer of message %d", i).isPositive();
            backOff.reset();
        }
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        final long deadlineMs = System.currentTimeMillis() + DEADLINE_MS;
        while (!condition.getAsBoolean()) {
            assertThat(System.currentTimeMillis()).as("waiting for %s", what).isLessThan(deadlineMs);
            Thread.sleep(10);
        }
    }

    private static double counterValue(MeterRegistry registry, String name, Tags tags) {
        return registry.get(name).tags(tags).functionCounter().count();
    }

    private static Gauge gauge(MeterRegistry registry, String name, Tags tags) {
        final Meter meter = registry.get(name).tags(tags).meter();
        assertThat(meter).as("%s %s", name, tags).isInstanceOf(Gauge.class);
        return (Gauge) meter;
    }

    /** A plain socket on the transport's interface, as a stranger on the segment would send from. */
    private static DatagramChannel sender(TransportConfig transport) throws IOException {
        final DatagramChannel channel = DatagramChannel.open(StandardProtocolFamily.INET);
        try {
            channel.setOption(StandardSocketOptions.IP_MULTICAST_IF,
                NetworkInterface.getByName(transport.networkInterface().name()));
            channel.setOption(StandardSocketOptions.IP_MULTICAST_TTL, transport.ttl());
            channel.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        } catch (IOException | RuntimeException ex) {
            channel.close();
            throw ex;
        }
        return channel;
    }
}
