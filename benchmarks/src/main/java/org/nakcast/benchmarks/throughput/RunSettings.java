package org.nakcast.benchmarks.throughput;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.nakcast.config.ByteSize;
import org.nakcast.config.Durations;
import org.nakcast.config.FlowControlMode;
import org.nakcast.config.MediaType;
import org.nakcast.config.NodeConfig;
import org.nakcast.config.TopicConfig;
import org.nakcast.config.TransportConfig;
import org.nakcast.rtt.KernelLoss;
import org.nakcast.rtt.SecondLines;
import org.nakcast.transport.Node;
import org.nakcast.transport.NodeContext;
import org.nakcast.transport.node.NodeHarness;

/**
 * What one throughput run is: which system carries the messages, how long it measures, what the
 * messages are (raw bytes of a size, or the sample price update of a codec), how large a datagram
 * each system sends, the loss the kernel applies to every datagram, the loss injected in process at
 * a nakcast subscriber, and nakcast's send-rate cap, how often a stranger NAKs the whole history
 * ({@link StrangerNaks}), whether the topic travels on one line or two, nakcast's media, and whether a
 * recorder records the topic as one more subscriber ({@link RecorderMain}). The orchestrator
 * hands it to both child JVMs as {@code key=value} arguments.
 *
 * @param system the system the run measures: nakcast or a peer
 * @param seconds measured seconds, after the warm-up
 * @param warmupSeconds seconds of traffic before the measured ones
 * @param messageLength bytes per raw message, at least a {@code long} (the message's sequence number)
 * @param datagramSize the largest datagram each system sends: nakcast's transport {@code datagram-size},
 *     Aeron's MTU, fast-cast's datagram size; within what the run's system takes
 *     ({@link Contender#datagramSizeProblem}; nakcast's own config checks its own, {@link #nodeConfig()})
 * @param loss fraction of the UDP datagrams the kernel drops on receipt in the run's namespace
 *     ({@link #kernelLoss()}), on each line, 0.0 to 1.0
 * @param injectedLoss fraction of DATA and RETRANSMIT datagrams a nakcast subscriber drops on
 *     receipt, in process and seeded, 0.0 to 1.0; 0 for a peer
 * @param sendRate nakcast's send-rate cap in bytes per second; 0 means unpaced (and for a peer)
 * @param flowControl the nakcast topic's flow control: {@code MAX}, the publisher at its own pace, or
 *     {@code MIN}, held to its slowest receiver, with a {@value #HELD_HISTORY} history so that what
 *     it may run ahead fits the receiver's socket buffer (see {@link Payload#codecTopic})
 * @param seed seeds the injected loss pattern
 * @param codec {@value Payload#RAW} or the codec that encodes and decodes the messages ({@link Payload});
 *     {@value Payload#RAW} for a peer
 * @param strangerNaks how often a stranger multicasts a forged NAK for the whole history of the
 *     nakcast stream ({@link StrangerNaks}); zero for none, and for a peer
 * @param lines the lines the nakcast topic travels on: 1, or 2 (its transport as line A and a copy of
 *     it as line B, {@link SecondLines}), each losing {@code loss} on its own; 1 for a peer
 * @param media how nakcast's nodes move datagrams to and from the kernel ({@code node.media}); {@code NIO}
 *     for a peer. A node that cannot have the media asked for stops the run (it does not fall back here)
 * @param recorder whether a recorder JVM records the topic beside the subscriber ({@link RecorderMain}),
 *     held to like any receiver under flow control {@code min}; false for a peer
 * @param authKeyFile the key file nakcast's transports authenticate every datagram with
 *     ({@code auth-key-file}), or null for none, and for a peer
 */
