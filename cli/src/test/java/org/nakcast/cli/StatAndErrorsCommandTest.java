package org.nakcast.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.agrona.concurrent.SystemEpochClock;
import org.agrona.concurrent.errors.DistinctErrorLog;
import org.agrona.concurrent.status.CountersManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nakcast.transport.status.CountersFile;
import org.nakcast.transport.status.LineCounter;
import org.nakcast.transport.status.StreamCounters;
import org.nakcast.transport.status.SystemCounter;
import org.nakcast.transport.status.SystemCounters;

class StatAndErrorsCommandTest {
    @TempDir
    Path directory;

    @Test
    void statPrintsTheCountersThatMovedAndTheZerosWhenAsked() {
        try (CountersFile file = CountersFile.create(directory.resolve("pricer.counters"), "pricer", false)) {
            final CountersManager counters = new CountersManager(file.metadataBuffer(), file.valuesBuffer());
            counters.newCounter("NAKs sent", 5).set(12_345);
            counters.newCounter("datagrams sent", 1).set(7);
            counters.newCounter("duplicate datagrams", 10);

            final String moved = run("stat", "--dir", directory.toString());
            final String naks = run("stat", "--dir", directory.toString(), "--filter", "NAK");

            assertThat(moved).contains("pricer (pid " + ProcessHandle.current().pid() + ", running, started")
                .contains("12,345  NAKs sent").contains("7  datagrams sent").doesNotContain("duplicate");
            assertThat(naks).contains("NAKs sent").doesNotContain("datagrams sent");
            assertThat(run("stat", "--dir", directory.toString(), "--zeros")).contains("0  duplicate datagrams");
        }
    }

    @Test
    void everyFilterTheHelpShowsKeepsTheCountersItNames() {
        final String help = run("stat", "--help").replaceAll("\\s+", " ");
        try (CountersFile file = CountersFile.create(directory.resolve("node.counters"), "node", false)) {
            final SystemCounters counters =
                new SystemCounters(new CountersManager(file.metadataBuffer(), file.valuesBuffer()));
            counters.get(SystemCounter.NAKS_SENT).set(3);
            counters.get(SystemCounter.DATAGRAMS_SENT).set(9);
            counters.streams().publisherPosition("prices", 1, 42).set(100);
            counters.streams().receiverPosition("prices", 1, 43).set(90);
            counters.streams().receiverPosition("orders", 2, 42).set(80);

            for (List<String> example : List.of(
                List.of("NAK", "NAKs sent"),
                List.of("\"topic 'prices'\"", "publisher position: topic 'prices' (1), session 42",
                    "receiver position: topic 'prices' (1), session 43"),
                List.of("\"session 42\"", "publisher position: topic 'prices' (1), session 42",
                    "receiver position: topic 'orders' (2), session 42"))) {
                final String filter = example.get(0);
                assertThat(help).as("the help shows %s", filter).contains("e.g. NAK").contains(filter);

                final List<String> shown = counterLines(run("stat", "--dir", directory.toString(), "--filter",
                    filter.replace("\"", "")));

                assertThat(shown).as("--filter %s", filter)
                    .containsExactlyElementsOf(example.subList(1, example.size()));
            }
            assertThat(counterLines(run("stat", "--dir", directory.toString(), "--filter", "nak")))
                .as("case ignored").containsExactly("NAKs sent");
        }
    }

    @Test
    void aStreamOnTwoLinesIsShownAsATableOfItsLinesAndAStreamOnOneLineAsBefore() {
        try (CountersFile file = CountersFile.create(directory.resolve("node.counters"), "node", false)) {
            final SystemCounters counters =
                new SystemCounters(new CountersManager(file.metadataBuffer(), file.valuesBuffer()));
            final StreamCounters streams = counters.streams();
            streams.receiverPosition("orders", 2, 7).set(500);
            streams.receiverPosition("prices", 1, 42).set(1_000_000);
            lineFigures(streams, "md-a", 0, 980_000, 20_000, 3, 0, 0);
            lineFigures(streams, "md-b", 1, 20_000, 980_000, 1_200, 12_345, 1);
            streams.gapsBothLinesMissed("prices", 1, 42).set(4);

            final String shown = run("stat", "--dir", directory.toString());

            assertThat(counterLines(shown)).containsExactly("receiver position: topic 'orders' (2), session 7",
                "receiver position: topic 'prices' (1), session 42");
            assertThat(shown).contains(String.join(System.lineSeparator(),
                "  lines of topic 'prices' (1), session 42: gaps both lines missed 4",
                "    line   first copies    first  second copies   missed alone         lag  state",
                "    md-a        980,000    98.0%         20,000              3        0 ns  up",
                "    md-b         20,000     2.0%        980,000          1,200     12.3 us  DOWN"));
            assertThat(run("stat", "--dir", directory.toString(), "--filter", "line md-b"))
                .contains("lines of topic 'prices' (1), session 42").doesNotContain("receiver position");
            assertThat(run("stat", "--dir", directory.toString(), "--filter", "orders"))
                .doesNotContain("lines of");
        }
    }

