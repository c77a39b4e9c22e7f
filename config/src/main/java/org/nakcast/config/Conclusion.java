package org.nakcast.config;

import java.util.List;
import java.util.regex.Pattern;

/**
 * The {@code conclude()} step: checks what a config's values mean, all of them, and returns the
 * config with what it derives filled in: each transport's interface found on this machine, the
 * counters file, the recording directory made absolute. Every problem is reported at once.
 */
final class Conclusion {
    private static final Pattern NODE_NAME = Pattern.compile("[A-Za-z0-9._-]+");

    private Conclusion() {
    }

    /**
     * @param config the config as written, defaults applied
     * @param context the codec names, network interfaces and key files to check against
     * @param problems where problems go; it places them in the config's source
     * @return the concluded config
     * @throws ConfigException with every problem found
     */
    static NodeConfig conclude(NodeConfig config, ConcludeContext context, ProblemList problems) {
        NodeSettings node = concludeNode(config.node(), problems);
        requireEntries("transports", config.transports(), problems);
        requireEntries("topics", config.topics(), problems);
        List<TransportConfig> transports =
            new TransportChecks(context.networkInterfaces(), context.readsKeyFiles(), problems)
                .resolve(config.transports());
        new TopicChecks(context.codecNames(), problems).check(config.topics(), transports);
        final RecorderConfig recorder = new RecorderChecks(problems).conclude(config.recorder(), config.topics());
        problems.throwIfAny();
        return new NodeConfig(node, transports, config.topics(), recorder);
    }

    private static void requireEntries(String key, List<?> entries, ProblemList problems) {
        if (entries.isEmpty()) {
            problems.add(key, "no " + key, "a node needs at least one entry in " + key);
        }
    }

    private static NodeSettings concludeNode(NodeSettings node, ProblemList problems) {
        if (!NODE_NAME.matcher(node.name()).matches()) {
            problems.add("node.name", "node name must be letters, digits, '.', '_' or '-' (was '" + node.name() + "')",
                "it is part of the counters file's name");
            return node;
        }
        return node.countersFile() == null
            ? node.withCountersFile(NodeSettings.defaultCountersFile(node.name()))
            : node;
    }
}
