package org.nakcast.rtt;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.ServiceLoader;

import org.agrona.IoUtil;
import org.agrona.concurrent.IdleStrategy;
import org.nakcast.config.AuthKeyFile;
import org.nakcast.config.AuthKeys;
import org.nakcast.config.IdleStrategyType;
import org.nakcast.config.MediaType;
import org.nakcast.config.NodeConfig;
import org.nakcast.config.TransportConfig;
import org.nakcast.transport.media.MediaChoice;

import picocli.CommandLine.Option;

/**
 * The options both sides must agree on: config, topics, message size, baseline, peers, nakcast's
 * media, authentication and rounds; and how each side's thread waits. Opens the links of a run, in
 * the order both sides go through them: the {@code raw-udp} baseline first when asked for, then the
 * peers in the order named, then nakcast once per media (nio first), each without and then with
 * authenticated datagrams when {@code --auth} asks for them; with {@code --rounds} that order, then
 * its reverse, and so on ({@link #schedule}).
 */
final class LinkOptions {
    /** The classpath resource of the embedded default config. */
    static final String DEFAULT_CONFIG = "org/nakcast/rtt/latency-rtt.yaml";
    /** The {@code --baseline} value that turns the baseline on. */
    static final String RAW_UDP = "raw-udp";

    @Option(names = "--config", paramLabel = "FILE",
        description = {"the nodes' YAML config (see config/README.md): NIC, groups, ports, TTL of the two topics' "
            + "transports. Threading is always invoker (each side's thread drives its node).",
            "Default: the embedded one: topic ping on 239.255.77.11:40480, topic pong on 239.255.77.13:40490, "
                + "interface lo, TTL 0 (nothing leaves this host)."})
    Path config;

    @Option(names = "--ping-topic", paramLabel = "TOPIC", defaultValue = "ping",
        description = "the topic pings go out on (ping publishes, pong subscribes); default ${DEFAULT-VALUE}")
    String pingTopic;

    @Option(names = "--pong-topic", paramLabel = "TOPIC", defaultValue = "pong",
        description = "the topic echoes come back on (pong publishes, ping subscribes); default ${DEFAULT-VALUE}")
    String pongTopic;

    @Option(names = "--lines", paramLabel = "N", defaultValue = "1",
        description = {"1: each topic on its transport, as the config says; 2: each topic also on a line B, a copy of "
            + "its transport " + SecondLines.GROUP_STEP + " groups and " + SecondLines.PORT_STEP + " ports up "
            + "(embedded config: ping on 239.255.77.15:40500, pong on 239.255.77.17:40510); the publisher sends every "
            + "datagram on both and the receiver takes the first copy. The baseline and the peers stay on one line. "
            + "Give it to both ping and pong; default ${DEFAULT-VALUE}"})
    int lines;

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

    @Option(names = "--peer", paramLabel = "NAME", split = ",",
        description = {"also measure the same ping-pong over another messaging system (several: a,b), after the "
            + "baseline and before nakcast, with the same size, idle strategy, warm-up and count, and report the "
            + "ratios. Peers are found on the class path (ServiceLoader, org.nakcast.rtt.RttPath): ops/latency-peers "
            + "runs this tool with the benchmarks' jar, which brings aeron and aeron-shared. Give it to both ping "
            + "and pong."})
    List<String> peers;

    @Option(names = "--auth", arity = "0..1", fallbackValue = "", paramLabel = "KEY_FILE",
        description = {"also measure nakcast with authenticated datagrams (every transport of both topics with this "
            + "auth-key-file, as nakcast keygen writes it), after nakcast without, and report the ratio. Give the same "
            + "file to both ping and pong; local needs none: it writes a fresh key file for the run."})
    String auth;

    @Option(names = "--media", paramLabel = "MEDIA", split = ",", defaultValue = "nio",
        description = {"how nakcast's nodes move datagrams to and from the kernel (node.media, in place of the "
            + "config's): nio, Java's DatagramChannel, one system call per datagram; native, sendmmsg/recvmmsg with "
            + "UDP GSO/GRO (module nakcast-media-native: JDK 22 or later, Linux). Both (nio,native) measure nakcast on "
            + "each in turn, nio first, and report the ratio native / nio. A media this JVM cannot have stops the run "
            + "at start with the reason (exit 3): nio's figures are never reported as another media's. Give it to "
            + "both ping and pong; default ${DEFAULT-VALUE}"})
    List<String> media;

