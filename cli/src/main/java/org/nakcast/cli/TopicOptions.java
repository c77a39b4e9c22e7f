package org.nakcast.cli;

import java.nio.file.Path;

import org.nakcast.config.NodeConfig;

import picocli.CommandLine.Option;

/**
 * The options {@code pub} and {@code sub} share: which config, which topic. Both sides must name
 * the same config (group, port) and topic to hear each other.
 */
final class TopicOptions {
    @Option(names = "--config", paramLabel = "FILE",
        description = {"the node's YAML config (see config/README.md): its NIC, multicast group, port, TTL, "
            + "send rate and the topic's history and loss policy.",
            "Default: the embedded default (interface lo, TTL 0: nothing leaves this host)."})
    Path config;

    @Option(names = "--topic", paramLabel = "TOPIC",
        description = {"the topic to use; any codec: these commands send and check raw bytes.",
            "Default: the config's first topic (prices in the embedded default)."})
    String topic;

    /** The config named, or the embedded default; concluded. */
    NodeConfig loadConfig() {
        return config == null ? NodeConfig.embeddedDefault() : NodeConfig.load(config);
    }

    /** The topic named, or the config's first; checked to exist. */
    String topicName(NodeConfig nodeConfig) {
        return topic == null ? nodeConfig.topics().get(0).name() : nodeConfig.topic(topic).name();
    }
}
