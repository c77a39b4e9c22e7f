package org.nakcast.transport.status;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Removes the counters files of stopped nodes from a directory, as a starting node does with the
 * directory of its own counters file, so that files do not pile up on a host where nodes come and
 * go (the default node name, {@code nakcast-<pid>}, is new with every process).
 *
 * <p>A file is removed only if all of these hold:
 * <ul>
 *   <li>its name ends in {@code .counters} and it is a counters file of this layout
 *   ({@link CountersFile#LAYOUT_VERSION}): anything else is left alone, whoever wrote it;</li>
 *   <li>its node's process is gone ({@link CountersFile.Header#isProcessAlive()}: no process of that
 *   id, or one that started after the node, reusing the id);</li>
 *   <li>no process holds its lock: a running node locks its file for as long as it runs, so a live
 *   node's file is never removed, even one whose process id means nothing here (another pid
 *   namespace sharing the directory);</li>
 *   <li>its node did not ask to keep it ({@link CountersFile#KEEP_FLAG}).</li>
 * </ul>
 * The file is removed while this process holds its lock, and a file a node of this process holds is
 * not opened at all ({@link CountersFile#removeIfStale}). A file another process removes meanwhile,
 * or one that cannot be read or removed, is passed over, never fatal: the starting node is what
 * matters.
 */
public final class StaleCountersFiles {
    private StaleCountersFiles() {
    }

    /**
     * Removes the counters files of stopped nodes in {@code directory}; does nothing if it does not exist.
     *
     * @return the files removed
     * @throws UncheckedIOException naming the directory if it cannot be listed
     */
    public static List<Path> remove(Path directory) {
        final List<Path> removed = new ArrayList<>();
        if (!Files.isDirectory(directory)) {
            return removed;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, "*" + CountersFile.SUFFIX)) {
            for (Path file : files) {
                if (removeIfStale(file)) {
                    removed.add(file);
                }
            }
        } catch (IOException ex) {
            throw new UncheckedIOException("cannot list the counters files in " + directory, ex);
        }
        return removed;
    }

    private static boolean removeIfStale(Path file) {
        try {
            return CountersFile.removeIfStale(file);
        } catch (IOException goneOrUnreadable) {
            return false;
        }
    }
}
