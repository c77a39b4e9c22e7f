package org.nakcast.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;
import static org.nakcast.config.TestConfigs.FAKE_CONTEXT;
import static org.nakcast.config.TestConfigs.VALID;
import static org.nakcast.config.TestConfigs.failure;
import static org.nakcast.config.TestConfigs.parse;

import java.net.NetworkInterface;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

/** Configs built in code, defaults, lookups and the rendering of problems. */
class NodeConfigTest {
    private static final TransportConfig LOCAL = new TransportConfig("local", "lo", "239.255.0.1", 40_456);
    private static final TopicConfig PRICES = new TopicConfig("prices", 1, "local", "flyweight");

    @Test
    void aConfigBuiltInCodeConcludesOnThisMachine() throws Exception {
        NodeConfig config = new NodeConfig(null, List.of(LOCAL), List.of(PRICES)).conclude();

        NetworkInterfaceRef lo = config.transport("local").networkInterface();
        assertThat(lo.isResolved()).isTrue();
        assertThat(lo.name()).isEqualTo("lo");
        assertThat(lo.mtu()).isEqualTo(NetworkInterface.getByName("lo").getMTU());
        assertThat(LOCAL.networkInterface().isResolved()).isFalse();
    }

    @Test
    void loopbackIsAcceptedThoughTheJdkSaysItCannotMulticast() throws Exception {
        NetworkInterface lo = NetworkInterface.getByName("lo");

        long largestDatagram =
            Math.min(lo.getMTU() - TransportChecks.IPV4_UDP_HEADERS, TransportChecks.MAX_DATAGRAM_SIZE);

        NodeConfig config = new NodeConfig(null, List.of(LOCAL.withDatagramSize(new ByteSize(largestDatagram))),
            List.of(PRICES)).conclude();

        assertThat(lo.supportsMulticast()).as("what the JDK says of lo").isFalse();
        assertThat(config.transport("local").networkInterface().name()).isEqualTo("lo");
        assertThat(config.transport("local").datagramSize().bytes()).isEqualTo(largestDatagram);
    }

    @Test
    void aNicThisMachineLacksIsNamedWithTheNicsItHas() throws Exception {
        NodeConfig config = new NodeConfig(null,
            List.of(new TransportConfig("lan", "nakcast-absent0", "239.255.0.1", 1)),
            List.of(new TopicConfig("prices", 1, "lan", "flyweight")));

        ConfigException failure = failure(config::conclude);

        assertThat(failure.problems()).singleElement().satisfies(problem -> {
            assertThat(problem.message()).isEqualTo("unknown interface 'nakcast-absent0'");
            assertThat(problem.hint()).contains(NetworkInterface.networkInterfaces().map(NetworkInterface::getName)
                .toList());
        });
    }

    @Test
    void defaultsApplyToEverythingLeftOut() {
        NodeConfig config = new NodeConfig(null, List.of(LOCAL), List.of(PRICES));

        assertThat(config.node()).isEqualTo(NodeSettings.defaults());
        assertThat(config.node().name()).isEqualTo("nakcast-" + ProcessHandle.current().pid());
        assertThat(config.node().threading()).isEqualTo(ThreadingMode.SHARED);
        assertThat(config.node().idleStrategy()).isEqualTo(IdleStrategyType.BACKOFF);
        TransportConfig local = config.transport("local");
        assertThat(local.ttl()).isZero();
        assertThat(local.datagramSize().bytes()).isEqualTo(1408);
        assertThat(local.socketSendBuffer()).isEqualTo(ByteSize.parse("2m"));
        assertThat(local.socketReceiveBuffer()).isEqualTo(ByteSize.parse("2m"));
        assertThat(local.sendRate().isZero()).isTrue();
        assertThat(local.repairRate().isZero()).isTrue();
        TopicConfig prices = config.topic("prices");
        assertThat(prices.history()).isEqualTo(ByteSize.parse("16m"));
        assertThat(prices.heartbeat()).isEqualTo(Duration.ofMillis(100));
        assertThat(prices.flowControl()).isEqualTo(FlowControlMode.MIN);
        assertThat(prices.lossPolicy()).isEqualTo(LossPolicy.CONTINUE);
        assertThat(prices.lateJoin()).isEqualTo(LateJoinPolicy.NOW);
        assertThat(prices.publisherTimeout()).isEqualTo(Duration.ofSeconds(2));
        assertThat(prices.flowControlTimeout()).isEqualTo(Duration.ofSeconds(2));
        assertThat(prices.closeLinger()).isEqualTo(Duration.ofMillis(100));
        assertThat(prices.deliveryQueue()).isEqualTo(ByteSize.parse("4m"));
        assertThat(prices.deliveryQueueTimeout()).isEqualTo(Duration.ofMillis(100));
        assertThat(prices.allowedClasses()).isEmpty();
    }

