package org.nakcast.benchmarks.throughput;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.nakcast.config.ByteSize;
import org.nakcast.config.NodeConfig;
import org.nakcast.config.TopicConfig;
import org.nakcast.config.TransportConfig;

/**
 * What one throughput run is: how long it measures, what the messages are (raw bytes of a size,
 * or the sample price update of a codec), the loss injected at the subscriber and the publisher's
 * send-rate cap. The orchestrator hands it to both child JVMs as
 * {@code key=value} arguments.
 *
 * @param seconds measured seconds, after the warm-up
 * @param warmupSeconds seconds of traffic before the measured ones
 * @param messageLength bytes per raw message, at least a {@code long} (the message's sequence number)
 * @param loss fraction of DATA and RETRANSMIT datagrams the subscriber drops on receipt, 0.0 to 1.0
 * @param sendRate the publisher's send-rate cap in bytes per second; 0 means unpaced
 * @param seed seeds the loss pattern
 * @param codec {@value Payload#RAW} or the codec that encodes and decodes the messages ({@link Payload})
 */
record RunSettings(int seconds, int warmupSeconds, int messageLength, double loss, ByteSize sendRate, long seed,
    String codec) {
    /** The topic of the embedded default config that the runs use. */
    static final String TOPIC = "prices";

    RunSettings {
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
        Payload.of(codec, messageLength);
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
    int totalSeconds() {
        return warmupSeconds + seconds;
    }

    /** The messages, as progress shows them: {@code 70-byte messages}, {@code codec fst}. */
    String messagesText() {
        return Payload.RAW.equals(codec) ? messageLength + "-byte messages" : "codec " + codec;
    }

    /** The send rate as a table shows it. */
    String rateText() {
        return sendRate.isZero() ? "unpaced" : sendRate + "/s";
    }

    /**
     * The embedded default configuration (interface {@code lo}, TTL 0) with every transport capped
     * at this run's send rate, and the topic {@value #TOPIC} as the payload needs it.
     */
    NodeConfig nodeConfig() {
        final NodeConfig base = NodeConfig.embeddedDefault();
        final List<TransportConfig> transports = base.transports().stream()
            .map(transport -> transport.withSendRate(sendRate))
            .toList();
        final Payload payload = payload();
        final List<TopicConfig> topics = base.topics().stream()
            .map(topic -> TOPIC.equals(topic.name()) ? payload.topic(topic) : topic)
            .toList();
        return new NodeConfig(base.node(), transports, topics).conclude();
    }

    /** This run as arguments for a child JVM. */
    List<String> toArgs() {
        return List.of(
            "seconds=" + seconds,
            "warmup=" + warmupSeconds,
            "size=" + messageLength,
            "loss=" + String.format(Locale.ROOT, "%s", loss),
            "rate=" + sendRate.bytes(),
            "seed=" + seed,
            "codec=" + codec);
    }

    /** Reads the arguments {@link #toArgs()} wrote. */
    static RunSettings fromArgs(String[] args) {
        final Map<String, String> values = new HashMap<>();
        for (String arg : args) {
            final int equals = arg.indexOf('=');
            if (equals < 1) {
                throw new IllegalArgumentException("expected key=value, got '" + arg + "'");
            }
            values.put(arg.substring(0, equals), arg.substring(equals + 1));
        }
        return new RunSettings(
            Integer.parseInt(required(values, "seconds")),
            Integer.parseInt(required(values, "warmup")),
            Integer.parseInt(required(values, "size")),
            Double.parseDouble(required(values, "loss")),
            new ByteSize(Long.parseLong(required(values, "rate"))),
            Long.parseLong(required(values, "seed")),
            required(values, "codec"));
    }

    private static String required(Map<String, String> values, String key) {
        final String value = values.get(key);
        if (value == null) {
            throw new IllegalArgumentException("missing argument " + key + "=...");
        }
        return value;
    }
}
