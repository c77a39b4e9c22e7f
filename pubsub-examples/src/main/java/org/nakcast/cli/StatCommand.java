package org.nakcast.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.Callable;

import org.nakcast.transport.status.CountersFile;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code nakcast stat}: prints the counters of the nodes on this host from their counters files,
 * without touching the network; {@code --watch} reprints every interval.
 */
@Command(name = "stat", mixinStandardHelpOptions = true,
    description = {"Prints the counters of nakcast nodes on this host, read from their counters files "
        + "(no network port). Counters that are 0 are left out unless --all."})
final class StatCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    CountersFiles files;

    @Option(names = "--filter", paramLabel = "TEXT",
        description = "Only counters whose label contains TEXT, e.g. 'NAK' or 'topic 2'.")
    String filter;

    @Option(names = "--all", description = "Also the counters that are 0.")
    boolean all;

    @Option(names = "--watch", paramLabel = "SECONDS",
        description = "Reprint every SECONDS until interrupted. Default: print once.")
    double watchSeconds;

    @Override
    public Integer call() throws InterruptedException {
        final PrintWriter out = spec.commandLine().getOut();
        do {
            for (Path path : files.resolve()) {
                print(path, out);
            }
            out.flush();
            if (watchSeconds > 0) {
                Thread.sleep((long) (watchSeconds * 1000));
                out.println();
            }
        } while (watchSeconds > 0);
        return 0;
    }

    private void print(Path path, PrintWriter out) {
        try (CountersFile.View view = CountersFile.open(path)) {
            out.printf("%s (pid %d, %s, started %s) %s%n", view.nodeName(), view.pid(),
                view.isProcessAlive() ? "running" : "stopped", Instant.ofEpochMilli(view.startTimeMs()), path);
            view.counters().forEach((counterId, typeId, key, label) -> {
                final long value = view.counters().getCounterValue(counterId);
                if ((all || value != 0) && (filter == null || label.contains(filter))) {
                    out.printf("  %,20d  %s%n", value, label);
                }
            });
        } catch (IllegalArgumentException ex) {
            out.printf("%s: %s%n", path, ex.getMessage());
        }
    }
}
