package org.nakcast.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.nakcast.config.TestConfigs.VALID;
import static org.nakcast.config.TestConfigs.assertAt;
import static org.nakcast.config.TestConfigs.failure;
import static org.nakcast.config.TestConfigs.onlyProblemOf;
import static org.nakcast.config.TestConfigs.problemsOf;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Problems with the shape of a config file: keys, kinds of values, syntax. */
class LoadErrorsTest {

    @Test
    void unknownKeySuggestsTheClosestKnownKeyAtTheKeysLine() {
        String yaml = VALID.replace("    transport: lan\n    codec: fst", "    trasnport: lan\n    codec: fst");

        List<Problem> problems = problemsOf(yaml);

        Problem unknown =
            problems.stream().filter(p -> p.message().startsWith("unknown key")).findFirst().orElseThrow();
        assertThat(unknown.message()).isEqualTo("unknown key 'trasnport'");
        assertThat(unknown.path()).isEqualTo("topics[1]");
        assertAt(unknown, yaml, "trasnport");
        assertThat(unknown.hint()).startsWith("did you mean 'transport'? known keys: transport, ")
            .contains("name", "id", "codec", "history", "heartbeat", "flow-control", "loss-policy", "late-join",
                "allowed-classes");
        assertThat(unknown.describe()).startsWith("unknown key 'trasnport' at topics[1] (line "
            + TestConfigs.lineOf(yaml, "trasnport") + ", column 5); did you mean 'transport'? known keys: ");
    }

    @Test
    void aTypoInTheKeyThatOpensAListItemIsFoundAtThatKeyNotTheLineAfterIt() {
        String yaml = VALID.replace("  - name: orders", "  - nme: orders");

        Problem unknown = problemsOf(yaml).stream().filter(p -> p.message().startsWith("unknown key"))
            .findFirst().orElseThrow();

        assertThat(unknown.message()).isEqualTo("unknown key 'nme'");
        assertThat(unknown.path()).isEqualTo("topics[1]");
        assertAt(unknown, yaml, "nme");
        assertThat(unknown.describe()).startsWith("unknown key 'nme' at topics[1] (line "
            + TestConfigs.lineOf(yaml, "nme") + ", column 5); did you mean 'name'?");
    }

    @Test
    void aKeyNowChosenInCodeSaysWhereItWent() {
        String yaml = VALID.replace("    codec: flyweight", "    codec: flyweight\n    delivery: queue");

        Problem unknown = problemsOf(yaml).stream().filter(p -> p.message().startsWith("unknown key"))
            .findFirst().orElseThrow();

        assertThat(unknown.message()).isEqualTo("unknown key 'delivery'");
        assertThat(unknown.hint()).contains("Delivery.ON_RECEIVING_THREAD", "Subscription.poll()",
            "delivery-queue and delivery-queue-timeout stay here");
    }

    @Test
    void reportsEveryUnknownKeyAndEveryBadValueAtOnce() {
        String yaml = VALID
            .replace("  name: test-node", "  name: test-node\n  treading: shared")
            .replace("    port: 40456", "    port: 40456\n    datagram-sise: 1k")
            .replace("    codec: flyweight", "    codec: flyweight\n    history: 4x\n    heartbeat: 100");

        List<Problem> problems = problemsOf(yaml);

        assertThat(problems).extracting(Problem::path, Problem::message).containsExactly(
            tuple("node", "unknown key 'treading'"),
            tuple("transports[0]", "unknown key 'datagram-sise'"),
            tuple("topics[0].history", "'4x' is not a size"),
            tuple("topics[0].heartbeat", "duration '100' has no unit"));
        assertThat(problems.get(0).hint()).startsWith("did you mean 'threading'?");
        assertThat(problems.get(1).hint()).startsWith("did you mean 'datagram-size'?");
        assertAt(problems.get(2), yaml, "4x");
        assertThat(problems.get(3).hint()).contains("ns, us, ms, s, h or d");
        assertAt(problems.get(3), yaml, "100\n");
    }

