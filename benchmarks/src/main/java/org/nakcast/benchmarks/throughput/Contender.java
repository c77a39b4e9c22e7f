package org.nakcast.benchmarks.throughput;

import java.util.Arrays;
import java.util.stream.Collectors;

import io.aeron.driver.Configuration;
import io.aeron.exceptions.ConfigurationException;
import io.aeron.protocol.DataHeaderFlyweight;
import org.nakcast.benchmarks.peers.aeron.AeronPublisherMain;
import org.nakcast.benchmarks.peers.aeron.AeronSubscriberMain;
import org.nakcast.benchmarks.peers.fastcast.FastCastPublisherMain;
import org.nakcast.benchmarks.peers.fastcast.FastCastSubscriberMain;
import org.nakcast.config.ByteSize;

/**
 * A system a throughput run measures: nakcast, or a peer users would pick instead. Each has a
 * subscriber and a publisher main class that speak the same child-JVM protocol
 * ({@link org.nakcast.benchmarks.child.ChildProtocol}) and report the same figures, and its own
 * limits on the size of a datagram ({@link #datagramSizeProblem}).
 */
public enum Contender {
    /**
     * nakcast itself: {@link SubscriberMain}, {@link PublisherMain}. Its datagram size is its
     * transport's {@code datagram-size}, which its config checks ({@link RunSettings#nodeConfig()}).
     */
    NAKCAST("nakcast", SubscriberMain.class, PublisherMain.class),
    /**
     * Aeron, an embedded media driver in each JVM; the datagram size is its MTU, which Aeron checks.
     * The publisher claims each message in one frame ({@code tryClaim}), which holds the MTU less
     * the frame's header.
     */
    AERON("aeron", AeronSubscriberMain.class, AeronPublisherMain.class) {
        @Override
        String datagramSizeProblem(ByteSize size, int messageLength) {
            try {
                Configuration.validateMtuLength((int) Math.min(size.bytes(), Integer.MAX_VALUE));
            } catch (ConfigurationException ex) {
                return "Aeron refuses it as its MTU (a multiple of 32, at most 65504): " + ex.getMessage();
            }
            if (messageLength > size.bytes() - DataHeaderFlyweight.HEADER_LENGTH) {
                return "Aeron's publisher claims each message in one frame, which holds the MTU less its "
                    + DataHeaderFlyweight.HEADER_LENGTH + "-byte header: too small for messages of " + messageLength
                    + " bytes";
            }
            return null;
        }
    },
    /**
     * fast-cast, one JVM-wide instance in each JVM. A datagram holds its packet header and, per
     * message or part of one, 4 bytes of its own; it writes a part's length (plus one) as a signed
     * 16-bit number, so no part of a message may reach 32 767 bytes.
     */
    FAST_CAST("fast-cast", FastCastSubscriberMain.class, FastCastPublisherMain.class) {
        @Override
        String datagramSizeProblem(ByteSize size, int messageLength) {
            if (size.bytes() < FAST_CAST_MIN_DATAGRAM || size.bytes() > FAST_CAST_MAX_DATAGRAM) {
                return "fast-cast takes " + FAST_CAST_MIN_DATAGRAM + " to " + FAST_CAST_MAX_DATAGRAM + " bytes";
            }
            if (Math.min(size.bytes(), messageLength) >= Short.MAX_VALUE) {
                return "fast-cast writes the length of a message's part in a datagram as a signed 16-bit number:"
                    + " with messages of " + messageLength + " bytes, datagrams must be under " + Short.MAX_VALUE
                    + " bytes";
            }
            return null;
        }
    };

    /**
     * The smallest datagram fast-cast is given here: its packet header ({@code DataPacket}) takes
     * 122 bytes of each datagram (fast-cast 3.10), and this leaves about as many for messages.
     */
    private static final int FAST_CAST_MIN_DATAGRAM = 256;
    /** The largest: a UDP payload over IPv4. */
    private static final int FAST_CAST_MAX_DATAGRAM = 65_507;

    private final String label;
    private final Class<?> subscriberMain;
    private final Class<?> publisherMain;

    Contender(String label, Class<?> subscriberMain, Class<?> publisherMain) {
        this.label = label;
        this.subscriberMain = subscriberMain;
        this.publisherMain = publisherMain;
    }

    /** The name tables, JSON and child arguments use. */
    public String label() {
        return label;
    }

    Class<?> subscriberMain() {
        return subscriberMain;
    }

    Class<?> publisherMain() {
        return publisherMain;
    }

    /**
     * Why this system cannot send datagrams of {@code size} carrying messages of
     * {@code messageLength} bytes, or null if it can. Null for nakcast: its config says why
     * ({@link RunSettings#nodeConfig()}).
     */
    String datagramSizeProblem(ByteSize size, int messageLength) {
        return null;
    }

    /**
     * The contender a {@link #label()} names.
     *
     * @throws IllegalArgumentException for another name
     */
    static Contender of(String label) {
        for (Contender contender : values()) {
            if (contender.label.equals(label)) {
                return contender;
            }
        }
        throw new IllegalArgumentException("system must be one of "
            + Arrays.stream(values()).map(Contender::label).collect(Collectors.joining(", ")) + ", was '" + label
            + "'");
    }
}
