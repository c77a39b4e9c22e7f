package org.nakcast.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.nakcast.config.TestConfigs.FAKE_CONTEXT;
import static org.nakcast.config.TestConfigs.assertAt;
import static org.nakcast.config.TestConfigs.assertAtValue;
import static org.nakcast.config.TestConfigs.failure;
import static org.nakcast.config.TestConfigs.onlyProblemOf;
import static org.nakcast.config.TestConfigs.parse;
import static org.nakcast.config.TestConfigs.problemsOf;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

/** What a topic's {@code transport} or {@code transports} (redundant lines) and {@code line-timeout} may say. */
class TopicLinesTest {
    /** Topic prices on two lines: md-a on eth0, md-b on lo; orders on md-a alone. */
    private static final String TWO_LINES = """
        node:
          name: test-node
        transports:
          - name: md-a
            interface: eth0
            group: 239.192.10.1
            port: 40456
          - name: md-b
            interface: lo
            group: 239.192.11.1
            port: 40456
        topics:
          - name: prices
            id: 1
            transports: [md-a, md-b]
            codec: flyweight
          - name: orders
            id: 2
            transport: md-a
            codec: fst
        """;
    private static final String PRICES_LINES = "    transports: [md-a, md-b]\n";
    private static final String ONE_OR_TWO_LINES =
        "write transport: <name> for one line, or transports: [<line A>, <line B>] for two";

    @Test
    void aTopicOnTwoLinesNamesBothInOrderAndTheConfigResolvesThem() {
        NodeConfig config = parse(TWO_LINES);

        TopicConfig prices = config.topic("prices");
        assertThat(prices.lines()).containsExactly("md-a", "md-b");
        assertThat(prices.hasTwoLines()).isTrue();
        assertThat(prices.lineTimeout()).isEqualTo(TopicConfig.DEFAULT_LINE_TIMEOUT).isEqualTo(Duration.ofMillis(10));
        assertThat(config.lines(prices)).extracting(TransportConfig::name, line -> line.networkInterface().name())
            .containsExactly(tuple("md-a", "eth0"), tuple("md-b", "lo"));
        assertThat(config.topic("orders").lines()).containsExactly("md-a");
        assertThat(config.topic("orders").hasTwoLines()).isFalse();
        assertThat(config.lines(config.topic("orders"))).containsExactly(config.transport("md-a"));
    }

    @Test
    void bothKeysAreRefused() {
        String yaml = TWO_LINES.replace(PRICES_LINES, "    transport: md-a\n" + PRICES_LINES);

        Problem problem = onlyProblemOf(yaml);

        assertThat(problem.path()).isEqualTo("topics[0].transports");
        assertThat(problem.message()).isEqualTo("topic 'prices' has both transport and transports");
        assertThat(problem.hint()).isEqualTo(ONE_OR_TWO_LINES);
        assertAtValue(problem, yaml, "transports: [md-a, md-b]");
    }

    @Test
    void neitherKeyIsRefusedNamingBoth() {
        String yaml = TWO_LINES.replace(PRICES_LINES, "");

        Problem problem = onlyProblemOf(yaml);

        assertThat(problem.path()).isEqualTo("topics[0].transport");
        assertThat(problem.message()).isEqualTo("transport must be set");
        assertThat(problem.hint()).isEqualTo(ONE_OR_TWO_LINES);
        assertAt(problem, yaml, "name: prices");
    }

    @Test
    void transportsWithOneNameSaysToWriteTransport() {
        String yaml = TWO_LINES.replace(PRICES_LINES, "    transports: [md-a]\n");

        Problem problem = onlyProblemOf(yaml);

        assertThat(problem.describe()).isEqualTo("transports must name exactly two transports, line A and line B"
            + " (was 1: [md-a]) at topics[0].transports (line " + TestConfigs.lineOf(yaml, "[md-a]") + ", column "
            + TestConfigs.columnOf(yaml, "[md-a]") + "); for one line write transport: md-a");
    }

    @Test
    void transportsWithOneNameWrittenAsAValueSaysToWriteTransport() {
        Problem problem = onlyProblemOf(TWO_LINES.replace(PRICES_LINES, "    transports: md-a\n"));

        assertThat(problem.path()).isEqualTo("topics[0].transports");
        assertThat(problem.message())
            .isEqualTo("transports must name exactly two transports, line A and line B (was 1: [md-a])");
        assertThat(problem.hint()).isEqualTo("for one line write transport: md-a");
    }

    @Test
    void transportWithAListIsRefusedSayingHowToWriteTwoLines() {
        String yaml = TWO_LINES.replace(PRICES_LINES, "    transport: [md-a, md-b]\n");

        Problem problem = onlyProblemOf(yaml);

        assertThat(problem.path()).isEqualTo("topics[0].transport");
        assertThat(problem.message()).isEqualTo("transport names one transport (was 2: [md-a, md-b])");
        assertThat(problem.hint()).isEqualTo(ONE_OR_TWO_LINES);
        assertAtValue(problem, yaml, "transport: [md-a, md-b]");
    }