    @Test
    void aMisspelledRepairRateIsNamedAndABadOneSaysHowToWriteASize() {
        String yaml = VALID.replace("    port: 40456", "    port: 40456\n    repair-rat: 8m");
        String bad = VALID.replace("    port: 40456", "    port: 40456\n    repair-rate: 8 MB");

        Problem unknown = TestConfigs.onlyProblemOf(yaml);
        Problem badValue = TestConfigs.onlyProblemOf(bad);

        assertThat(unknown.message()).isEqualTo("unknown key 'repair-rat'");
        assertThat(unknown.hint()).startsWith("did you mean 'repair-rate'?");
        assertThat(badValue.path()).isEqualTo("transports[0].repair-rate");
        assertThat(badValue.message()).isEqualTo("'8 MB' is not a size");
    }

    @Test
    void missingRequiredKeysAreAllNamedAtTheirEntry() {
        String yaml = VALID.replace("    group: 239.192.10.1\n    port: 40456\n", "");

        List<Problem> problems = problemsOf(yaml);

        assertThat(problems).extracting(Problem::message)
            .containsExactly("missing required key 'group'", "missing required key 'port'");
        assertThat(problems).allSatisfy(problem -> {
            assertThat(problem.path()).isEqualTo("transports[0]");
            assertAt(problem, yaml, "name: lan");
        });
    }

    @Test
    void missingTopLevelSectionsAreNamed() {
        Problem problem = onlyProblemOf("""
            transports:
              - name: lan
                interface: eth0
                group: 239.192.10.1
                port: 40456
            """);

        assertThat(problem.describe()).startsWith("missing required key 'topics' at the top level (line 1, column 1)");
    }

    @Test
    void anEmptyValueForARequiredKeyIsNamed() {
        String yaml = VALID.replace("codec: flyweight", "codec:");

        Problem problem = onlyProblemOf(yaml);

        assertThat(problem.path()).isEqualTo("topics[0].codec");
        assertThat(problem.message()).isEqualTo("required key 'codec' has no value");
    }

    @Test
    void aCodecTheNodeDoesNotHaveIsNamedWithItsLineAndColumnWhenTheNodeChecksIt() {
        String yaml = VALID.replace("    codec: fst", "    codec: fts");
        // loaded where codecs are not known (as NodeConfig.load does), renamed, then checked as a node
        // checks it when it launches, against the codecs it has
        NodeConfig loaded = NodeConfig.parse(yaml, TestConfigs.SOURCE,
            ConcludeContext.system().withNetworkInterfaces(TestConfigs.FAKE_MACHINE)).withNodeName("renamed");

        ConfigException atLaunch = failure(() -> loaded.conclude(TestConfigs.FAKE_CONTEXT));

        assertThat(atLaunch.problems()).singleElement().satisfies(problem -> {
            assertThat(problem.describe()).startsWith("unknown codec 'fts' at topics[1].codec (line "
                + TestConfigs.lineOf(yaml, "fts") + ", column " + TestConfigs.columnOf(yaml, "fts") + ")");
            assertThat(problem.hint()).contains("did you mean 'fst'?");
        });
        NodeConfig builtInCode = new NodeConfig(loaded.node(), loaded.transports(),
            loaded.topics().stream().map(topic -> topic).toList(), loaded.recorder());
        assertThat(failure(() -> builtInCode.conclude(TestConfigs.FAKE_CONTEXT)).problems()).singleElement()
            .satisfies(problem -> assertThat(problem.describe()).as("topics given in code: no place in the file")
                .startsWith("unknown codec 'fts' at topics[1].codec").doesNotContain("line"));
    }

    @Test
    void anEmptyValueForAnOptionalKeyMeansItsDefault() {
        NodeConfig config =
            TestConfigs.parse(VALID.replace("    port: 40456", "    port: 40456\n    ttl:\n    send-rate:\n"
                + "    repair-rate:"));

        assertThat(config.transport("lan").ttl()).isEqualTo(TransportConfig.DEFAULT_TTL);
        assertThat(config.transport("lan").sendRate()).isEqualTo(TransportConfig.DEFAULT_SEND_RATE);
        assertThat(config.transport("lan").repairRateBytes())
            .isEqualTo(TransportConfig.DEFAULT_UNPACED_REPAIR_RATE.bytes());
    }

