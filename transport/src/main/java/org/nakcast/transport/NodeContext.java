package org.nakcast.transport;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadLocalRandom;
import java.util.random.RandomGenerator;

import org.agrona.ErrorHandler;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;
import org.nakcast.codecs.CodecRegistry;
import org.nakcast.config.ConcludeContext;
import org.nakcast.config.NodeConfig;
import org.nakcast.transport.lossinjection.LossGenerator;
import org.nakcast.transport.media.Media;
import org.nakcast.transport.receive.NakTiming;
import org.nakcast.transport.replay.RecoverySources;

/**
 * Everything a {@link Node} is launched with: the configuration (every per-topic and per-transport
 * knob is there, in YAML), plus what is code's to give: a clock tests step, loss injection, the
 * random seed and where ids are drawn, the codec registry, event listeners, a thread factory and an
 * error handler, the media and where counters live, and the protocol's NAK timings and retransmit
 * hold-off. Each node has its own context, so two nodes in
 * one JVM can differ; nothing is read from system properties.
 *
 * <p>Setters return {@code this}; every knob has a default that suits a LAN.
 */
public final class NodeContext {
    /** Default hold-off between two retransmits of one datagram: half the smallest NAK retry interval. */
    public static final long DEFAULT_RETRANSMIT_HOLD_OFF_NS = 50_000;

    private NodeConfig config;
    private NanoClock clock = SystemNanoClock.INSTANCE;
    private CodecRegistry codecs;
    private PublisherEventListener publisherEvents = new PublisherEventListener() { };
    private StreamEventListener receiverEvents = StreamEventListener.NONE;
    private LossGenerator sendLoss = LossGenerator.NONE;
    private LossGenerator receiveLoss = LossGenerator.NONE;
    private final Map<String, LossGenerator> lineReceiveLoss = new HashMap<>();
    private long retransmitHoldOffNs = DEFAULT_RETRANSMIT_HOLD_OFF_NS;
    private NakTiming nakTiming = NakTiming.DEFAULTS;
    private RecoverySources recoverySources = RecoverySources.FROM_CONFIG;
    private long seed = System.nanoTime();
    private RandomGenerator ids = () -> ThreadLocalRandom.current().nextLong();
    private Media media;
    private boolean countersInFile = true;
    private ThreadFactory threadFactory = NodeContext::daemonThread;
    private ErrorHandler errorHandler = error -> { };

    /**
     * The node's configuration (required).
     *
     * @return this
     */
    public NodeContext config(NodeConfig config) {
        this.config = config;
        return this;
    }

    /** The node's configuration. */
    public NodeConfig config() {
        return config;
    }

    /**
     * The clock every timer reads; tests pass one they step.
     *
     * @return this
     */
    public NodeContext clock(NanoClock clock) {
        this.clock = clock;
        return this;
    }

    /** The clock every timer reads. */
    public NanoClock clock() {
        return clock;
    }

    /**
     * Where typed publications and subscriptions find the codec a topic names. Default:
     * {@link CodecRegistry#create()}, the built-in codecs plus those found by {@code ServiceLoader}.
     *
     * @return this
     */
    public NodeContext codecs(CodecRegistry registry) {
        this.codecs = Objects.requireNonNull(registry, "registry");
        return this;
    }

    /** The codec registry; created on first use when none was given. */
    public CodecRegistry codecs() {
        if (codecs == null) {
            codecs = CodecRegistry.create();
        }
        return codecs;
    }

    /**
     * Who hears of this node's publications' flow-control events (a receiver dropped); each is
     * also logged. Default: nobody but the log.
     *
     * @return this
     */
    public NodeContext publisherEvents(PublisherEventListener listener) {
        this.publisherEvents = Objects.requireNonNull(listener, "listener");
        return this;
    }

    /** Who hears of this node's publications' flow-control events. */
    public PublisherEventListener publisherEvents() {
        return publisherEvents;
    }

    /**
     * Who hears of every stream event of this node's subscriptions as the receiving thread decides
     * it, once per stream whatever the number of subscriptions (a stream started, publisher gone,
     * loss, a line down or up): for monitoring a whole node, where a subscription's own listener
     * hears its events in order with its messages. Called on the receiving thread; must not block
     * and should not throw (an exception is counted and reported as an error). Each event is also
     * logged. Default: nobody but the log.
     *
     * @return this
     */
    public NodeContext receiverEvents(StreamEventListener listener) {
        this.receiverEvents = Objects.requireNonNull(listener, "listener");
        return this;
    }

    /** Who hears of every stream event of this node's subscriptions as it is decided. */
    public StreamEventListener receiverEvents() {
        return receiverEvents;
    }

    /**
     * Loss injected on every datagram this node sends (data, heartbeats, NAKs); the generator
     * picks by type. Default: none.
     *
     * @return this
     */
    public NodeContext sendLoss(LossGenerator lossGenerator) {
        this.sendLoss = lossGenerator;
        return this;
    }

    /** Loss injected on sends. */
    public LossGenerator sendLoss() {
        return sendLoss;
    }

    /**
     * Loss injected on every datagram this node receives; the generator picks by type. Default: none.
     *
     * @return this
     */
    public NodeContext receiveLoss(LossGenerator lossGenerator) {
        this.receiveLoss = lossGenerator;
        return this;
    }