    @Option(names = "--rounds", paramLabel = "N", defaultValue = "1",
        description = {"measure the paths in N rounds that take turns: every path once in the order above, then "
            + "once in the reverse order, and so on (A B, B A, A B ...); each turn opens its link afresh, warms up "
            + "for --warmup round trips and measures its share of --count (or --duration), and each path is reported "
            + "over all its turns. On a host whose latency drifts from second to second, every path then meets the "
            + "same mix of its states, where one turn each compares what each path happened to meet. Give it to both "
            + "ping and pong; default ${DEFAULT-VALUE}"})
    int rounds;

    /** The key file of the authenticated phase, once {@link #check} resolved it; null without {@code --auth}. */
    private Path authKeyFile;

    /**
     * Checks the values picocli cannot; the message names the option.
     *
     * @param bothSidesHere whether ping and pong run in this process ({@code local}): then {@code --auth}
     *     without a file gets a fresh one
     */
    void check(boolean bothSidesHere) {
        authKeyFile = resolveAuth(bothSidesHere);
        if (size < PingMessage.LENGTH) {
            throw new IllegalArgumentException("--size must be at least " + PingMessage.LENGTH + " (was " + size + ")");
        }
        idleType();
        if (lines != 1 && lines != 2) {
            throw new IllegalArgumentException("--lines must be 1 or 2 (was " + lines + ")");
        }
        if (rounds < 1) {
            throw new IllegalArgumentException("--rounds must be at least 1 (was " + rounds + ")");
        }
        if (baseline != null && !RAW_UDP.equals(baseline)) {
            throw new IllegalArgumentException("--baseline knows only " + RAW_UDP + " (was " + baseline + ")");
        }
        phases();
        for (MediaType type : mediaTypes()) {
            final MediaChoice choice = MediaChoice.of(type.name());
            if (choice.fellBack()) {
                throw new IllegalArgumentException("--media " + NakcastPath.mediaName(type)
                    + " is not available here: " + choice.fallbackReason() + "; its nodes would run on "
                    + choice.media().name() + ", and a run measures only the media it names");
            }
        }
    }

    /** The key file of the authenticated phase; null without {@code --auth} or before {@link #check}. */
    Path authKeyFile() {
        return authKeyFile;
    }

    private Path resolveAuth(boolean bothSidesHere) {
        if (auth == null) {
            return null;
        }
        if (!auth.isEmpty()) {
            AuthKeyFile.read(Path.of(auth));
            return Path.of(auth);
        }
        if (!bothSidesHere) {
            throw new IllegalArgumentException("--auth needs the key file ping and pong share (nakcast keygen --out"
                + " FILE writes one)");
        }
        try {
            final Path dir = Files.createTempDirectory("latency-rtt-keys");
            final Path file = dir.resolve("rtt.keys");
            AuthKeyFile.write(file, new AuthKeys(1, List.of(AuthKeyFile.newKey(1))));
            Runtime.getRuntime().addShutdownHook(new Thread(() -> IoUtil.delete(dir.toFile(), true)));
            return file;
        } catch (IOException ex) {
            throw new UncheckedIOException("cannot write a key file for --auth", ex);
        }
    }

    /**
     * The config named, or the embedded default; concluded, with both topics checked to exist, and
     * with {@code --lines 2} both topics on two lines ({@link SecondLines}).
     */
    NodeConfig loadConfig() {
        final NodeConfig loaded = config == null
            ? NodeConfig.parse(Resources.text(DEFAULT_CONFIG), DEFAULT_CONFIG) : NodeConfig.load(config);
        loaded.topic(pingTopic);
        loaded.topic(pongTopic);
        return lines == 2 ? SecondLines.add(loaded, List.of(pingTopic, pongTopic)) : loaded;
    }

