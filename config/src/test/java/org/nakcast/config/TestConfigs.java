package org.nakcast.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Set;

import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/** Configs, machines and assertions the tests share. */
final class TestConfigs {
    /** A valid config for the fake machine: every required key, no optional one. */
    static final String VALID = """
        node:
          name: test-node
        transports:
          - name: lan
            interface: eth0
            group: 239.192.10.1
            port: 40456
        topics:
          - name: prices
            id: 1
            transport: lan
            codec: flyweight
          - name: orders
            id: 2
            transport: lan
            codec: fst
        """;

    static final String SOURCE = "test.yaml";

    /** A machine with lo (MTU 65536), eth0 (MTU 1500, IPv4 and IPv6) and eth1, which is down. */
    static final NetworkInterfaces FAKE_MACHINE = NetworkInterfaces.of(List.of(
        new NetworkInterfaceInfo("lo", List.of(address("127.0.0.1"), address("::1")), 65_536, true),
        new NetworkInterfaceInfo("eth0", List.of(address("192.168.10.21"), address("fd00::21")), 1500, true),
        new NetworkInterfaceInfo("eth1", List.of(address("10.20.0.5")), 1500, false)));

    /** The codecs a node with every codec module has, as a node passes them to conclude(). */
    static final Set<String> NODE_CODECS = Set.of("flyweight", "fst", "fst-unshared", "jdk", "jdk-externalizable",
        "kryo");

    static final ConcludeContext FAKE_CONTEXT =
        ConcludeContext.system().withNetworkInterfaces(FAKE_MACHINE).withCodecNames(NODE_CODECS);

    private TestConfigs() {
    }

    static InetAddress address(String literal) {
        try {
            return InetAddress.getByName(literal);
        } catch (UnknownHostException e) {
            throw new AssertionError(e);
        }
    }

    /** @return the config, parsed and concluded on the fake machine */
    static NodeConfig parse(String yaml) {
        return NodeConfig.parse(yaml, SOURCE, FAKE_CONTEXT);
    }

    /** @return the ConfigException the call throws, failing the test if it throws none */
    static ConfigException failure(ThrowingCallable call) {
        Throwable thrown = catchThrowable(call);
        assertThat(thrown).isInstanceOf(ConfigException.class);
        return (ConfigException) thrown;
    }

    /** @return the problems of the config on the fake machine, failing the test if there are none */
    static List<Problem> problemsOf(String yaml) {
        return failure(() -> parse(yaml)).problems();
    }

    /** @return the one problem of the config, failing the test if there is not exactly one */
    static Problem onlyProblemOf(String yaml) {
        List<Problem> problems = problemsOf(yaml);
        assertThat(problems).hasSize(1);
        return problems.get(0);
    }

    /** @return the 1-based line of the first occurrence of the text in the YAML */
    static int lineOf(String yaml, String text) {
        int at = indexOf(yaml, text);
        return (int) yaml.substring(0, at).chars().filter(c -> c == '\n').count() + 1;
    }

    /** @return the 1-based column of the first occurrence of the text in the YAML */
    static int columnOf(String yaml, String text) {
        int at = indexOf(yaml, text);
        return at - yaml.lastIndexOf('\n', at - 1);
    }

    private static int indexOf(String yaml, String text) {
        int at = yaml.indexOf(text);
        assertThat(at).as("'%s' in the test YAML", text).isNotNegative();
        return at;
    }

    /** Asserts that the problem is at the value of the first occurrence of {@code key: value} in the YAML. */
    static void assertAtValue(Problem problem, String yaml, String keyAndValue) {
        String key = keyAndValue.substring(0, keyAndValue.indexOf(": ") + 2);
        assertThat(problem.line()).as("line of %s", problem).isEqualTo(lineOf(yaml, keyAndValue));
        assertThat(problem.column()).as("column of %s", problem).isEqualTo(columnOf(yaml, keyAndValue) + key.length());
    }

    /** Asserts that the problem is at the first occurrence of the text in the YAML. */
    static void assertAt(Problem problem, String yaml, String text) {
        assertThat(problem.source()).isEqualTo(SOURCE);
        assertThat(problem.line()).as("line of %s", problem).isEqualTo(lineOf(yaml, text));
        assertThat(problem.column()).as("column of %s", problem).isEqualTo(columnOf(yaml, text));
    }
}
