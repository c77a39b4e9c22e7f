package org.nakcast.config;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The problems found in one config so far, each placed by its key path through the config's
 * {@link ConfigSource}. Loading and concluding add to it and go on, so that one run reports
 * everything; {@link #throwIfAny()} ends the run if anything was found.
 */
final class ProblemList {
    private static final Comparator<Problem> DOCUMENT_ORDER = Comparator
        .comparing((Problem problem) -> !problem.hasLocation())
        .thenComparingInt(Problem::line)
        .thenComparingInt(Problem::column);

    private final ConfigSource source;
    private final List<Problem> problems = new ArrayList<>();

    ProblemList(ConfigSource source) {
        this.source = source;
    }

    /**
     * @return the exception for a source that cannot be read at all: not found, not YAML
     */
    static ConfigException wholeSourceFailure(String sourceName, SourceLocation at, String message) {
        ProblemList problems = new ProblemList(ConfigSource.withoutLocations(sourceName));
        problems.add("", at, message, "");
        return new ConfigException(sourceName, problems.problems);
    }

    ConfigSource source() {
        return source;
    }

    void add(String path, String message) {
        add(path, message, "");
    }

    void add(String path, String message, String hint) {
        add(path, source.locate(path), message, hint);
    }

    void add(String path, SourceLocation at, String message, String hint) {
        problems.add(new Problem(source.name(), path, at.line(), at.column(), message, hint));
    }

    boolean isEmpty() {
        return problems.isEmpty();
    }

    /** @throws ConfigException with every problem, if there is any, in the order of the document */
    void throwIfAny() {
        if (!problems.isEmpty()) {
            throw new ConfigException(source.name(), problems.stream().sorted(DOCUMENT_ORDER).toList());
        }
    }
}
