package org.nakcast.config;

import com.fasterxml.jackson.annotation.JsonProperty;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * A node's whole configuration: the {@code node:} section, the {@code transports:}, the
 * {@code topics:} and, for a recorder, the {@code recorder:} section. It is read from YAML
 * ({@link #load(Path)}, {@link #parse(String, String)}, {@link #embeddedDefault()}) or built in
 * code, and is used only once concluded: every way to load one returns it concluded,
 * {@link #conclude()} checks a config built in code at once, and a node concludes whatever it is
 * launched with again, its topics' codec names against the codecs it has
 * (built in, found on the class path, registered in code): no list of codec names is given twice.
 *
 * <pre>{@code
 * NodeConfig config = NodeConfig.load(Path.of("config/nakcast.yaml"));
 * NodeConfig inCode = new NodeConfig(null,
 *         List.of(new TransportConfig("local", "lo", "239.255.0.1", 40456)),
 *         List.of(new TopicConfig("prices", 1, "local", "flyweight")))
 *     .conclude();
 * }</pre>
 *
 * @param node the node's settings; null means every setting at its default
 * @param transports the transports, at least one (required)
 * @param topics the topics, at least one (required)
 * @param recorder how a recorder run with this config keeps the topics marked {@code record: true};
 *     null means every setting at its default
 */
public record NodeConfig(
    @JsonProperty("node") NodeSettings node,
    @RequiredKey @JsonProperty("transports") List<TransportConfig> transports,
    @RequiredKey @JsonProperty("topics") List<TopicConfig> topics,
    @JsonProperty("recorder") RecorderConfig recorder) {

    /** The classpath resource of the embedded default config, a copy of {@code config/nakcast.yaml}. */
    public static final String EMBEDDED_DEFAULT_RESOURCE = "org/nakcast/config/nakcast.yaml";
    /** The classpath resource of the commented LAN example, a copy of {@code config/lan-example.yaml}. */
    public static final String LAN_EXAMPLE_RESOURCE = "org/nakcast/config/lan-example.yaml";
    /** How problems found by {@link #conclude(ConcludeContext)} name the config: it may be built in code or loaded. */
    private static final String CONCLUDED = "NodeConfig";

    /** Applies the defaults for what is null and copies the lists. */
    public NodeConfig {
        node = node == null ? NodeSettings.defaults() : node;
        transports = Lists.copyOf(transports);
        topics = Lists.copyOf(topics);
        recorder = recorder == null ? RecorderConfig.defaults() : recorder;
    }

    /**
     * A config whose recorder settings, if it records, are the defaults.
     *
     * @param node the node's settings; null means every setting at its default
     * @param transports the transports, at least one
     * @param topics the topics, at least one
     */
    public NodeConfig(NodeSettings node, List<TransportConfig> transports, List<TopicConfig> topics) {
        this(node, transports, topics, null);
    }

    /**
     * This config for a node of another name: several nodes from one file (one process or several),
     * each told apart in logs, thread names and its counters file. A counters file derived from the
     * old name is derived from the new one when the config is concluded (as {@code Node.launch}
     * does); one set in the file stays.
     *
     * @param nodeName the node's name
     * @return this config under that name, every other section as it is
     */
    public NodeConfig withNodeName(String nodeName) {
        return new NodeConfig(node.withName(nodeName), transports, topics, recorder);
    }

    /** @return this config with that {@code recorder:} section */
    public NodeConfig withRecorder(RecorderConfig recorderConfig) {
        return new NodeConfig(node, transports, topics, recorderConfig);
    }

    /** @return the topics marked {@code record: true}, in the config's order */
    public List<TopicConfig> recordedTopics() {
        return topics.stream().filter(topic -> topic != null && topic.record()).toList();
    }

    /**
     * Reads, checks and concludes a config file against this machine; the node it launches checks
     * the topics' codec names against the codecs it has.
     *
     * @param file a YAML config file
     * @return the concluded config
     * @throws ConfigException naming every problem, by file, key path, line and column
     */
    public static NodeConfig load(Path file) {
        return load(file, ConcludeContext.system());
    }

    /**
     * Reads, checks and concludes a config file.
     *
     * @param file a YAML config file
     * @param context the codec names and network interfaces to check against
     * @return the concluded config
     * @throws ConfigException naming every problem, by file, key path, line and column
     */
    public static NodeConfig load(Path file, ConcludeContext context) {
        String yaml;
        try {
            yaml = Files.readString(file);
        } catch (IOException e) {
            throw ProblemList.wholeSourceFailure(file.toString(), SourceLocation.UNKNOWN, "cannot read the file: " + e);
        }
        return ConfigReader.read(yaml, file.toString(), context);
    }

    /**
     * Reads, checks and concludes a config given as text, against this machine; the node it
     * launches checks the topics' codec names against the codecs it has.
     *
     * @param yaml the config as YAML
     * @param sourceName where the text came from, for error messages
     * @return the concluded config
     * @throws ConfigException naming every problem, by source, key path, line and column
     */
    public static NodeConfig parse(String yaml, String sourceName) {
        return parse(yaml, sourceName, ConcludeContext.system());
    }

    /**
     * Reads, checks and concludes a config given as text.
     *
     * @param yaml the config as YAML
     * @param sourceName where the text came from, for error messages
     * @param context the codec names and network interfaces to check against
     * @return the concluded config
     * @throws ConfigException naming every problem, by source, key path, line and column
     */
    public static NodeConfig parse(String yaml, String sourceName, ConcludeContext context) {
        return ConfigReader.read(yaml, sourceName, context);
    }

    /**
     * The config shipped in this jar: interface {@code lo}, TTL 0, two sample topics. Traffic
     * stays on this host.
     *
     * @return the concluded embedded default
     * @throws ConfigException if this machine cannot run it (no {@code lo})
     */
    public static NodeConfig embeddedDefault() {
        try (InputStream in = NodeConfig.class.getClassLoader().getResourceAsStream(EMBEDDED_DEFAULT_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("resource " + EMBEDDED_DEFAULT_RESOURCE + " is missing from the jar");
            }
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8),
                "classpath:" + EMBEDDED_DEFAULT_RESOURCE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read resource " + EMBEDDED_DEFAULT_RESOURCE, e);
        }
    }

    /**
     * Checks this config against this machine and fills in what is derived; the node it launches
     * checks the topics' codec names against the codecs it has.
     *
     * @return the concluded config
     * @throws ConfigException naming every problem by key path
     */
    public NodeConfig conclude() {
        return conclude(ConcludeContext.system());
    }

    /**
     * Checks this config and fills in what is derived: each transport's interface found on the
     * machine, the node's counters file. Concluding a concluded config again is harmless.
     *
     * @param context the codec names and network interfaces to check against
     * @return the concluded config
     * @throws ConfigException naming every problem by key path, and a problem in topics read from
     *     YAML (and not replaced since) by its line and column too
     */
    public NodeConfig conclude(ConcludeContext context) {
        final ConfigSource source = topics instanceof LocatedTopics located ? located.source()
            : ConfigSource.withoutLocations(CONCLUDED);
        return Conclusion.conclude(this, context, new ProblemList(source));
    }

    /**
     * @param name a topic's name
     * @return the topic of that name
     * @throws IllegalArgumentException if there is none, suggesting the closest name
     */
    public TopicConfig topic(String name) {
        return topics.stream().filter(topic -> Objects.equals(topic.name(), name)).findFirst()
            .orElseThrow(() -> new IllegalArgumentException("no topic '" + name + "' in this config; "
                + Spelling.hint(name, topics.stream().map(TopicConfig::name).toList(), "known topics")));
    }

    /**
     * The transports a topic travels on, concluded: its one transport, or line A and line B.
     *
     * @param topic one of this config's topics
     * @return its transports, in the order the topic names them
     * @throws IllegalArgumentException if it names a transport this config does not have
     */
    public List<TransportConfig> lines(TopicConfig topic) {
        return topic.lines().stream().map(this::transport).toList();
    }

    /**
     * @param name a transport's name, as a topic names it
     * @return the transport of that name
     * @throws IllegalArgumentException if there is none, suggesting the closest name
     */
    public TransportConfig transport(String name) {
        return transports.stream().filter(transport -> Objects.equals(transport.name(), name)).findFirst()
            .orElseThrow(() -> new IllegalArgumentException("no transport '" + name + "' in this config; "
                + Spelling.hint(name, transports.stream().map(TransportConfig::name).toList(), "known transports")));
    }
}