    @Test
    void aSendBurstSmallerThanADatagramIsAProblemAndZeroMeansTheDefault() {
        NodeConfig config = new NodeConfig(null, List.of(LOCAL.withSendBurst(ByteSize.parse("1k"))), List.of(PRICES));

        ConfigException failure = failure(() -> config.conclude(FAKE_CONTEXT));

        assertThat(failure.problems()).singleElement().satisfies(problem -> {
            assertThat(problem.path()).isEqualTo("transports[0].send-burst");
            assertThat(problem.message()).contains("smaller than one datagram");
        });
        assertThat(LOCAL.sendBurstBytes()).isEqualTo(64 * 1408);
        assertThat(LOCAL.withSendRate(ByteSize.parse("1g")).sendBurstBytes()).isEqualTo((1L << 30) / 1000);
        assertThat(LOCAL.withSendBurst(ByteSize.parse("256k")).sendBurstBytes()).isEqualTo(256 * 1024);
    }

    @Test
    void theRepairRateIs32mUnpacedAndHalfTheSendRatePacedUnlessSet() {
        assertThat(LOCAL.repairRateBytes()).isEqualTo(32L << 20);
        assertThat(LOCAL.withSendRate(ByteSize.parse("100m")).repairRateBytes()).isEqualTo(50L << 20);
        assertThat(LOCAL.withRepairRate(ByteSize.parse("4m")).repairRateBytes()).isEqualTo(4L << 20);
        assertThat(LOCAL.withSendRate(ByteSize.parse("100m")).withRepairRate(ByteSize.parse("10m")).repairRateBytes())
            .isEqualTo(10L << 20);
        assertThat(LOCAL.repairBurstBytes()).as("1 ms of 32m is less than 64 datagrams").isEqualTo(64 * 1408);
        assertThat(LOCAL.repairPercentOfData()).as("unpaced, new data adds to the budget").isEqualTo(50);
        assertThat(LOCAL.withSendRate(ByteSize.parse("100m")).repairPercentOfData()).isZero();
        assertThat(LOCAL.withRepairRate(ByteSize.parse("1g")).repairBurstBytes()).isEqualTo((1L << 30) / 1000);
    }

    @Test
    void aRepairRateNotBelowTheSendRateIsAProblem() {
        NodeConfig config = new NodeConfig(null,
            List.of(LOCAL.withSendRate(ByteSize.parse("10m")).withRepairRate(ByteSize.parse("10m"))), List.of(PRICES));

        ConfigException failure = failure(() -> config.conclude(FAKE_CONTEXT));

        assertThat(failure.problems()).singleElement().satisfies(problem -> {
            assertThat(problem.path()).isEqualTo("transports[0].repair-rate");
            assertThat(problem.message()).isEqualTo("repair-rate 10m is not below send-rate 10m");
            assertThat(problem.hint()).contains("hold back new data");
        });
        new NodeConfig(null, List.of(LOCAL.withSendRate(ByteSize.parse("10m")).withRepairRate(ByteSize.parse("9m"))),
            List.of(PRICES)).conclude(FAKE_CONTEXT);
        new NodeConfig(null, List.of(LOCAL.withRepairRate(ByteSize.parse("1g"))), List.of(PRICES))
            .conclude(FAKE_CONTEXT);
    }

    @Test
    void aNegativeCloseLingerBuiltInCodeIsAProblem() {
        NodeConfig config = new NodeConfig(null, List.of(LOCAL),
            List.of(PRICES.withCloseLinger(Duration.ofMillis(-1))));

        ConfigException failure = failure(() -> config.conclude(FAKE_CONTEXT));

        assertThat(failure.problems()).singleElement().satisfies(problem -> {
            assertThat(problem.path()).isEqualTo("topics[0].close-linger");
            assertThat(problem.message()).isEqualTo("close-linger must not be negative (was -1ms)");
        });
    }

    @Test
    void aDeliveryQueueSmallerThan64DatagramsIsAProblem() {
        NodeConfig config = new NodeConfig(null, List.of(LOCAL),
            List.of(PRICES.withDeliveryQueue(ByteSize.parse("64k"), Duration.ofMillis(50))));

        ConfigException failure = failure(() -> config.conclude(FAKE_CONTEXT));

        assertThat(failure.problems()).singleElement().satisfies(problem -> {
            assertThat(problem.path()).isEqualTo("topics[0].delivery-queue");
            assertThat(problem.message()).contains("holds fewer than 64 datagrams");
        });
    }

