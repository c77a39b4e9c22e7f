package org.nakcast.cli;

import java.io.PrintWriter;
import java.time.Instant;
import java.util.Locale;
import java.util.concurrent.Callable;

import org.nakcast.transport.status.CountersFile;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code nakcast stat}: prints the counters of the nodes on this host from their counters files,
 * without touching the network; {@code --watch} reprints every interval. Running nodes only,
 * unless {@code --all}; counters that are 0 only with {@code --zeros}. The counters of a stream heard
 * on two lines are shown as a table of its lines ({@link LineTables}) after the node's other counters.
 */
@Command(name = "stat", mixinStandardHelpOptions = true,
    description = {"Prints the counters of the nakcast nodes running on this host, read from their counters files "
        + "(no network port): per node a line NAME (pid P, running|stopped[, kept], started T) FILE, then one line "
        + "per counter, its value and its label, then for each stream heard on two lines a table of its lines "
        + "(first copies and their share, second copies, datagrams missed alone, lag, up or DOWN). Counters that "
        + "are 0 are left out unless --zeros; the files of stopped nodes unless --all."})
final class StatCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    CountersFiles files;

    @Option(names = "--filter", paramLabel = "TEXT",
        description = "Only counters whose label, as printed, contains TEXT, case ignored: e.g. NAK (the NAK "
            + "counters), \"topic 'prices'\" (the streams of topic prices), \"session 42\" (one stream). A stream on "
            + "two lines shows its lines' table when one of their labels (line md-a first copies: topic 'prices' (1), "
            + "session 42) contains TEXT: \"line md-a\" shows the streams on line md-a.")
    String filter;

    @Option(names = "--zeros", description = "Also the counters that are 0.")
    boolean zeros;

    @Option(names = "--watch", paramLabel = "SECONDS",
        description = "Reprint every SECONDS until interrupted. Default: print once.")
    double watchSeconds;

    @Override
    public Integer call() throws InterruptedException {
        final PrintWriter out = spec.commandLine().getOut();
        final String wanted = filter == null ? null : filter.toLowerCase(Locale.ROOT);
        do {
            files.forEach(out, view -> print(view, wanted, out));
            out.flush();
            if (watchSeconds > 0) {
                Thread.sleep((long) (watchSeconds * 1000));
                out.println();
            }
        } while (watchSeconds > 0);
        return 0;
    }

    private void print(CountersFile.View view, String wanted, PrintWriter out) {
        final CountersFile.Header header = view.header();
        out.printf("%s (pid %d, %s%s, started %s) %s%n", header.nodeName(), header.pid(),
            header.isProcessAlive() ? "running" : "stopped", header.keep() ? ", kept" : "",
            Instant.ofEpochMilli(header.startTimeMs()), view.path());
        final LineTables lines = new LineTables();
        view.counters().forEach((counterId, typeId, key, label) -> {
            final long value = view.counters().getCounterValue(counterId);
            if (lines.take(typeId, key, label, value, wanted)) {
                return;
            }
            if ((zeros || value != 0) && (wanted == null || label.toLowerCase(Locale.ROOT).contains(wanted))) {
                out.printf("  %,20d  %s%n", value, label);
            }
        });
        lines.print(out);
    }
}
