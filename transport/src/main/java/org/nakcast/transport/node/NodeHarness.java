package org.nakcast.transport.node;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.random.RandomGenerator;

import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;
import org.nakcast.transport.Node;
import org.nakcast.transport.NodeContext;
import org.nakcast.transport.TransportException;
import org.nakcast.transport.lossinjection.LossGenerator;
import org.nakcast.transport.media.Media;
import org.nakcast.transport.receive.NakTiming;
import org.nakcast.transport.replay.RecoverySources;

/**
 * What tests, the simulator, the benchmarks and the loss examples give a node beyond its
 * {@link NodeContext}: a clock they step, loss injected on sends and receives, the protocol's NAK
 * timings and retransmit hold-off, the seed of the NAK delays and where ids are drawn, a media of
 * their own (a simulated network) and where recoveries fetch from. A service runs on the defaults,
 * which {@link Node#launch(NodeContext)} takes; this package is not exported by the transport's
 * module, so a modular service cannot reach it.
 *
 * <pre>{@code
 * Node node = Node.launch(new NodeContext().config(config),
 *     new NodeHarness().clock(steppedClock).receiveLoss(new RandomLossGenerator(0.01, 0.0, seed)));
 * }</pre>
 *
 * <p>Setters return {@code this}; every knob has the default a production node runs with.
 */
public final class NodeHarness {
    /** Default hold-off between two retransmits of one datagram: half the smallest NAK retry interval. */
    public static final long DEFAULT_RETRANSMIT_HOLD_OFF_NS = 50_000;

    private NanoClock clock = SystemNanoClock.INSTANCE;
    private LossGenerator sendLoss = LossGenerator.NONE;
    private LossGenerator receiveLoss = LossGenerator.NONE;
    private final Map<String, LossGenerator> lineReceiveLoss = new HashMap<>();
    private long retransmitHoldOffNs = DEFAULT_RETRANSMIT_HOLD_OFF_NS;
    private NakTiming nakTiming = NakTiming.DEFAULTS;
    private RecoverySources recoverySources = RecoverySources.FROM_CONFIG;
    private long seed = System.nanoTime();
    private RandomGenerator ids = () -> ThreadLocalRandom.current().nextLong();
    private Media media;

    /**
     * The clock every timer reads; tests pass one they step. Default: the system's.
     *
     * @return this
     */
    public NodeHarness clock(NanoClock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
        return this;
    }

    /** The clock every timer reads. */
    public NanoClock clock() {
        return clock;
    }

    /**
     * Loss injected on every datagram the node sends (data, heartbeats, NAKs); the generator picks
     * by type. Default: none.
     *
     * @return this
     */
    public NodeHarness sendLoss(LossGenerator lossGenerator) {
        this.sendLoss = Objects.requireNonNull(lossGenerator, "lossGenerator");
        return this;
    }

    /** Loss injected on sends. */
    public LossGenerator sendLoss() {
        return sendLoss;
    }

    /**
     * Loss injected on every datagram the node receives; the generator picks by type. Default: none.
     *
     * @return this
     */
    public NodeHarness receiveLoss(LossGenerator lossGenerator) {
        this.receiveLoss = Objects.requireNonNull(lossGenerator, "lossGenerator");
        return this;
    }

    /**
     * Loss injected on the datagrams the node receives on one transport (its data and its control
     * port), in place of the node-wide {@link #receiveLoss(LossGenerator)} there: how a test takes
     * one of a topic's two lines down, or makes one line lossier than the other. Default: the
     * node-wide receive loss.
     *
     * @param transportName the transport's name in the config
     * @return this
     */
    public NodeHarness receiveLoss(String transportName, LossGenerator lossGenerator) {
        lineReceiveLoss.put(Objects.requireNonNull(transportName, "transportName"),
            Objects.requireNonNull(lossGenerator, "lossGenerator"));
        return this;
    }

    /** Loss injected on receives on the transport named {@code transportName}. */
    public LossGenerator receiveLoss(String transportName) {
        return lineReceiveLoss.getOrDefault(transportName, receiveLoss);
    }

    /**
     * A datagram resent less than this long ago is not resent for another NAK: receivers that
     * missed the same datagram and NAK it at nearly the same moment get one repair, not one each.
     * Must stay below the receivers' smallest NAK retry interval. Default 50 us.
     *
     * @return this
     */
    public NodeHarness retransmitHoldOffNs(long holdOffNs) {
        this.retransmitHoldOffNs = holdOffNs;
        return this;
    }

    /** The retransmit hold-off, in nanoseconds. */
    public long retransmitHoldOffNs() {
        return retransmitHoldOffNs;
    }

    /**
     * When receivers send NAKs; see {@link NakTiming}.
     *
     * @return this
     */
    public NodeHarness nakTiming(NakTiming timing) {
        this.nakTiming = Objects.requireNonNull(timing, "timing");
        return this;
    }

    /** When receivers send NAKs. */
    public NakTiming nakTiming() {
        return nakTiming;
    }

    /**
     * Where the node's streams of each topic fetch what their publishers no longer hold. Default:
     * the recorders a topic's {@code recorders:} key names, over TCP.
     *
     * @return this
     */
    public NodeHarness recoverySources(RecoverySources sources) {
        this.recoverySources = Objects.requireNonNull(sources, "sources");
        return this;
    }

    /** Where the node's streams of each topic fetch what their publishers no longer hold. */
    public RecoverySources recoverySources() {
        return recoverySources;
    }

    /**
     * Seeds the random NAK delays, for reproducible runs (not the receiver id: that is always
     * random). Default: the clock.
     *
     * @return this
     */
    public NodeHarness seed(long seed) {
        this.seed = seed;
        return this;
    }

    /** The seed of the NAK delays. */
    public long seed() {
        return seed;
    }

    /**
     * Where the node draws its receiver id and its publications' session ids. Default: a random
     * source of each calling thread's own, so two nodes never share ids by design; a simulation
     * that replays a run exactly passes a seeded generator (used by one thread at a time: the
     * node draws under its own lock).
     *
     * @return this
     */
    public NodeHarness ids(RandomGenerator generator) {
        this.ids = Objects.requireNonNull(generator, "generator");
        return this;
    }

    /** Where the node draws its ids. */
    public RandomGenerator ids() {
        return ids;
    }

    /**
     * The media the node's sockets come from, in place of the one {@code node.media} names (a
     * simulated network). Default: none, the configuration chooses.
     *
     * @return this
     */
    public NodeHarness media(Media media) {
        this.media = Objects.requireNonNull(media, "media");
        return this;
    }

    /** The media given in code, or null when the configuration chooses. */
    public Media media() {
        return media;
    }

    /**
     * Checks that the harness can run a node.
     *
     * @throws TransportException naming the knob that is wrong
     */
    public void check() {
        if (retransmitHoldOffNs < 0) {
            throw new TransportException("NodeHarness.retransmitHoldOffNs must be at least 0, was "
                + retransmitHoldOffNs);
        }
        if (retransmitHoldOffNs >= nakTiming.retryMinNs()) {
            throw new TransportException("NodeHarness.retransmitHoldOffNs (" + retransmitHoldOffNs
                + ") must be below nakTiming.retryMinNs (" + nakTiming.retryMinNs()
                + "): a receiver's repeated NAK would be ignored");
        }
    }
}
