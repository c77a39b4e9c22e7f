package org.nakcast.benchmarks.throughput;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.nakcast.config.TransportConfig;

/**
 * Runs the whole throughput measurement, orchestrator and both child JVMs, for 1 s: with no loss
 * and with 1% injected loss, then with 1% loss in the kernel (an iptables rule in the test's
 * namespace), on one line and on two (a rule per line), and with the peers, at the default
 * datagram size and at 8 KiB: every nakcast message must be delivered, none lost, none out of
 * order. The rate is a quarter of the default so that a test machine busy with other work still
 * keeps up: this tests the measurement and the repair path, not the machine's speed. The test JVM
 * runs in a private network namespace (the parent pom's java wrapper), and the children inherit it.
 */
class ThroughputBenchIT {
    private static final Pattern RUN = Pattern.compile(
        "\"system\": \"([a-z-]+)\", \"rate\": \\d+, \"rateText\": \"[^\"]+\", \"flowControl\": \"[a-z-]+\","
            + " \"lines\": ([12]), \"media\": \"(?:nio|-)\", \"loss\": ([0-9.]+),"
            + " \"injectedLoss\": ([0-9.]+), \"loadBefore\": [^,]+, \"deliveredPerSecond\": [0-9.]+,"
            + " \"delivered\": (\\d+), \"lost\": (\\d+), \"sequenceErrors\": (\\d+), \"unaccounted\": (-?\\d+),"
            + " \"kernelDrops\": -?\\d+, \"lossDropped\": (\\d+), \"strangerNaks\": [^,]+,"
            + " \"strangerNaksSent\": (\\d+)");

    /** nakcast's publisher's datagrams and bytes sent, the first run's. */
    private static final Pattern NAKCAST_SENT = Pattern.compile("\"datagramsSent\": (\\d+), \"bytesSent\": (\\d+)");

    /** The last run's standard output. */
    private String output = "";

    @Test
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void deliversEverythingWithoutAndWithOnePercentInjectedLoss() {
        final List<Run> runs = runs("--seconds", "1", "--warmup", "1", "--rate", "32m", "--injected-loss", "0,0.01");

        assertThat(runs).extracting(Run::injectedLoss).containsExactly("0.000000", "0.010000");
        assertThat(runs).allSatisfy(ThroughputBenchIT::deliveredEverything);
    }

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void theKernelDropsOnePercentAndNakcastRepairsIt() {
        final List<Run> runs = runs("--seconds", "1", "--warmup", "1", "--rate", "32m", "--loss", "0.01");

        assertThat(runs).singleElement().satisfies(run -> {
            assertThat(run.loss()).isEqualTo("0.010000");
            assertThat(run.lossDropped()).as("datagrams the iptables rule dropped").isPositive();
            deliveredEverything(run);
        });
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void onTwoLinesEachLosingOnePercentInTheKernelEverythingArrives() {
        final List<Run> runs = runs("--seconds", "1", "--warmup", "1", "--rate", "32m", "--lines", "1,2", "--loss",
            "0.01");

        assertThat(runs).extracting(Run::lines).containsExactly(1, 2);
        assertThat(runs).allSatisfy(run -> {
            assertThat(run.lossDropped()).as("datagrams the iptables rules dropped").isPositive();
            deliveredEverything(run);
        });
        assertThat(output).contains(" lines ");
    }

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void aStrangerLearnsTheSessionOffTheWireAndItsNaksCostTheSubscriberNothing() {
        final List<Run> runs = runs("--seconds", "1", "--warmup", "1", "--rate", "32m", "--stranger-naks", "0,1ms");

        assertThat(runs).hasSize(2).allSatisfy(ThroughputBenchIT::deliveredEverything);
        assertThat(runs.get(0).strangerNaksSent()).isZero();
        assertThat(runs.get(1).strangerNaksSent()).as("forged NAKs sent, one a millisecond").isGreaterThan(500);
        assertThat(output).contains("a stranger NAKing the whole history", "\"strangerComparison\": [");
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aeronAndFastCastRunBesideNakcast() {
        final List<Run> runs = runs("--peers", "--seconds", "1", "--warmup", "1", "--rate", "32m");

        assertThat(runs).extracting(Run::system).containsExactly("nakcast", "aeron", "fast-cast");
        deliveredEverything(runs.get(0));
        assertThat(runs).allSatisfy(run -> assertThat(run.delivered()).as(run.system()).isPositive());
        assertThat(output).contains("nakcast/aeron", "nakcast/fast-cast", "\"comparison\": [");
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void everySystemSendsJumboDatagramsAndNakcastDeliversEverything() {
        final List<Run> runs = runs("--peers", "--datagram-size", "8k", "--seconds", "1", "--warmup", "1", "--rate",
            "32m");

        assertThat(runs).extracting(Run::system).containsExactly("nakcast", "aeron", "fast-cast");
        deliveredEverything(runs.get(0));
        assertThat(runs).allSatisfy(run -> assertThat(run.delivered()).as(run.system()).isPositive());
        assertThat(output).contains("\"datagramSize\": 8192", " 8k ");
        assertThat(output).as("nio sends and takes no trains")
            .contains("\"gsoTrainsSent\": 0", "\"groTrainsReceived\": 0");
        final Matcher sent = NAKCAST_SENT.matcher(output);
        assertThat(sent.find()).as(output).isTrue();
        assertThat(Long.parseLong(sent.group(2)) / Long.parseLong(sent.group(1)))
            .as("nakcast's bytes per datagram, with 70-byte messages offered faster than 32m lets them out")
            .isGreaterThan(TransportConfig.DEFAULT_DATAGRAM_SIZE.bytes());
    }

    private List<Run> runs(String... args) {
        final ByteArrayOutputStream captured = new ByteArrayOutputStream();
        final PrintStream out = new PrintStream(captured, true, StandardCharsets.UTF_8);

        final int status = ThroughputBench.run(args, out, System.err);

        output = captured.toString(StandardCharsets.UTF_8);
        final String[] lines = output.trim().split("\n");
        final String json = lines[lines.length - 1];
        assertThat(status).as(output).isZero();
        assertThat(json).as(output).startsWith("{\"system\": \"nakcast\"").endsWith("}");
        final List<Run> runs = new ArrayList<>();
        final Matcher run = RUN.matcher(json);
        while (run.find()) {
            runs.add(new Run(run.group(1), Integer.parseInt(run.group(2)), run.group(3), run.group(4),
                Long.parseLong(run.group(5)), Long.parseLong(run.group(6)), Long.parseLong(run.group(7)),
                Long.parseLong(run.group(8)), Long.parseLong(run.group(9)), Long.parseLong(run.group(10))));
        }
        return runs;
    }

    private static void deliveredEverything(Run run) {
        assertThat(run.delivered()).as("delivered").isPositive();
        assertThat(run.lost()).as("lost").isZero();
        assertThat(run.sequenceErrors()).as("sequence errors").isZero();
        assertThat(run.unaccounted()).as("unaccounted").isZero();
    }

    private record Run(String system, int lines, String loss, String injectedLoss, long delivered, long lost,
        long sequenceErrors, long unaccounted, long lossDropped, long strangerNaksSent) {
    }
}
