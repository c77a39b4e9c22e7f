package org.nakcast.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;
import static org.nakcast.config.TestConfigs.VALID;
import static org.nakcast.config.TestConfigs.assertAt;
import static org.nakcast.config.TestConfigs.onlyProblemOf;
import static org.nakcast.config.TestConfigs.parse;
import static org.nakcast.config.TestConfigs.problemsOf;

import java.time.Duration;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

/** What conclude() says about topics. */
class TopicChecksTest {
    private static final String FEWER_THAN_64_DATAGRAMS =
        "delivery-queue 64k holds fewer than 64 datagrams of transport 'lan' (1408)";

    @Test
    void anUnknownTransportSuggestsTheClosestOne() {
        String yaml = VALID.replace("    transport: lan\n    codec: fst", "    transport: lna\n    codec: fst");

        Problem problem = onlyProblemOf(yaml);

        assertThat(problem.path()).isEqualTo("topics[1].transport");
        assertThat(problem.describe()).isEqualTo("unknown transport 'lna' at topics[1].transport (line "
            + TestConfigs.lineOf(yaml, "lna") + ", column " + TestConfigs.columnOf(yaml, "lna")
            + "); did you mean 'lan'? known transports: lan");
    }

    @Test
    void anUnknownCodecSuggestsTheClosestOneTheNodeHas() {
        String yaml = VALID.replace("codec: fst", "codec: fts");

        Problem problem = onlyProblemOf(yaml);

        assertThat(problem.path()).isEqualTo("topics[1].codec");
        assertThat(problem.message()).isEqualTo("unknown codec 'fts'");
        assertThat(problem.hint()).startsWith("did you mean 'fst'? known codecs: fst, ")
            .contains(TestConfigs.NODE_CODECS);
        assertAt(problem, yaml, "fts");
    }

    @Test
    void codecNamesTheApplicationRegisteredAreKnownWhenPassed() {
        String yaml = VALID.replace("codec: fst", "codec: protobuf");
        ConcludeContext withProtobuf = TestConfigs.FAKE_CONTEXT.withCodecNames(Set.of("flyweight", "fst", "protobuf"));

        assertThat(onlyProblemOf(yaml).message()).isEqualTo("unknown codec 'protobuf'");
        assertThat(NodeConfig.parse(yaml, TestConfigs.SOURCE, withProtobuf).topic("orders").codec())
            .isEqualTo("protobuf");
    }

    @Test
    void withoutCodecNamesAnyCodecIsLeftToTheNodeButOneMustBeNamed() {
        ConcludeContext withoutCodecs = ConcludeContext.system().withNetworkInterfaces(TestConfigs.FAKE_MACHINE);
        String protobuf = VALID.replace("codec: fst", "codec: protobuf");
        String missing = VALID.replace("    codec: fst\n", "");

        assertThat(withoutCodecs.codecNames()).isEmpty();
        assertThat(NodeConfig.parse(protobuf, TestConfigs.SOURCE, withoutCodecs).topic("orders").codec())
            .isEqualTo("protobuf");
        assertThatThrownBy(() -> NodeConfig.parse(missing, TestConfigs.SOURCE, withoutCodecs))
            .isInstanceOf(ConfigException.class).hasMessageContaining("missing required key 'codec' at topics[1]");
        NodeConfig inCode = NodeConfig.parse(VALID, TestConfigs.SOURCE, withoutCodecs);
        NodeConfig noCodec = new NodeConfig(inCode.node(), inCode.transports(),
            List.of(inCode.topic("orders").withCodec(null)));
        assertThatThrownBy(() -> noCodec.conclude(withoutCodecs))
            .isInstanceOf(ConfigException.class).hasMessageContaining("codec must be set at topics[0].codec");
    }

    @Test
    void topicIdsAreUnique() {
        String yaml = VALID.replace("id: 2", "id: 1");

        Problem problem = onlyProblemOf(yaml);

        assertThat(problem.describe()).startsWith("duplicate topic id 1 at topics[1].id");
        assertThat(problem.line()).isEqualTo(TestConfigs.lineOf(yaml, "name: orders") + 1);
        assertThat(problem.hint()).isEqualTo("topics[0] has it too");
    }

    @Test
    void topicNamesAreUnique() {
        Problem problem = onlyProblemOf(VALID.replace("name: orders", "name: prices"));

        assertThat(problem.path()).isEqualTo("topics[1].name");
        assertThat(problem.message()).isEqualTo("duplicate topic name 'prices'");
    }

    @Test
    void topicIdsArePositive() {
        Problem problem = onlyProblemOf(VALID.replace("id: 2", "id: 0"));

        assertThat(problem.message()).isEqualTo("topic id must be in 1..2147483647 (was 0)");
    }

    @Test
    void theLargestTopicIdIsAccepted() {
        assertThat(parse(VALID.replace("id: 2", "id: 2147483647")).topic("orders").id()).isEqualTo(Integer.MAX_VALUE);
    }

    @Test
    void historyMustHoldADatagramAndFitTheLargestRing() {
        List<Problem> problems = problemsOf(VALID
            .replace("    codec: flyweight", "    codec: flyweight\n    history: 1k")
            .replace("    codec: fst", "    codec: fst\n    history: 2g"));

        assertThat(problems).extracting(Problem::path, Problem::message).containsExactly(
            tuple("topics[0].history", "history 1k is smaller than one datagram of transport 'lan' (1408)"),
            tuple("topics[1].history", "history must be at most 1g (was 2g)"));
    }