    @Test
    void anUnknownEnumValueListsTheAllowedValues() {
        String yaml = VALID.replace("    codec: fst", "    codec: fst\n    loss-policy: skip\n    flow-control: MAX");

        List<Problem> problems = problemsOf(yaml);

        assertThat(problems).hasSize(2);
        assertThat(problems.get(0).describe()).startsWith("unknown value 'skip' at topics[1].loss-policy (line "
            + TestConfigs.lineOf(yaml, "skip") + ", column " + TestConfigs.columnOf(yaml, "skip") + ")");
        assertThat(problems.get(0).hint()).startsWith("allowed values: ").contains("continue", "drop")
            .doesNotContain("did you mean");
        assertThat(problems.get(1).describe()).contains("unknown value 'MAX' at topics[1].flow-control")
            .contains("did you mean 'max'? allowed values: max, min");
    }

    @Test
    void everyEnumValueIsSpelledInLowerKebabCase() {
        NodeConfig config = TestConfigs.parse(VALID
            .replace("  name: test-node", "  name: test-node\n  threading: invoker\n  idle-strategy: spin\n"
                + "  media: native")
            .replace("    codec: fst",
                "    codec: fst\n    flow-control: max\n    loss-policy: drop\n    late-join: oldest"));

        assertThat(config.node().threading()).isEqualTo(ThreadingMode.INVOKER);
        assertThat(config.node().idleStrategy()).isEqualTo(IdleStrategyType.SPIN);
        assertThat(config.node().media()).isEqualTo(MediaType.NATIVE);
        TopicConfig orders = config.topic("orders");
        assertThat(orders.flowControl()).isEqualTo(FlowControlMode.MAX);
        assertThat(orders.lossPolicy()).isEqualTo(LossPolicy.DROP);
        assertThat(orders.lateJoin()).isEqualTo(LateJoinPolicy.OLDEST);
    }

    @Test
    void aMediaIsNioOrNative() {
        assertThat(TestConfigs.parse(VALID).node().media()).as("the default").isEqualTo(MediaType.NIO);

        String yaml = VALID.replace("  name: test-node", "  name: test-node\n  media: dpdk");
        Problem problem = onlyProblemOf(yaml);

        assertThat(problem.describe()).startsWith("unknown value 'dpdk' at node.media");
        assertThat(problem.hint()).contains("allowed values: nio, native");
    }

    @Test
    void aSwitchIsTrueOrFalseAndNothingElse() {
        String kept = VALID.replace("  name: test-node", "  name: test-node\n  keep-counters-file: true");
        assertThat(TestConfigs.parse(kept).node().keepCountersFile()).isTrue();
        assertThat(TestConfigs.parse(VALID).node().keepCountersFile()).as("the default").isFalse();

        String yaml = VALID.replace("  name: test-node", "  name: test-node\n  keep-counters-file: yes");
        Problem problem = onlyProblemOf(yaml);

        assertThat(problem.path()).isEqualTo("node.keep-counters-file");
        assertThat(problem.message()).isEqualTo("'yes' is not a switch");
        assertThat(problem.hint()).isEqualTo("write true or false");
        assertAt(problem, yaml, "yes");
    }

    @Test
    void aGroupMustBeAnAddressNotAHostName() {
        String yaml = VALID.replace("group: 239.192.10.1", "group: multicast.example");

        Problem problem = onlyProblemOf(yaml);

        assertThat(problem.path()).isEqualTo("transports[0].group");
        assertThat(problem.message()).isEqualTo("'multicast.example' is not an IP address");
        assertThat(problem.hint()).contains("host names are not looked up");
        assertAt(problem, yaml, "multicast.example");
    }

    @Test
    void valuesOfTheWrongKindAreNamedWithTheKindExpected() {
        String yaml = VALID.replace("port: 40456", "port: forty")
            .replace("name: prices", "name: [prices]")
            .replace("id: 2", "id: 2.5");

        List<Problem> problems = problemsOf(yaml);

        assertThat(problems).extracting(Problem::path, Problem::message).containsExactly(
            tuple("transports[0].port", "'forty' is not a whole number"),
            tuple("topics[0].name", "expected a single value, found a list"),
            tuple("topics[1].id", "'2.5' is not a whole number"));
        assertAt(problems.get(0), yaml, "forty");
    }

    @Test
    void aSingleValueWhereASectionBelongsIsNamed() {
        String yaml = VALID.replace("node:\n  name: test-node", "node: fast")
            .replace("  - name: lan\n", "  - lan\n  - name: lan\n");

        List<Problem> problems = problemsOf(yaml);

        assertThat(problems).extracting(Problem::path, Problem::message).containsExactly(
            tuple("node", "expected a mapping of keys to values, found a single value"),
            tuple("transports[0]", "expected a mapping of keys to values, found a single value"));
        assertAt(problems.get(0), yaml, "fast");
        assertAt(problems.get(1), yaml, "lan\n");
    }

