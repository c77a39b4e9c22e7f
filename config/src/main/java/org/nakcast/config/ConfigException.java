package org.nakcast.config;

import java.util.List;

/**
 * A config that cannot be used, with every problem found in it. The message lists them all, one
 * per line, each with its key path and, for a file, its line and column:
 *
 * <pre>
 * config/nakcast.yaml: 2 problems
 *   - unknown key 'trasnport' at topics[1] (line 14, column 5); did you mean 'transport'? known keys: ...
 *   - port must be in 1..65535 (was 70000) at transports[0].port (line 6, column 11)
 * </pre>
 */
public final class ConfigException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String source;
    private final transient List<Problem> problems;

    /**
     * @param source the file or resource the config came from, or where it was built
     * @param problems what is wrong, at least one
     */
    public ConfigException(String source, List<Problem> problems) {
        super(render(source, problems));
        this.source = source;
        this.problems = List.copyOf(problems);
    }

    private static String render(String source, List<Problem> problems) {
        StringBuilder text = new StringBuilder(source).append(": ").append(problems.size())
            .append(problems.size() == 1 ? " problem" : " problems");
        problems.forEach(problem -> text.append(System.lineSeparator()).append("  - ").append(problem.describe()));
        return text.toString();
    }

    /** @return the file or resource the config came from, or where it was built */
    public String source() {
        return source;
    }

    /** @return every problem, in the order of the document (the message alone survives serialization) */
    public List<Problem> problems() {
        return problems == null ? List.of() : problems;
    }
}