    @Test
    void aDeliveryQueueHoldsSixtyFourDatagramsAndSaysHowLargeItMustBe() {
        String yaml = withPrices("delivery-queue: 64k", "max-message: 8k");

        Problem problem = onlyProblemOf(yaml);

        assertThat(problem.path()).isEqualTo("topics[0].delivery-queue");
        assertThat(problem.message()).isEqualTo(FEWER_THAN_64_DATAGRAMS);
        assertThat(problem.hint())
            .isEqualTo("a queue that small stalls its streams on every datagram: raise delivery-queue to at least 88k");
        TestConfigs.assertAtValue(problem, yaml, "delivery-queue: 64k");
        assertThat(parse(yaml.replace("delivery-queue: 64k", "delivery-queue: 88k")).topic("prices").deliveryQueue())
            .isEqualTo(ByteSize.parse("88k"));
    }

    @Test
    void aDeliveryQueueTooSmallForBothRulesIsOneProblemSizedForBoth() {
        Problem problem = onlyProblemOf(withPrices("delivery-queue: 64k"));

        assertThat(problem.message()).isEqualTo(FEWER_THAN_64_DATAGRAMS);
        assertThat(problem.hint()).endsWith("raise delivery-queue to at least 2m");
    }

    @Test
    void aDeliveryQueueCarriesMaxMessageBesideTheDatagramsToTheByte() {
        String carried = withPrices("delivery-queue: 1m", "max-message: 746k");
        String oneByteMore = carried.replace("max-message: 746k", "max-message: " + (746 * 1024 + 1));

        Problem problem = onlyProblemOf(oneByteMore);

        assertThat(parse(carried).topic("prices").maxMessage()).isEqualTo(ByteSize.parse("746k"));
        assertThat(problem.path()).isEqualTo("topics[0].delivery-queue");
        assertThat(problem.message()).isEqualTo("delivery-queue 1m carries messages of at most 746k beside datagrams of"
            + " transport 'lan' (1408), less than max-message 763905");
        assertThat(problem.hint()).isEqualTo("a subscription that polls could not take the longest messages: raise"
            + " delivery-queue to at least 2m, or lower max-message to 746k");
    }

    @Test
    void aMaxMessageNoDeliveryQueueCarriesSaysHowLongItMayBe() {
        Problem problem = onlyProblemOf(withPrices("max-message: 1g"));

        assertThat(problem.path()).isEqualTo("topics[0].delivery-queue");
        assertThat(problem.message()).endsWith("less than max-message 1g");
        assertThat(problem.hint()).endsWith("no queue carries max-message 1g: lower it to 786410k and raise"
            + " delivery-queue to at least 1g");
    }

    /** The valid config with these lines added to topic prices. */
    private static String withPrices(String... lines) {
        return VALID.replace("    codec: flyweight", "    codec: flyweight\n    " + String.join("\n    ", lines));
    }

    @Test
    void historyAndHeartbeatMustBePositive() {
        List<Problem> problems = problemsOf(VALID
            .replace("    codec: flyweight", "    codec: flyweight\n    history: 0\n    heartbeat: 0ms"));

        assertThat(problems).extracting(Problem::message)
            .containsExactly("history must be positive (was 0)", "heartbeat must be positive (was 0s)");
    }

    @Test
    void allowedClassesMustBeClassNames() {
        String yaml = VALID.replace("    codec: fst", """
                codec: fst
                allowed-classes:
                  - org.nakcast.codecs.sample.Order
                  - org.nakcast..Broken
                  - org.nakcast.codecs.sample.Order$Leg
                  - 1st.Class
            """.stripTrailing());

        List<Problem> problems = problemsOf(yaml);

        assertThat(problems).extracting(Problem::path, Problem::message).containsExactly(
            tuple("topics[1].allowed-classes[1]", "'org.nakcast..Broken' is not a class name"),
            tuple("topics[1].allowed-classes[3]", "'1st.Class' is not a class name"));
        assertAt(problems.get(0), yaml, "org.nakcast..Broken");
    }

    @Test
    void everyOptionalSettingIsRead() {
        TopicConfig orders = parse(VALID.replace("    codec: fst", """
                codec: fst
                history: 64m
                heartbeat: 250us
                allowed-classes: [org.nakcast.codecs.sample.Order]
            """.stripTrailing())).topic("orders");

        assertThat(orders.history()).isEqualTo(ByteSize.parse("64m"));
        assertThat(orders.heartbeat()).isEqualTo(Duration.ofNanos(250_000));
        assertThat(orders.allowedClasses()).containsExactly("org.nakcast.codecs.sample.Order");
    }

    @Test
    void aNodeNeedsATransportAndATopic() {
        String yaml = "transports: []\ntopics: []\n";

        List<Problem> problems = problemsOf(yaml);

        assertThat(problems).extracting(Problem::path, Problem::message)
            .containsExactly(tuple("transports", "no transports"), tuple("topics", "no topics"));
        TestConfigs.assertAtValue(problems.get(1), yaml, "topics: []");
    }

    @Test
    void everyMeaningProblemIsReportedAtOnceInDocumentOrder() {
        String yaml = VALID
            .replace("239.192.10.1", "10.1.1.1")
            .replace("port: 40456", "port: 0")
            .replace("codec: flyweight", "codec: flywieght")
            .replace("    transport: lan\n    codec: fst", "    transport: wan\n    codec: fst")
            .replace("id: 2", "id: 1");

        ConfigException failure = TestConfigs.failure(() -> parse(yaml));

        assertThat(failure.problems()).extracting(Problem::path).containsExactly(
            "transports[0].group", "transports[0].port", "topics[0].codec", "topics[1].id", "topics[1].transport");
        assertThat(failure.problems()).allSatisfy(problem -> assertThat(problem.hasLocation()).isTrue());
        assertThat(failure.getMessage().lines()).hasSize(6).first().isEqualTo("test.yaml: 5 problems");
    }
}
