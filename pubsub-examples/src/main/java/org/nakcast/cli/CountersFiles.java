package org.nakcast.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import picocli.CommandLine.Option;

/**
 * Which counters files {@code stat} and {@code errors} read: the files named with {@code --file},
 * or every {@code *.counters} file in {@code --dir} (by default where nodes put them).
 */
final class CountersFiles {
    @Option(names = "--file", paramLabel = "FILE",
        description = "A node's counters file (repeatable). Default: every *.counters file in --dir.")
    List<Path> files;

    @Option(names = "--dir", paramLabel = "DIR",
        description = "Where nodes keep their counters files. Default: ${DEFAULT-VALUE}.")
    Path directory = Path.of(System.getProperty("java.io.tmpdir"), "nakcast");

    /** The files to read, sorted by name. */
    List<Path> resolve() {
        if (files != null && !files.isEmpty()) {
            return files;
        }
        if (!Files.isDirectory(directory)) {
            throw new IllegalArgumentException("no counters directory " + directory
                + ": no node has run on this host as this user, or give --dir / --file");
        }
        try (Stream<Path> listing = Files.list(directory)) {
            return listing.filter(path -> path.getFileName().toString().endsWith(".counters")).sorted().toList();
        } catch (IOException ex) {
            throw new UncheckedIOException("cannot list " + directory, ex);
        }
    }
}
