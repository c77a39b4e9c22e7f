package org.nakcast.benchmarks.throughput;

import java.util.Arrays;
import java.util.stream.Collectors;

import org.nakcast.benchmarks.peers.aeron.AeronPublisherMain;
import org.nakcast.benchmarks.peers.aeron.AeronSubscriberMain;
import org.nakcast.benchmarks.peers.fastcast.FastCastPublisherMain;
import org.nakcast.benchmarks.peers.fastcast.FastCastSubscriberMain;

/**
 * A system a throughput run measures: nakcast, or a peer users would pick instead. Each has a
 * subscriber and a publisher main class that speak the same child-JVM protocol
 * ({@link org.nakcast.benchmarks.child.ChildProtocol}) and report the same figures.
 */
public enum Contender {
    /** nakcast itself: {@link SubscriberMain}, {@link PublisherMain}. */
    NAKCAST("nakcast", SubscriberMain.class, PublisherMain.class),
    /** Aeron, an embedded media driver in each JVM. */
    AERON("aeron", AeronSubscriberMain.class, AeronPublisherMain.class),
    /** fast-cast, one JVM-wide instance in each JVM. */
    FAST_CAST("fast-cast", FastCastSubscriberMain.class, FastCastPublisherMain.class);

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