    @Test
    void aTopicKeepsAtLeastOnePublisherStream() {
        assertThat(PRICES.maxPublishers()).isEqualTo(TopicConfig.DEFAULT_MAX_PUBLISHERS);
        NodeConfig config = new NodeConfig(null, List.of(LOCAL), List.of(PRICES.withMaxPublishers(0)));

        ConfigException failure = failure(() -> config.conclude(FAKE_CONTEXT));

        assertThat(failure.problems()).singleElement().satisfies(problem -> {
            assertThat(problem.path()).isEqualTo("topics[0].max-publishers");
            assertThat(problem.message()).isEqualTo("max-publishers must be at least 1 (was 0)");
        });
        assertThat(new NodeConfig(null, List.of(LOCAL), List.of(PRICES.withMaxPublishers(1))).conclude(FAKE_CONTEXT)
            .topic("prices").maxPublishers()).isEqualTo(1);
    }

    @Test
    void aTopicNamesAtMostTwoRecordersEachOnce() {
        final Endpoint a = Endpoint.parse("10.0.0.7:40480");
        final Endpoint b = Endpoint.parse("10.0.0.8:40480");
        NodeConfig three = new NodeConfig(null, List.of(LOCAL),
            List.of(PRICES.withRecorders(List.of(a, b, Endpoint.parse("10.0.0.9:40480")))));
        NodeConfig twice = new NodeConfig(null, List.of(LOCAL), List.of(PRICES.withRecorders(List.of(a, a))));

        assertThat(failure(() -> three.conclude(FAKE_CONTEXT)).problems()).singleElement().satisfies(problem -> {
            assertThat(problem.path()).isEqualTo("topics[0].recorders");
            assertThat(problem.message()).isEqualTo("recorders names at most two recorders, A and B (was 3)");
        });
        assertThat(failure(() -> twice.conclude(FAKE_CONTEXT)).problems()).singleElement().satisfies(problem -> {
            assertThat(problem.path()).isEqualTo("topics[0].recorders[1]");
            assertThat(problem.message()).isEqualTo("recorder 10.0.0.7:40480 is listed twice");
        });
        assertThat(new NodeConfig(null, List.of(LOCAL), List.of(PRICES.withRecorders(List.of(a, b))))
            .conclude(FAKE_CONTEXT).topic("prices").recorders()).containsExactly(a, b);
    }

    @Test
    void timeoutsShorterThanTwoHeartbeatsAreProblems() {
        NodeConfig config = new NodeConfig(null, List.of(LOCAL),
            List.of(PRICES.withHeartbeat(Duration.ofMillis(100)).withPublisherTimeout(Duration.ofMillis(150))
                .withFlowControlTimeout(Duration.ofMillis(199))));

        ConfigException failure = failure(() -> config.conclude(FAKE_CONTEXT));

        assertThat(failure.problems()).extracting(Problem::path)
            .containsExactly("topics[0].publisher-timeout", "topics[0].flow-control-timeout");
        assertThat(failure.problems()).extracting(Problem::message).allSatisfy(message ->
            assertThat(message).contains("at least twice the heartbeat (100ms)"));
        assertThat(failure.problems().get(1).message()).contains("was 199ms");
    }

    @Test
    void aFileAndTheSameConfigBuiltInCodeAreEqualOnceConcluded() {
        NodeConfig fromFile = parse(VALID);
        NodeConfig inCode = new NodeConfig(NodeSettings.defaults().withName("test-node"),
            List.of(new TransportConfig("lan", "eth0", "239.192.10.1", 40_456)),
            List.of(new TopicConfig("prices", 1, "lan", "flyweight"), new TopicConfig("orders", 2, "lan", "fst")))
            .conclude(FAKE_CONTEXT);

        assertThat(inCode).isEqualTo(fromFile);
    }