    @Test
    void transportsWithMoreThanTwoNamesIsRefused() {
        String yaml = TWO_LINES.replace(PRICES_LINES, "    transports: [md-a, md-b, md-a]\n");

        Problem problem = onlyProblemOf(yaml);

        assertThat(problem.path()).isEqualTo("topics[0].transports");
        assertThat(problem.message()).isEqualTo(
            "transports must name exactly two transports, line A and line B (was 3: [md-a, md-b, md-a])");
        assertThat(problem.hint()).isEqualTo("a topic travels on one transport or on two lines");
    }

    @Test
    void anEmptyTransportsListIsRefused() {
        Problem problem = onlyProblemOf(TWO_LINES.replace(PRICES_LINES, "    transports: []\n"));

        assertThat(problem.path()).isEqualTo("topics[0].transports");
        assertThat(problem.message()).startsWith("transports must name exactly two transports").endsWith("(was 0: [])");
    }

    @Test
    void anUnknownLineIsNamedByItsPlaceInTheListWithTheClosestName() {
        String yaml = TWO_LINES.replace(PRICES_LINES, "    transports: [md-a, md-c]\n");

        Problem problem = onlyProblemOf(yaml);

        assertThat(problem.path()).isEqualTo("topics[0].transports[1]");
        assertThat(problem.message()).isEqualTo("unknown transport 'md-c'");
        assertThat(problem.hint()).startsWith("did you mean 'md-").endsWith("known transports: md-a, md-b");
        assertAt(problem, yaml, "md-c");
    }

    @Test
    void bothLinesUnknownAreBothReported() {
        List<Problem> problems = problemsOf(TWO_LINES.replace(PRICES_LINES, "    transports: [line-a, line-b]\n"));

        assertThat(problems).extracting(Problem::path, Problem::message).containsExactly(
            tuple("topics[0].transports[0]", "unknown transport 'line-a'"),
            tuple("topics[0].transports[1]", "unknown transport 'line-b'"));
    }

    @Test
    void theSameTransportTwiceIsRefused() {
        String yaml = TWO_LINES.replace(PRICES_LINES, "    transports: [md-a, md-a]\n");

        Problem problem = onlyProblemOf(yaml);

        assertThat(problem.path()).isEqualTo("topics[0].transports[1]");
        assertThat(problem.message()).isEqualTo("topic 'prices' names transport 'md-a' twice in transports");
        assertThat(problem.hint()).isEqualTo("line A and line B are two transports, on different interfaces or groups");
    }

    @Test
    void twoLinesOnTheSameInterfaceAndGroupAreRefusedHoweverTheInterfaceIsNamed() {
        String yaml = TWO_LINES.replace("""
                interface: lo
                group: 239.192.11.1
                port: 40456
            """, """
                interface: 192.168.10.21
                group: 239.192.10.1
                port: 40458
            """);

        Problem problem = onlyProblemOf(yaml);

        assertThat(problem.path()).isEqualTo("topics[0].transports");
        assertThat(problem.message())
            .isEqualTo("lines 'md-a' and 'md-b' of topic 'prices' share interface 'eth0' and group 239.192.10.1");
        assertThat(problem.hint()).isEqualTo("redundant lines must differ in interface or group, or one fault takes"
            + " both");
        assertAtValue(problem, yaml, "transports: [md-a, md-b]");
    }

    @Test
    void twoLinesMayShareAnInterfaceOnDifferentGroupsOrAGroupOnDifferentInterfaces() {
        String sameInterface = TWO_LINES.replace("interface: lo", "interface: eth0");
        String sameGroup = TWO_LINES.replace("""
                group: 239.192.11.1
                port: 40456
            """, """
                group: 239.192.10.1
                port: 40458
            """);

        assertThat(parse(sameInterface).lines(parse(sameInterface).topic("prices")))
            .extracting(line -> line.networkInterface().name()).containsExactly("eth0", "eth0");
        assertThat(parse(sameGroup).lines(parse(sameGroup).topic("prices")))
            .extracting(line -> line.group().getHostAddress()).containsExactly("239.192.10.1", "239.192.10.1");
    }

    @Test
    void twoLinesWithDifferentDatagramSizesAreRefusedSayingWhy() {
        String yaml = TWO_LINES.replace("    interface: lo\n", "    interface: lo\n    datagram-size: 8k\n");

        Problem problem = onlyProblemOf(yaml);

        assertThat(problem.path()).isEqualTo("topics[0].transports");
        assertThat(problem.message())
            .isEqualTo("lines 'md-a' and 'md-b' of topic 'prices' have different datagram-size (1408 and 8k)");
        assertThat(problem.hint()).isEqualTo("each datagram of the topic's one sequence space is sent on both lines,"
            + " so it must fit both: give both transports the same datagram-size");
    }

