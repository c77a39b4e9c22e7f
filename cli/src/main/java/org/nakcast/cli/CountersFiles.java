package org.nakcast.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;

import org.nakcast.transport.status.CountersFile;

import picocli.CommandLine.Option;

/**
 * Which counters files {@code stat} and {@code errors} read: the files named with {@code --file},
 * or the {@code *.counters} files in {@code --dir} (by default where nodes put them) whose nodes
 * run, or, with {@code --all}, every one of them, including those of stopped nodes and those that
 * are not counters files of this layout.
 */
final class CountersFiles {
    @Option(names = "--file", paramLabel = "FILE",
        description = "A node's counters file (repeatable), shown whether its node runs or not. Default: the "
            + "*.counters files in --dir.")
    List<Path> files;

    @Option(names = "--dir", paramLabel = "DIR",
        description = "Where nodes keep their counters files. Default: ${DEFAULT-VALUE}.")
    Path directory = Path.of(System.getProperty("java.io.tmpdir"), "nakcast");

    @Option(names = "--all",
        description = "Every counters file in --dir: also those of stopped nodes (kept for a post-mortem until a "
            + "node starting beside them removes them), and files that are not counters files of this layout. "
            + "Default: the running nodes' only.")
    boolean all;

    /**
     * Shows each file to read, sorted by name: those named, or those of running nodes in the
     * directory (every one with {@code --all}); says what it left out, and names each file it cannot
     * read as a counters file.
     *
     * @param show what to print of a node's file; the view is closed after
     */
    void forEach(PrintWriter out, Consumer<CountersFile.View> show) {
        final boolean named = files != null && !files.isEmpty();
        int shown = 0;
        int stopped = 0;
        int unreadable = 0;
        for (Path path : named ? files : listed()) {
            final CountersFile.View view;
            try {
                view = CountersFile.open(path);
            } catch (IllegalArgumentException | UncheckedIOException ex) {
                if (named || all) {
                    out.printf("%s: %s%n", path, ex.getMessage());
                } else {
                    unreadable++;
                }
                continue;
            }
            try (view) {
                if (named || all || view.header().isProcessAlive()) {
                    show.accept(view);
                    shown++;
                } else {
                    stopped++;
                }
            }
        }
        if (shown == 0 && !named) {
            out.printf("no %s in %s%n", all ? "counters files" : "running node's counters file", directory);
        }
        if (stopped + unreadable > 0) {
            out.printf("(not shown: %s; --all shows them)%n", leftOut(stopped, unreadable));
        }
    }

    private static String leftOut(int stopped, int unreadable) {
        final String stoppedWords = stopped + (stopped == 1 ? " file of a stopped node" : " files of stopped nodes");
        final String unreadableWords = unreadable + (unreadable == 1 ? " file" : " files")
            + " that are not counters files of layout " + CountersFile.LAYOUT_VERSION;
        return stopped == 0 ? unreadableWords : unreadable == 0 ? stoppedWords : stoppedWords + ", " + unreadableWords;
    }

    /** The counters files in the directory, sorted by name. */
    private List<Path> listed() {
        if (!Files.isDirectory(directory)) {
            throw new IllegalArgumentException("no counters directory " + directory
                + ": no node has run on this host as this user, or give --dir / --file");
        }
        try (Stream<Path> listing = Files.list(directory)) {
            return listing.filter(path -> path.getFileName().toString().endsWith(CountersFile.SUFFIX))
                .sorted().toList();
        } catch (IOException ex) {
            throw new UncheckedIOException("cannot list " + directory, ex);
        }
    }
}
