package org.nakcast.rtt;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;
import org.nakcast.config.IdleStrategyType;
import org.nakcast.config.NodeConfig;

import picocli.CommandLine.Option;

/**
 * The options both sides must agree on: config, topics, message size, baseline; and how each side's
 * thread waits. Opens the links of a run, in the order both sides go through them: the
 * {@code raw-udp} baseline first when asked for, then nakcast.
 */
final class LinkOptions {
    /** The classpath resource of the embedded default config. */
    static final String DEFAULT_CONFIG = "org/nakcast/rtt/latency-rtt.yaml";
    /** The {@code --baseline} value that turns the baseline on. */
    static final String RAW_UDP = "raw-udp";

    @Option(names = "--config", paramLabel = "FILE",
        description = {"the nodes' YAML config (see config/README.md): NIC, groups, ports, TTL of the two topics' "
            + "transports. Threading is always invoker (each side's thread drives its node).",
            "Default: the embedded one: topic ping on 239.255.77.11:40480, topic pong on 239.255.77.12:40490, "
                + "interface lo, TTL 0 (nothing leaves this host)."})
    Path config;

    @Option(names = "--ping-topic", paramLabel = "TOPIC", defaultValue = "ping",
        description = "the topic pings go out on (ping publishes, pong subscribes); default ${DEFAULT-VALUE}")
    String pingTopic;

    @Option(names = "--pong-topic", paramLabel = "TOPIC", defaultValue = "pong",
        description = "the topic echoes come back on (pong publishes, ping subscribes); default ${DEFAULT-VALUE}")
    String pongTopic;

    @Option(names = "--size", paramLabel = "BYTES", defaultValue = "32",
        description = {"bytes per message, at least " + PingMessage.LENGTH + " (sequence and send time); "
            + "default ${DEFAULT-VALUE}"})
    int size;

    @Option(names = "--idle", paramLabel = "STRATEGY", defaultValue = "spin",
        description = {"how each side's one thread waits between polls: spin (lowest latency, burns a core per "
            + "side), yield, backoff (spin, yield, then park: least CPU, more latency) or sleep (1 ms, for tests); "
            + "default ${DEFAULT-VALUE}"})
    String idle;

    @Option(names = "--baseline", paramLabel = RAW_UDP,
        description = {"also measure the same ping-pong over two bare UDP sockets (same interface and groups, "
            + "each transport's port + 2, same size and idle strategy), before nakcast, and report the ratios. "
            + "Give it to both ping and pong."})
    String baseline;

    /** Checks the values picocli cannot; the message names the option. */
    void check() {
        if (size < PingMessage.LENGTH) {
            throw new IllegalArgumentException("--size must be at least " + PingMessage.LENGTH + " (was " + size + ")");
        }
        idleType();
        if (baseline != null && !RAW_UDP.equals(baseline)) {
            throw new IllegalArgumentException("--baseline knows only " + RAW_UDP + " (was " + baseline + ")");
        }
    }

    /** The config named, or the embedded default; concluded, with both topics checked to exist. */
    NodeConfig loadConfig() {
        final NodeConfig loaded = config == null
            ? NodeConfig.parse(Resources.text(DEFAULT_CONFIG), DEFAULT_CONFIG) : NodeConfig.load(config);
        loaded.topic(pingTopic);
        loaded.topic(pongTopic);
        return loaded;
    }

    /** The links of a run, in order. */
    List<LinkKind> phases() {
        return baseline == null ? List.of(LinkKind.NAKCAST) : List.of(LinkKind.RAW_UDP, LinkKind.NAKCAST);
    }

    /**
     * Opens one side's link.
     *
     * @param kind which path
     * @param ping true for the ping side, false for pong
     * @param receiver gets what arrives
     * @param nodeConfig the loaded config
     */
    RttLink open(LinkKind kind, boolean ping, RttLink.Receiver receiver, NodeConfig nodeConfig) {
        final String sendTopic = ping ? pingTopic : pongTopic;
        final String receiveTopic = ping ? pongTopic : pingTopic;
        return switch (kind) {
            case NAKCAST -> new NakcastLink(nodeConfig, ping ? "latency-rtt-ping" : "latency-rtt-pong", sendTopic,
                receiveTopic, receiver);
            case RAW_UDP -> new UdpLink(nodeConfig.transport(nodeConfig.topic(sendTopic).transport()),
                nodeConfig.transport(nodeConfig.topic(receiveTopic).transport()), receiver);
        };
    }

    /** The idle strategy type named by {@code --idle}. */
    IdleStrategyType idleType() {
        try {
            return IdleStrategyType.valueOf(idle.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException ex) {
            throw new IllegalArgumentException("--idle must be spin, yield, backoff or sleep (was " + idle + ")", ex);
        }
    }

    /** A new idle strategy of the type named by {@code --idle}. */
    IdleStrategy newIdleStrategy() {
        return switch (idleType()) {
            case SPIN -> new BusySpinIdleStrategy();
            case YIELD -> new YieldingIdleStrategy();
            case BACKOFF -> new BackoffIdleStrategy();
            case SLEEP -> new SleepingMillisIdleStrategy(1);
        };
    }
}
