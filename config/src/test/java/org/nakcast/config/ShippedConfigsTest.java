package org.nakcast.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.nakcast.config.TestConfigs.address;

import com.fasterxml.jackson.annotation.JsonAlias;
import com.fasterxml.jackson.annotation.JsonProperty;

import java.io.IOException;
import java.io.InputStream;
import java.net.NetworkInterface;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/** The two configs the module ships: they load, on this machine and on the LAN machine they describe. */
class ShippedConfigsTest {
    /** The module root is the test's working directory. */
    private static final Path DEFAULT_FILE = Path.of("nakcast.yaml");
    private static final Path LAN_EXAMPLE_FILE = Path.of("lan-example.yaml");
    private static final Pattern KEY_LINE = Pattern.compile("^\\s*(- )?[a-z-]+:.*");

    /** The machine lan-example.yaml is written for: eth0 and eth1 on two 1500-byte MTU LANs. */
    private static final NetworkInterfaces LAN_MACHINE = NetworkInterfaces.of(List.of(
        new NetworkInterfaceInfo("lo", List.of(address("127.0.0.1")), 65_536, true),
        new NetworkInterfaceInfo("eth0", List.of(address("192.168.10.21")), 1500, true),
        new NetworkInterfaceInfo("eth1", List.of(address("192.168.11.21")), 1500, true)));

    @Test
    void theDefaultLoadsOnThisMachineOnLoopbackWithTtl0() throws Exception {
        NodeConfig config = NodeConfig.load(DEFAULT_FILE);

        TransportConfig local = config.transports().get(0);
        assertThat(local.networkInterface().name()).isEqualTo("lo");
        assertThat(local.networkInterface().address().isLoopbackAddress()).isTrue();
        assertThat(local.networkInterface().mtu()).isEqualTo(NetworkInterface.getByName("lo").getMTU());
        assertThat(local.ttl()).isZero();
        assertThat(local.group().isMulticastAddress()).isTrue();
    }

    @Test
    void theDefaultHasAFlyweightAndAnFstSampleTopic() {
        NodeConfig config = NodeConfig.load(DEFAULT_FILE);

        assertThat(config.topic("prices").codec()).isEqualTo("flyweight");
        assertThat(config.topic("orders").codec()).isEqualTo("fst");
        assertThat(config.topic("orders").allowedClasses()).containsExactly(
            "org.nakcast.codecs.sample.Order", "org.nakcast.codecs.sample.OrderLeg",
            "org.nakcast.codecs.sample.Side", "org.nakcast.codecs.sample.Instrument", "java.util.ArrayList");
    }

    @Test
    void theRecoveryExampleIsTheDefaultWithItsOrdersRecordedOnThisHost() {
        final NodeConfig recovery = NodeConfig.load(DEFAULT_FILE.resolveSibling("recovery-example.yaml"));
        final NodeConfig defaults = NodeConfig.load(DEFAULT_FILE);

        assertThat(recovery.transports()).isEqualTo(defaults.transports());
        assertThat(recovery.recordedTopics()).extracting(TopicConfig::name).containsExactly("orders");
        assertThat(recovery.topics()).extracting(topic -> topic.withRecord(false).withRecorders(List.of()))
            .isEqualTo(defaults.topics());
        assertThat(recovery.topics()).filteredOn(TopicConfig::record).singleElement()
            .satisfies(orders -> assertThat(orders.recorders()).containsExactly(recovery.recorder().replayEndpoint()));
        assertThat(recovery.recorder().replayEndpoint().address().isLoopbackAddress()).isTrue();
        assertThat(recovery.recorder().dir()).isEqualTo(Path.of("recordings").toAbsolutePath());
    }

    @Test
    void theEmbeddedDefaultIsTheDefaultFile() {
        assertThat(NodeConfig.embeddedDefault()).isEqualTo(NodeConfig.load(DEFAULT_FILE));
    }

    @Test
    void bothFilesArePackagedAsTheyAreWritten() throws IOException {
        assertThat(resource(NodeConfig.EMBEDDED_DEFAULT_RESOURCE)).isEqualTo(Files.readString(DEFAULT_FILE));
        assertThat(resource(NodeConfig.LAN_EXAMPLE_RESOURCE)).isEqualTo(Files.readString(LAN_EXAMPLE_FILE));
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = ShippedConfigsTest.class.getClassLoader().getResourceAsStream(name)) {
            assertThat(in).as(name).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void theLanExampleLoadsOnTheMachineItDescribes() {
        NodeConfig config =
            NodeConfig.load(LAN_EXAMPLE_FILE, ConcludeContext.system().withNetworkInterfaces(LAN_MACHINE));

        TransportConfig lan = config.transport("lan");
        assertThat(lan.networkInterface().name()).isEqualTo("eth0");
        assertThat(lan.ttl()).isEqualTo(1);
        assertThat(lan.datagramSize().bytes() + TransportChecks.IPV4_UDP_HEADERS).isLessThanOrEqualTo(1500);
        assertThat(config.node().threading()).isEqualTo(ThreadingMode.DEDICATED);
        assertThat(config.topic("orders").lossPolicy()).isEqualTo(LossPolicy.DROP);
        assertThat(config.lines(config.topic("prices"))).extracting(line -> line.networkInterface().name())
            .as("prices travels on two lines, one per NIC").containsExactly("eth0", "eth1");
        assertThat(config.topic("orders").lines()).containsExactly("lan");
        assertThat(config.topic("prices").flowControl()).as("prices supersede: the publisher keeps its pace")
            .isEqualTo(FlowControlMode.MAX);
        assertThat(config.topic("orders").flowControl()).as("orders must all arrive").isEqualTo(FlowControlMode.MIN);
    }

    @Test
    void everyKeyOfTheLanExampleCarriesAComment() throws IOException {
        List<String> keyLines = Files.readAllLines(LAN_EXAMPLE_FILE).stream()
            .filter(line -> KEY_LINE.matcher(line).matches())
            .toList();

        assertThat(keyLines).hasSizeGreaterThan(30)
            .allSatisfy(line -> assertThat(line).as("a comment on the key line").matches(".*\\S\\s+# \\S.*"));
    }

    @Test
    void theLanExampleSetsEveryKeyThereIs() throws IOException {
        String example = Files.readString(LAN_EXAMPLE_FILE);

        for (Class<? extends Record> section : List.of(NodeConfig.class, NodeSettings.class, TransportConfig.class,
            TopicConfig.class, RecorderConfig.class)) {
            for (String key : keysOf(section)) {
                assertThat(example).as("lan-example.yaml sets %s", key).containsPattern("(?m)^\\s*(- )?" + key + ":");
            }
        }
    }

    /** @return the keys a section is read from: each component's, and any other key it is also read from */
    private static List<String> keysOf(Class<? extends Record> section) {
        return Arrays.stream(section.getRecordComponents()).map(RecordComponent::getAccessor)
            .flatMap(accessor -> Stream.concat(Stream.of(accessor.getAnnotation(JsonProperty.class).value()),
                Stream.ofNullable(accessor.getAnnotation(JsonAlias.class)).map(JsonAlias::value)
                    .flatMap(Arrays::stream)))
            .toList();
    }
}