    /** The transports both topics travel on, in {@code config}: each topic's one line, or its line A and line B. */
    List<TransportConfig> topicTransports(NodeConfig config) {
        final List<TransportConfig> transports = new ArrayList<>(config.lines(config.topic(pingTopic)));
        transports.addAll(config.lines(config.topic(pongTopic)));
        return transports;
    }

    /**
     * The paths of a run, in order: the baseline, the peers, then nakcast on each {@code --media},
     * nio first, each without and then with {@code --auth}.
     *
     * @throws IllegalArgumentException if a {@code --peer} is not on the class path, or named twice; if
     *     a {@code --media} is not one, or named twice
     */
    List<RttPath> phases() {
        final List<RttPath> phases = new ArrayList<>();
        if (baseline != null) {
            phases.add(LinkKind.RAW_UDP);
        }
        if (peers != null) {
            final List<RttPath> found = ServiceLoader.load(RttPath.class).stream().map(ServiceLoader.Provider::get)
                .toList();
            for (String peer : peers) {
                final RttPath path = found.stream().filter(candidate -> candidate.label().equals(peer)).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("--peer " + peer + " is not on the class path ("
                        + (found.isEmpty() ? "no peer is: ops/latency-peers runs this tool with the peers' jar"
                            : "these are: " + String.join(", ", found.stream().map(RttPath::label).toList())) + ")"));
                if (phases.contains(path)) {
                    throw new IllegalArgumentException("--peer names " + peer + " twice");
                }
                phases.add(path);
            }
        }
        for (MediaType type : mediaTypes()) {
            phases.add(new NakcastPath(type, false));
            if (auth != null) {
                phases.add(new NakcastPath(type, true));
            }
        }
        return phases;
    }

    /**
     * The turns of a run, in the order both sides take them: {@code phases} (this run's
     * {@link #phases()}, the very instances: a peer's path found again is another object) in order in
     * the first round, in reverse order in the second, and so on for {@code --rounds}, so that a drift
     * of the host over the run weighs on every path alike.
     */
    List<RttPath> schedule(List<RttPath> phases) {
        final List<RttPath> backward = new ArrayList<>(phases);
        Collections.reverse(backward);
        final List<RttPath> turns = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            turns.addAll(round % 2 == 0 ? phases : backward);
        }
        return turns;
    }

    /** How a turn is named in messages: its path's label, and with {@code --rounds} its round, from 0. */
    String turnName(RttPath path, int round) {
        return rounds == 1 ? path.label() : path.label() + ", round " + (round + 1) + " of " + rounds;
    }

    /**
     * The media named by {@code --media}, {@code nio} first whatever the order named.
     *
     * @throws IllegalArgumentException naming the media known, for a name that is not one, or a name
     *     given twice
     */
    private List<MediaType> mediaTypes() {
        final EnumSet<MediaType> types = EnumSet.noneOf(MediaType.class);
        for (String name : media) {
            final MediaType type;
            try {
                type = MediaType.valueOf(name.toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException ex) {
                throw new IllegalArgumentException(notAMedia(name), ex);
            }
            if (!types.add(type)) {
                throw new IllegalArgumentException("--media names " + NakcastPath.mediaName(type) + " twice");
            }
        }
        if (types.isEmpty()) {
            throw new IllegalArgumentException(notAMedia(String.join(",", media)));
        }
        return List.copyOf(types);
    }

    /** What {@code --media} takes, and what it was given instead. */
    private static String notAMedia(String given) {
        final List<String> known = Arrays.stream(MediaType.values()).map(NakcastPath::mediaName).toList();
        return "--media takes " + String.join(" or ", known) + ", or several: " + String.join(",", known) + " (was "
            + given + ")";
    }

    /**
     * Opens one side's link.
     *
     * @param path which path
     * @param ping true for the ping side, false for pong
     * @param receiver gets what arrives
     * @param nodeConfig the loaded config
     */
    RttLink open(RttPath path, boolean ping, RttLink.Receiver receiver, NodeConfig nodeConfig) {
        return path.open(new LinkSetup(ping, nodeConfig, ping ? pingTopic : pongTopic, ping ? pongTopic : pingTopic,
            size, idleType(), authKeyFile), receiver);
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
        return LinkSetup.newIdleStrategy(idleType());
    }
}
