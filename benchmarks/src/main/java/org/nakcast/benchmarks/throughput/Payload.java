package org.nakcast.benchmarks.throughput;

import java.util.ArrayList;
import java.util.List;

import org.nakcast.codecs.CodecNames;
import org.nakcast.config.ByteSize;
import org.nakcast.config.FlowControlMode;
import org.nakcast.config.TopicConfig;
import org.nakcast.transport.Node;

/**
 * What a throughput run's messages are and how both sides handle them: the topic's config, how
 * the publisher offers message number n, and how the subscriber hands each message's number to
 * the {@link DeliveryChecker}. {@value #RAW} is raw bytes on the embedded default topic as it is;
 * every codec name carries the sample {@code PriceUpdate}, encoded by that codec on the publisher
 * and decoded by it on the subscriber, the topic held to its slowest receiver.
 */
sealed interface Payload permits RawPayload, FlyweightPayload, ObjectPayload {
    /** The name of raw bytes, the default: no codec. */
    String RAW = "raw";
    /** The built-in codecs: the flyweight, then the FST and Kryo object codecs, then JDK serialization. */
    List<String> CODECS = List.of(CodecNames.FLYWEIGHT, CodecNames.FST_UNSHARED, CodecNames.FST,
        CodecNames.KRYO, CodecNames.JDK_EXTERNALIZABLE, CodecNames.JDK);

    /** {@value #RAW}, then the built-in codecs: the names {@link #of} takes. */
    static List<String> names() {
        final List<String> names = new ArrayList<>();
        names.add(RAW);
        names.addAll(CODECS);
        return names;
    }

    /**
     * @param name {@value #RAW} or a built-in codec's name
     * @param messageLength bytes per raw message; not used by a codec
     * @throws IllegalArgumentException for another name
     */
    static Payload of(String name, int messageLength) {
        if (RAW.equals(name)) {
            return new RawPayload(messageLength);
        }
        if (CodecNames.FLYWEIGHT.equals(name)) {
            return new FlyweightPayload();
        }
        if (CODECS.contains(name)) {
            return new ObjectPayload(name);
        }
        throw new IllegalArgumentException("--codec must be one of " + String.join(", ", names()) + ", was '"
            + name + "'");
    }

    /**
     * The topic of a codec run: {@code base} with {@code codec}, flow control {@code min} (a decoder
     * slower than the publisher holds it back rather than fall behind its history) and
     * {@code allowedClasses}.
     */
    static TopicConfig codecTopic(TopicConfig base, String codec, List<String> allowedClasses) {
        return base.withCodec(codec).withHistory(ByteSize.parse(RunSettings.HELD_HISTORY))
            .withFlowControl(FlowControlMode.MIN).withAllowedClasses(allowedClasses);
    }

    /** {@value #RAW} or the codec's name. */
    String name();

    /** The run's topic: {@code base} with this payload's codec and what it needs. */
    TopicConfig topic(TopicConfig base);

    /** Opens the topic's publication on {@code node}. */
    SequencedPublisher publish(Node node, String topic);

    /** Subscribes {@code checker} to the topic on {@code node}, also for stream and loss events. */
    void subscribe(Node node, String topic, DeliveryChecker checker);
}