    @Test
    void aDocumentThatIsNotAMappingIsNamed() {
        assertThat(onlyProblemOf("- transports\n- topics\n").describe())
            .isEqualTo("expected a mapping of keys to values, found a list at the top level (line 1, column 1)");
    }

    @Test
    void aNumberBeyondAnIntIsOutOfRange() {
        String yaml = VALID.replace("id: 2", "id: 99999999999");

        Problem problem = onlyProblemOf(yaml);

        assertThat(problem.path()).isEqualTo("topics[1].id");
        assertThat(problem.message()).isEqualTo("number out of range (at most 2147483647)");
        TestConfigs.assertAtValue(problem, yaml, "id: 99999999999");
    }

    @Test
    void aListWhereAValueBelongsIsNamed() {
        String yaml =
            VALID.replace("    codec: fst", "    codec: fst\n    allowed-classes: org.nakcast.codecs.sample.Order");

        Problem problem = onlyProblemOf(yaml);

        assertThat(problem.path()).isEqualTo("topics[1].allowed-classes");
        assertThat(problem.message()).isEqualTo("expected a list, found a single value");
    }

    @Test
    void aKeyWrittenTwiceIsNamedWithBothLines() {
        String yaml = VALID.replace("    port: 40456", "    port: 40456\n    ttl: 1\n    port: 40457");

        Problem problem = onlyProblemOf(yaml);

        assertThat(problem.path()).isEqualTo("transports[0].port");
        assertThat(problem.message()).isEqualTo("key written twice");
        assertAt(problem, yaml, "port: 40457");
        assertThat(problem.hint()).contains("the first is at line " + TestConfigs.lineOf(yaml, "port: 40456"));
    }

    @Test
    void aYamlSyntaxErrorIsPlacedWhereTheParserGaveUp() {
        String yaml = "transports:\n  - name: lan\n     interface: eth0\n";

        Problem problem = onlyProblemOf(yaml);

        assertThat(problem.message()).startsWith("YAML syntax error: mapping values are not allowed here");
        assertThat(problem.line()).isEqualTo(3);
    }

    @Test
    void aTabInTheIndentationIsASyntaxErrorOnItsLine() {
        Problem problem = onlyProblemOf("transports:\n\t- name: lan\n");

        assertThat(problem.message()).contains("TAB");
        assertAt(problem, "transports:\n\t- name: lan\n", "\t");
    }

    @Test
    void anEmptyFileSaysWhatItNeeds() {
        Problem problem = onlyProblemOf("# nothing here\n");

        assertThat(problem.message()).isEqualTo("the config is empty");
        assertThat(problem.hint()).contains("transports", "topics");
    }

    @Test
    void aSecondDocumentIsRefused() {
        String yaml = VALID + "---\nnode:\n  name: other\n";

        Problem problem = onlyProblemOf(yaml);

        assertThat(problem.message()).isEqualTo("a second YAML document");
        assertThat(problem.line()).isEqualTo(TestConfigs.lineOf(yaml, "---") + 1);
    }

    @Test
    void aMissingFileIsNamed(@TempDir Path directory) {
        Path missing = directory.resolve("absent.yaml");

        ConfigException failure = failure(() -> NodeConfig.load(missing, TestConfigs.FAKE_CONTEXT));

        assertThat(failure.source()).isEqualTo(missing.toString());
        assertThat(failure.getMessage()).startsWith(missing + ": 1 problem").contains("cannot read the file");
    }

    @Test
    void aLoadedFileIsNamedInEveryProblem(@TempDir Path directory) throws Exception {
        Path file = directory.resolve("node.yaml");
        Files.writeString(file, VALID.replace("port: 40456", "port: 0"));

        ConfigException failure = failure(() -> NodeConfig.load(file, TestConfigs.FAKE_CONTEXT));

        assertThat(failure.problems()).singleElement().satisfies(problem -> {
            assertThat(problem.source()).isEqualTo(file.toString());
            assertThat(problem.toString())
                .startsWith(file + ": port must be in 1..65534 (was 0); the transport also uses port + 1 for NAKs"
                    + " at transports[0].port");
        });
    }
}
