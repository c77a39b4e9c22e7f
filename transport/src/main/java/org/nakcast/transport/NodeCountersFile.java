package org.nakcast.transport;

import java.nio.file.Path;
import java.util.List;

import org.nakcast.config.NodeSettings;
import org.nakcast.transport.status.CountersFile;
import org.nakcast.transport.status.StaleCountersFiles;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds a starting node its counters file: the configured one or, while a live node of this
 * process or another holds it (two nodes of one name: the default name is per process), the first
 * free {@code name-2}, {@code name-3}, ... beside it. The counters files of stopped nodes in that
 * directory are removed first ({@link StaleCountersFiles}).
 */
final class NodeCountersFile {
    private static final Logger LOG = LoggerFactory.getLogger(Node.class);
    private static final int MAX_ATTEMPTS = 100;

    private NodeCountersFile() {
    }

    /**
     * @return the node's counters file, created and held
     * @throws IllegalStateException the first refusal, when every name was held
     */
    static CountersFile open(NodeSettings settings) {
        final Path configured = settings.countersFile();
        final List<Path> removed = StaleCountersFiles.remove(configured.toAbsolutePath().getParent());
        if (!removed.isEmpty()) {
            LOG.info("node {}: removed {} counters files of stopped nodes from {}", settings.name(), removed.size(),
                configured.toAbsolutePath().getParent());
        }
        final String stem = stem(configured);
        IllegalStateException firstRefusal = null;
        for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
            final Path path = attempt == 1 ? configured
                : configured.resolveSibling(stem + "-" + attempt + CountersFile.SUFFIX);
            try {
                return CountersFile.create(path, settings.name(), settings.keepCountersFile());
            } catch (IllegalStateException ex) {
                firstRefusal = firstRefusal == null ? ex : firstRefusal;
            }
        }
        throw firstRefusal;
    }

    /**
     * The file's name without its suffix: for the file a node holds, its name made unique among the
     * live nodes of this host, and the same again when a node of that name restarts.
     */
    static String stem(Path countersFile) {
        final String fileName = countersFile.getFileName().toString();
        return fileName.endsWith(CountersFile.SUFFIX)
            ? fileName.substring(0, fileName.length() - CountersFile.SUFFIX.length()) : fileName;
    }
}