    @Test
    void twoLinesWithDifferentPacingAreRefused() {
        String yaml = TWO_LINES.replace("    interface: eth0\n",
            "    interface: eth0\n    send-rate: 100m\n    send-burst: 256k\n    repair-rate: 20m\n");

        List<Problem> problems = problemsOf(yaml);

        assertThat(problems).extracting(Problem::message).containsExactly(
            "lines 'md-a' and 'md-b' of topic 'prices' have different send-rate (100m and 0)",
            "lines 'md-a' and 'md-b' of topic 'prices' have different send-burst (256k and 0)",
            "lines 'md-a' and 'md-b' of topic 'prices' have different repair-rate (20m and 0)");
        assertThat(problems).allSatisfy(problem -> assertThat(problem.hint())
            .isEqualTo("the topic's one stream is paced once and sent on both lines: give both transports the same"
                + " value"));
    }

    @Test
    void lineTimeoutIsRead() {
        String yaml = TWO_LINES.replace(PRICES_LINES, PRICES_LINES + "    line-timeout: 3ms\n");

        assertThat(parse(yaml).topic("prices").lineTimeout()).isEqualTo(Duration.ofMillis(3));
    }

    @Test
    void lineTimeoutMustBePositive() {
        String yaml = TWO_LINES.replace(PRICES_LINES, PRICES_LINES + "    line-timeout: 0ms\n");

        Problem problem = onlyProblemOf(yaml);

        assertThat(problem.path()).isEqualTo("topics[0].line-timeout");
        assertThat(problem.message()).isEqualTo("line-timeout must be positive (was 0s)");
        assertAtValue(problem, yaml, "line-timeout: 0ms");
    }

    @Test
    void lineTimeoutMustBeLessThanThePublisherTimeout() {
        String yaml = TWO_LINES.replace(PRICES_LINES, PRICES_LINES + "    line-timeout: 2s\n");

        Problem problem = onlyProblemOf(yaml);

        assertThat(problem.message()).isEqualTo("line-timeout 2s must be less than publisher-timeout (2s)");
        assertThat(problem.hint()).isEqualTo("a stream silent on both lines that long is a publisher gone, not a line"
            + " down");
        assertThat(parse(yaml.replace("line-timeout: 2s", "line-timeout: 1999ms")).topic("prices").lineTimeout())
            .isEqualTo(Duration.ofMillis(1999));
    }

    @Test
    void lineTimeoutOnATopicOfOneLineIsRefused() {
        String yaml = TWO_LINES.replace("    transport: md-a\n", "    transport: md-a\n    line-timeout: 10ms\n");

        Problem problem = onlyProblemOf(yaml);

        assertThat(problem.path()).isEqualTo("topics[1].line-timeout");
        assertThat(problem.message()).isEqualTo("line-timeout is for topics on two lines; topic 'orders' has one");
        assertThat(problem.hint()).isEqualTo("leave it out, or name two lines with transports: [<line A>, <line B>]");
        assertAtValue(problem, yaml, "line-timeout: 10ms");
    }

    @Test
    void linesIsNotAKeyOfTheFile() {
        String yaml = TWO_LINES.replace(PRICES_LINES, "    lines: [md-a, md-b]\n");

        List<Problem> problems = problemsOf(yaml);

        assertThat(problems).extracting(Problem::message).containsExactly("unknown key 'lines'");
        assertThat(problems.get(0).hint()).contains("transport, transports");
    }

    @Test
    void aConfigBuiltInCodeNamesItsLinesAndIsCheckedAlike() {
        NodeConfig loaded = parse(TWO_LINES);
        TopicConfig oneLine = new TopicConfig("quotes", 3, "md-b", "flyweight");

        NodeConfig twoLines = new NodeConfig(loaded.node(), loaded.transports(),
            List.of(oneLine.withLines("md-b", "md-a").withLineTimeout(Duration.ofMillis(5)))).conclude(FAKE_CONTEXT);
        ConfigException sameTwice = failure(() -> new NodeConfig(loaded.node(), loaded.transports(),
            List.of(oneLine.withLines("md-a", "md-a"),
                new TopicConfig("trades", 4, "md-b", "flyweight").withLineTimeout(Duration.ofMillis(5))))
            .conclude(FAKE_CONTEXT));

        assertThat(twoLines.lines(twoLines.topic("quotes"))).extracting(TransportConfig::name)
            .containsExactly("md-b", "md-a");
        assertThat(twoLines.topic("quotes").lineTimeout()).isEqualTo(Duration.ofMillis(5));
        assertThat(sameTwice.problems()).extracting(Problem::path, Problem::message).containsExactly(
            tuple("topics[0].transports[1]", "topic 'quotes' names transport 'md-a' twice in transports"),
            tuple("topics[1].line-timeout", "line-timeout is for topics on two lines; topic 'trades' has one"));
    }
}