    /**
     * Loss injected on the datagrams this node receives on one transport (its data and its control
     * port), in place of the node-wide {@link #receiveLoss(LossGenerator)} there: how a test takes
     * one of a topic's two lines down, or makes one line lossier than the other. Default: the
     * node-wide receive loss.
     *
     * @param transportName the transport's name in the config
     * @return this
     */
    public NodeContext receiveLoss(String transportName, LossGenerator lossGenerator) {
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
    public NodeContext retransmitHoldOffNs(long holdOffNs) {
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
    public NodeContext nakTiming(NakTiming timing) {
        this.nakTiming = timing;
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
    public NodeContext recoverySources(RecoverySources sources) {
        this.recoverySources = sources;
        return this;
    }

    /** Where the node's streams of each topic fetch what their publishers no longer hold. */
    public RecoverySources recoverySources() {
        return recoverySources;
    }

    /**
     * Seeds the random NAK delays, for reproducible tests (not the receiver id: that is always random).
     * Default: the clock.
     *
     * @return this
     */
    public NodeContext seed(long seed) {
        this.seed = seed;
        return this;
    }

    /** The seed. */
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
    public NodeContext ids(RandomGenerator generator) {
        this.ids = Objects.requireNonNull(generator, "generator");
        return this;
    }

    /** Where the node draws its ids. */
    public RandomGenerator ids() {
        return ids;
    }

    /**
     * The media the node's sockets come from, in place of the one {@code node.media} names: a
     * media of the application's own (a simulated network, a kernel-bypass stack). Default: none,
     * the configuration chooses.
     *
     * @return this
     */
    public NodeContext media(Media media) {
        this.media = Objects.requireNonNull(media, "media");
        return this;
    }

    /** The media given in code, or null when the configuration chooses. */
    public Media media() {
        return media;
    }

    /**
     * Whether the node keeps its counters and error log in its counters file ({@code
     * node.counters-file}), where {@code nakcast-stat} and {@code nakcast-errors} read them from
     * another process (true, the default), or in memory only, readable through
     * {@link Node#counters()} and {@link Node#countersReader()} alone: for many short-lived nodes
     * in one process (a simulation) or a host with no writable directory for them.
     *
     * @return this
     */
    public NodeContext countersInFile(boolean inFile) {
        this.countersInFile = inFile;
        return this;
    }

    /** Whether the counters live in the counters file. */
    public boolean countersInFile() {
        return countersInFile;
    }

    /**
     * Makes the node's threads (threading {@code dedicated}: a sending and a receiving thread;
     * {@code shared}: one): to name them, pin them to cores (an affinity library), or give them a
     * priority or group. The node names each thread after its agent's role (e.g.
     * {@code prices-node-nakcast-receiver}) before starting it. Default: daemon threads, so a node
     * never keeps a JVM alive.
     *
     * @return this
     */
    public NodeContext threadFactory(ThreadFactory factory) {
        this.threadFactory = Objects.requireNonNull(factory, "factory");
        return this;
    }

    /** What makes the node's threads. */
    public ThreadFactory threadFactory() {
        return threadFactory;
    }

    /**
     * Hears every error the node meets on its threads (a socket failure, a handler or listener on
     * the receiving thread that threw, a message a publication's codec could not encode), after the
     * node has counted it ({@code errors}), logged it and recorded it in its error log
     * ({@code ops/nakcast-errors}). Called on the thread that met the error; must not throw.
     * Default: nothing more.
     *
     * @return this
     */
    public NodeContext errorHandler(ErrorHandler handler) {
        this.errorHandler = Objects.requireNonNull(handler, "handler");
        return this;
    }

    /** Who hears of the node's errors besides its log. */
    public ErrorHandler errorHandler() {
        return errorHandler;
    }

    private static Thread daemonThread(Runnable runnable) {
        final Thread thread = new Thread(runnable);
        thread.setDaemon(true);
        return thread;
    }

    /**
     * Checks that the context can launch a node.
     *
     * @return this
     * @throws TransportException naming the knob that is wrong
     */
    NodeContext conclude() {
        Objects.requireNonNull(config, "NodeContext.config is required");
        config = config.conclude(ConcludeContext.system().withCodecNames(codecs().namesTopicsMayUse()));
        Objects.requireNonNull(clock, "NodeContext.clock");
        Objects.requireNonNull(sendLoss, "NodeContext.sendLoss");
        Objects.requireNonNull(receiveLoss, "NodeContext.receiveLoss");
        Objects.requireNonNull(nakTiming, "NodeContext.nakTiming");
        Objects.requireNonNull(recoverySources, "NodeContext.recoverySources");
        requireAtLeast("retransmitHoldOffNs", retransmitHoldOffNs, 0);
        if (retransmitHoldOffNs >= nakTiming.retryMinNs()) {
            throw new TransportException("NodeContext.retransmitHoldOffNs (" + retransmitHoldOffNs
                + ") must be below nakTiming.retryMinNs (" + nakTiming.retryMinNs()
                + "): a receiver's repeated NAK would be ignored");
        }
        return this;
    }

    private static void requireAtLeast(String name, long value, long min) {
        if (value < min) {
            throw new TransportException("NodeContext." + name + " must be at least " + min + ", was " + value);
        }
    }
}