    /** Sets the figures of one line of the stream of session 42 on topic prices. */
    private static void lineFigures(StreamCounters streams, String name, int line, long first, long second,
        long missedAlone, long lagNs, long down) {
        streams.line(LineCounter.FIRST_COPIES, name, line, "prices", 1, 42).set(first);
        streams.line(LineCounter.SECOND_COPIES, name, line, "prices", 1, 42).set(second);
        streams.line(LineCounter.MISSED_ALONE, name, line, "prices", 1, 42).set(missedAlone);
        streams.line(LineCounter.LAG_NS, name, line, "prices", 1, 42).set(lagNs);
        streams.line(LineCounter.DOWN, name, line, "prices", 1, 42).set(down);
    }

    @Test
    void statShowsRunningNodesAndSaysWhatItLeftOutUnlessAll() throws Exception {
        StoppedNode.leave(directory.resolve("stopped.counters"), "stopped", false);
        StoppedNode.leave(directory.resolve("kept.counters"), "kept", true);
        Files.writeString(directory.resolve("notes.counters"), "x".repeat(500));
        try (CountersFile running = CountersFile.create(directory.resolve("running.counters"), "running", false)) {
            final String live = run("stat", "--dir", directory.toString());
            final String all = run("stat", "--dir", directory.toString(), "--all");
            final String named = run("stat", "--file", directory.resolve("stopped.counters").toString());

            assertThat(nodeLines(live)).singleElement().asString().startsWith("running (pid");
            assertThat(live).endsWith("(not shown: 2 files of stopped nodes, 1 file that are not counters files of "
                + "layout " + CountersFile.LAYOUT_VERSION + "; --all shows them)" + System.lineSeparator());
            assertThat(nodeLines(all)).hasSize(3)
                .anySatisfy(line -> assertThat(line).startsWith("kept (pid").contains(", stopped, kept, started"))
                .anySatisfy(line -> assertThat(line).startsWith("stopped (pid").contains(", stopped, started"))
                .anySatisfy(line -> assertThat(line).startsWith("running (pid").contains(", running, started"));
            assertThat(all).doesNotContain("not shown")
                .contains("notes.counters: " + directory.resolve("notes.counters") + " is not a counters file");
            assertThat(nodeLines(named)).as("a file named is shown").singleElement().asString()
                .startsWith("stopped (pid");
            assertThat(running.path()).exists();
        }
    }

    @Test
    void statSaysSoWhenNoNodeRuns() throws Exception {
        StoppedNode.leave(directory.resolve("stopped.counters"), "stopped", false);

        assertThat(run("stat", "--dir", directory.toString())).isEqualTo("no running node's counters file in "
            + directory + System.lineSeparator() + "(not shown: 1 file of a stopped node; --all shows them)"
            + System.lineSeparator());
    }

    @Test
    void errorsPrintsEachDistinctErrorOnceWithItsCount() {
        try (CountersFile file = CountersFile.create(directory.resolve("pricer.counters"), "pricer", false)) {
            final DistinctErrorLog log = new DistinctErrorLog(file.errorLogBuffer(), SystemEpochClock.INSTANCE);
            final IllegalStateException error = new IllegalStateException("socket closed under the agent");
            log.record(error);
            log.record(error);
            log.record(error);

            assertThat(run("errors", "--file", file.path().toString()))
                .contains("3 x, first ").contains("java.lang.IllegalStateException: socket closed under the agent");
        }
    }

    @Test
    void errorsShowsRunningNodesUnlessAll() throws Exception {
        StoppedNode.leave(directory.resolve("stopped.counters"), "stopped", false);
        try (CountersFile running = CountersFile.create(directory.resolve("running.counters"), "running", false)) {
            assertThat(run("errors", "--dir", directory.toString())).startsWith("running (pid")
                .contains("no errors").doesNotContain("stopped (pid").contains("(not shown: 1 file of a stopped node");
            assertThat(run("errors", "--dir", directory.toString(), "--all")).contains("stopped (pid")
                .contains(running.path().toString());
        }
    }

    @Test
    void aMissingDirectoryIsNamed() {
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int code = Nakcast.run(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8), "stat", "--dir", directory.resolve("none").toString());

        assertThat(code).isNotZero();
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("no counters directory").contains("none");
    }

    /** The node lines of stat's output: those that name a node. */
    private static List<String> nodeLines(String output) {
        return output.lines().filter(line -> line.contains(" (pid ")).toList();
    }

    /** The labels of stat's counter lines (a value, then a label). */
    private static List<String> counterLines(String output) {
        return output.lines().filter(line -> line.matches(" +-?[0-9,]+  .*"))
            .map(line -> line.strip().split("\\s+", 2)[1]).toList();
    }

    private static String run(String... args) {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final int code = Nakcast.run(new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), args);
        assertThat(code).isZero();
        return out.toString(StandardCharsets.UTF_8);
    }
}