    @Test
    void aConcludedConfigRenamedForASecondNodeHasTheCountersFileOfItsNewNameUnlessOneWasSet() {
        final NodeConfig first = parse(VALID);
        final NodeConfig second = first.withNodeName("second-node").conclude(FAKE_CONTEXT);

        assertThat(second.node().name()).isEqualTo("second-node");
        assertThat(second.node().countersFile())
            .isEqualTo(Path.of(System.getProperty("java.io.tmpdir"), "nakcast", "second-node.counters"));
        assertThat(second.transports()).isEqualTo(first.transports());
        assertThat(second.topics()).isEqualTo(first.topics());
        assertThat(second.recorder()).isEqualTo(first.recorder());
        final NodeConfig set = parse(
            VALID.replace("name: test-node", "name: test-node\n  counters-file: /dev/shm/n.counters"));
        assertThat(set.node().withName("second-node").countersFile()).as("a file set by hand stays")
            .isEqualTo(Path.of("/dev/shm/n.counters"));
    }

    @Test
    void theCountersFileIsDerivedFromTheNodeNameUnlessSet() {
        assertThat(parse(VALID).node().countersFile())
            .isEqualTo(Path.of(System.getProperty("java.io.tmpdir"), "nakcast", "test-node.counters"));
        assertThat(parse(VALID.replace("name: test-node", "name: test-node\n  counters-file: /dev/shm/n.counters"))
            .node().countersFile()).isEqualTo(Path.of("/dev/shm/n.counters"));
    }

    @Test
    void aNodeNameMustBeUsableInAFileName() {
        Problem problem = TestConfigs.onlyProblemOf(VALID.replace("name: test-node", "name: test/node"));

        assertThat(problem.path()).isEqualTo("node.name");
        assertThat(problem.message()).contains("letters, digits", "'test/node'");
    }

    @Test
    void problemsOfACodeBuiltConfigHaveKeyPathsButNoLines() {
        NodeConfig config = new NodeConfig(null, List.of(LOCAL.withTtl(300)),
            List.of(PRICES.withHeartbeat(Duration.ZERO), new TopicConfig("prices", 1, "remote", "flyweight")));

        ConfigException failure = failure(() -> config.conclude(FAKE_CONTEXT));

        assertThat(failure.problems()).extracting(Problem::path).containsExactly(
            "transports[0].ttl", "topics[0].heartbeat", "topics[1].name", "topics[1].id", "topics[1].transport");
        assertThat(failure.problems()).noneMatch(Problem::hasLocation);
        assertThat(failure.getMessage()).startsWith("NodeConfig: 5 problems")
            .contains("  - ttl must be in 0..255 (was 300) at transports[0].ttl" + System.lineSeparator());
    }

    @Test
    void emptyEntriesAndMissingValuesOfACodeBuiltConfigAreNamed() {
        NodeConfig config = new NodeConfig(null,
            Arrays.asList(
                new TransportConfig(null, null, null, 1, 0, null, null, null, null, null, null, null, false), null),
            Arrays.asList(new TopicConfig(null, 1, null, null), null));

        ConfigException failure = failure(() -> config.conclude(FAKE_CONTEXT));

        assertThat(failure.problems()).extracting(Problem::path, Problem::message).containsExactly(
            tuple("transports[0].name", "transport name must not be empty"),
            tuple("transports[0].group", "group must be set"),
            tuple("transports[0].interface", "interface must be set"),
            tuple("transports[1]", "empty entry in transports"),
            tuple("topics[0].name", "topic name must not be empty"),
            tuple("topics[0].transport", "transport must be set"),
            tuple("topics[0].codec", "codec must be set"),
            tuple("topics[1]", "empty entry in topics"));
    }

    @Test
    void concludingAgainChangesNothing() {
        NodeConfig once = parse(VALID);

        assertThat(once.conclude(FAKE_CONTEXT)).isEqualTo(once);
    }

    @Test
    void lookupsByNameSuggestTheClosestName() {
        NodeConfig config = parse(VALID);

        assertThat(config.topic("orders").id()).isEqualTo(2);
        assertThat(config.transport("lan").port()).isEqualTo(40_456);
        assertThatThrownBy(() -> config.topic("order")).isInstanceOf(IllegalArgumentException.class)
            .hasMessage("no topic 'order' in this config; did you mean 'orders'? known topics: orders, prices");
        assertThatThrownBy(() -> config.transport("wan"))
            .hasMessage("no transport 'wan' in this config; did you mean 'lan'? known transports: lan");
    }

    @Test
    void theListsOfAConfigCannotBeChanged() {
        NodeConfig config = parse(VALID);

        assertThatThrownBy(() -> config.topics().clear()).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> config.transports().clear()).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void aGroupBuiltInCodeMustBeAnAddressLiteral() {
        assertThatThrownBy(() -> new TransportConfig("lan", "lo", "localhost", 1))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("'localhost' is not an IP address");
    }
}