public record RunSettings(Contender system, int seconds, int warmupSeconds, int messageLength,
    ByteSize datagramSize, double loss, double injectedLoss, ByteSize sendRate, FlowControlMode flowControl, long seed,
    String codec, Duration strangerNaks, int lines, MediaType media, boolean recorder, String authKeyFile) {
    /** The topic of the embedded default config that the runs use. */
    static final String TOPIC = "prices";
    /** The history of a topic held to its slowest receiver. */
    static final String HELD_HISTORY = "2m";
    /**
     * The topic's offer buffer, for every run: Aeron's term length in its runs ({@code AeronPeer}), about
     * 15 ms of the fastest run's messages. With the topic's default 2 MiB (under 2 ms of them) the
     * buffer now and then ran near empty, and the run went on at about half its rate (benchmarks README:
     * "The offer buffer").
     */
    static final String OFFER_BUFFER = "16m";

    public RunSettings {
        if (seconds < 1) {
            throw new IllegalArgumentException("--seconds must be at least 1, was " + seconds);
        }
        if (warmupSeconds < 0) {
            throw new IllegalArgumentException("--warmup must not be negative, was " + warmupSeconds);
        }
        if (messageLength < Long.BYTES) {
            throw new IllegalArgumentException(
                "--size must be at least " + Long.BYTES + " (the message carries a 64-bit sequence), was "
                    + messageLength);
        }
        if (!(loss >= 0.0 && loss <= 1.0)) {
            throw new IllegalArgumentException("--loss must be within 0..1, was " + loss);
        }
        if (!(injectedLoss >= 0.0 && injectedLoss <= 1.0)) {
            throw new IllegalArgumentException("--injected-loss must be within 0..1, was " + injectedLoss);
        }
        Payload.of(codec, messageLength);
        final String datagramSizeProblem = system.datagramSizeProblem(datagramSize, messageLength);
        if (datagramSizeProblem != null) {
            throw new IllegalArgumentException("--datagram-size " + datagramSize + ": " + datagramSizeProblem);
        }
        if (strangerNaks.isNegative()) {
            throw new IllegalArgumentException("--stranger-naks must not be negative, was " + strangerNaks);
        }
        if (lines != 1 && lines != 2) {
            throw new IllegalArgumentException("--lines must be 1 or 2, was " + lines);
        }
        if (system != Contender.NAKCAST && (injectedLoss != 0 || !Payload.RAW.equals(codec)
            || !strangerNaks.isZero() || lines != 1 || media != MediaType.NIO || recorder || authKeyFile != null)) {
            throw new IllegalArgumentException(system.label()
                + " runs carry raw bytes on one line with kernel loss only, no recorder and no authentication");
        }
    }

    /**
     * What the messages are and how both sides handle them.
     *
     * @throws IllegalArgumentException if the codec is unknown
     */
    Payload payload() {
        return Payload.of(codec, messageLength);
    }

    /** Seconds the publisher offers: warm-up plus measurement. */
    public int totalSeconds() {
        return warmupSeconds + seconds;
    }

    /** The messages, as progress shows them: {@code 70-byte messages}, {@code codec fst}. */
    String messagesText() {
        return Payload.RAW.equals(codec) ? messageLength + "-byte messages" : "codec " + codec;
    }

    /** The send rate as a table shows it; a peer paces itself. */
    String rateText() {
        if (system != Contender.NAKCAST) {
            return "own";
        }
        return sendRate.isZero() ? "unpaced" : sendRate + "/s";
    }

    /** How often the stranger NAKs, as a table shows it: {@code 1ms}, or {@code -} for none. */
    String strangerText() {
        return strangerNaks.isZero() ? "-" : Durations.format(strangerNaks);
    }

    /**
     * The same run for a peer: raw bytes of the same length in datagrams of the same size, the same
     * duration and kernel loss, no injected loss, no send-rate cap (each peer paces itself), no
     * stranger, one line, no recorder.
     */
    RunSettings forPeer(Contender peer) {
        return new RunSettings(peer, seconds, warmupSeconds, messageLength, datagramSize, loss, 0, new ByteSize(0),
            flowControl, seed, Payload.RAW, Duration.ZERO, 1, MediaType.NIO, false, null);
    }

    /**
     * The kernel's loss for this run: on one line, one rule for every UDP datagram, the same for
     * nakcast and the peers; on two lines, one rule per line, each dropping {@link #loss()} of its
     * own datagrams.
     *
     * @throws IllegalStateException if iptables is missing or refuses
     */
    KernelLoss kernelLoss() {
        if (lines == 1) {
            return KernelLoss.onEveryUdpDatagram(loss);
        }
        final NodeConfig config = nodeConfig();
        return KernelLoss.perTransport(loss, config.lines(config.topic(TOPIC)));
    }

    /**
     * The embedded default configuration (interface {@code lo}, TTL 0) with every transport capped
     * at this run's send rate and sending datagrams of this run's size, and the topic {@value #TOPIC}
     * as the payload needs it, with the run's flow control and a {@value #OFFER_BUFFER} offer buffer; on
     * two lines, the topic also on a copy of its transport ({@link SecondLines}).
     *
     * @throws org.nakcast.config.ConfigException if nakcast refuses the config, naming the key
     */
    NodeConfig nodeConfig() {
        final NodeConfig base = NodeConfig.embeddedDefault();
        final List<TransportConfig> transports = base.transports().stream()
            .map(transport -> transport.withSendRate(sendRate).withDatagramSize(datagramSize)
                .withAuthKeyFile(authKeyFile))
            .toList();
        final Payload payload = payload();
        final List<TopicConfig> topics = base.topics().stream()
            .map(topic -> TOPIC.equals(topic.name())
                ? withFlowControl(payload.topic(topic)).withOfferBuffer(ByteSize.parse(OFFER_BUFFER)) : topic)
            .toList();
        final NodeConfig config = new NodeConfig(base.node().withMedia(media), transports, topics).conclude();
        return lines == 1 ? config : SecondLines.add(config, List.of(TOPIC));
    }

    /**
     * Launches one side's node of this run, with the seed and injected loss {@code harness} gives.
     *
     * @throws IllegalStateException if the node cannot have the run's media: a run measures the media
     *     it names or fails, it never measures another under that name
     */
    Node launch(NodeConfig config, NodeHarness harness) {
        final Node node = Node.launch(new NodeContext().config(config), harness);
        final String reason = node.mediaFallback();
        if (reason != null) {
            node.close();
            throw new IllegalStateException("--media " + media.name().toLowerCase(Locale.ROOT)
                + " is not available here: " + reason);
        }
        return node;
    }

    private TopicConfig withFlowControl(TopicConfig topic) {
        return flowControl == FlowControlMode.MIN
            ? topic.withFlowControl(FlowControlMode.MIN).withHistory(ByteSize.parse(HELD_HISTORY))
            : topic.withFlowControl(FlowControlMode.MAX);
    }

    /** The same run without a stranger. */
    RunSettings withoutStranger() {
        return new RunSettings(system, seconds, warmupSeconds, messageLength, datagramSize, loss, injectedLoss,
            sendRate, flowControl, seed, codec, Duration.ZERO, lines, media, recorder, authKeyFile);
    }

    /** The same run without authentication. */
    RunSettings withoutAuth() {
        return new RunSettings(system, seconds, warmupSeconds, messageLength, datagramSize, loss, injectedLoss,
            sendRate, flowControl, seed, codec, strangerNaks, lines, media, recorder, null);
    }

    /** The same run without a recorder. */
    RunSettings withoutRecorder() {
        return new RunSettings(system, seconds, warmupSeconds, messageLength, datagramSize, loss, injectedLoss,
            sendRate, flowControl, seed, codec, strangerNaks, lines, media, false, authKeyFile);
    }

    /** This run as arguments for a child JVM. */
    List<String> toArgs() {
        final List<String> args = new ArrayList<>(List.of(
            "system=" + system.label(),
            "seconds=" + seconds,
            "warmup=" + warmupSeconds,
            "size=" + messageLength,
            "datagramSize=" + datagramSize.bytes(),
            "loss=" + String.format(Locale.ROOT, "%s", loss),
            "injectedLoss=" + String.format(Locale.ROOT, "%s", injectedLoss),
            "rate=" + sendRate.bytes(),
            "flowControl=" + flowControl,
            "seed=" + seed,
            "codec=" + codec,
            "strangerNaks=" + strangerNaks.toNanos(),
            "lines=" + lines,
            "media=" + media,
            "recorder=" + recorder));
        if (authKeyFile != null) {
            args.add("authKeyFile=" + authKeyFile);
        }
        return args;
    }

    /**
     * Reads the arguments {@link #toArgs()} wrote.
     *
     * @throws IllegalArgumentException if one is missing or wrong
     */
    public static RunSettings fromArgs(String[] args) {
        final Map<String, String> values = new HashMap<>();
        for (String arg : args) {
            final int equals = arg.indexOf('=');
            if (equals < 1) {
                throw new IllegalArgumentException("expected key=value, got '" + arg + "'");
            }
            values.put(arg.substring(0, equals), arg.substring(equals + 1));
        }
        return new RunSettings(
            Contender.of(required(values, "system")),
            Integer.parseInt(required(values, "seconds")),
            Integer.parseInt(required(values, "warmup")),
            Integer.parseInt(required(values, "size")),
            new ByteSize(Long.parseLong(required(values, "datagramSize"))),
            Double.parseDouble(required(values, "loss")),
            Double.parseDouble(required(values, "injectedLoss")),
            new ByteSize(Long.parseLong(required(values, "rate"))),
            FlowControlMode.valueOf(required(values, "flowControl")),
            Long.parseLong(required(values, "seed")),
            required(values, "codec"),
            Duration.ofNanos(Long.parseLong(required(values, "strangerNaks"))),
            Integer.parseInt(required(values, "lines")),
            MediaType.valueOf(required(values, "media")),
            Boolean.parseBoolean(required(values, "recorder")), values.get("authKeyFile"));
    }

    private static String required(Map<String, String> values, String key) {
        final String value = values.get(key);
        if (value == null) {
            throw new IllegalArgumentException("missing argument " + key + "=...");
        }
        return value;
    }
}
