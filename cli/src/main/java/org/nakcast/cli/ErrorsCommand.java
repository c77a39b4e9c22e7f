package org.nakcast.cli;

import java.io.PrintWriter;
import java.time.Instant;
import java.util.concurrent.Callable;

import org.agrona.concurrent.errors.ErrorLogReader;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code nakcast errors}: prints each distinct error the nodes on this host recorded, once, with
 * how often and when it first and last happened; running nodes only, unless {@code --all}.
 */
@Command(name = "errors", mixinStandardHelpOptions = true,
    description = {"Prints the distinct errors the nakcast nodes running on this host recorded in their counters "
        + "files: each once, with its count and first and last time. The files of stopped nodes too with --all."})
final class ErrorsCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    CountersFiles files;

    @Override
    public Integer call() {
        final PrintWriter out = spec.commandLine().getOut();
        files.forEach(out, view -> {
            out.printf("%s (pid %d) %s%n", view.header().nodeName(), view.header().pid(), view.path());
            final int distinct = ErrorLogReader.read(view.errorLog(), (count, firstMs, lastMs, text) ->
                out.printf("  %d x, first %s, last %s%n    %s%n", count, Instant.ofEpochMilli(firstMs),
                    Instant.ofEpochMilli(lastMs), text.strip().replace("\n", "\n    ")));
            if (distinct == 0) {
                out.println("  no errors");
            }
        });
        out.flush();
        return 0;
    }
}
