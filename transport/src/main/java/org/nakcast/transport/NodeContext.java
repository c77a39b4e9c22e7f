package org.nakcast.transport;

import java.util.Objects;
import java.util.concurrent.ThreadFactory;

import org.agrona.ErrorHandler;
import org.nakcast.codecs.CodecRegistry;
import org.nakcast.config.ConcludeContext;
import org.nakcast.config.NodeConfig;

/**
 * Everything a {@link Node} is launched with: the configuration (every per-topic and per-transport
 * knob is there, in YAML), plus what is code's to give: the codec registry, event listeners, a
 * thread factory, an error handler and where counters live. Each node has its own context, so two
 * nodes in one JVM can differ; nothing is read from system properties. What tests and simulations
 * change besides (a stepped clock, injected loss, NAK timings) is not here but in the transport's
 * harness, which services do not use.
 *
 * <p>Setters return {@code this}; every knob has a default that suits a LAN.
 */
public final class NodeContext {
    private NodeConfig config;
    private CodecRegistry codecs;
    private PublisherEventListener publisherEvents = new PublisherEventListener() { };
    private StreamEventListener receiverEvents = StreamEventListener.NONE;
    private boolean countersInFile = true;
    private ThreadFactory threadFactory = NodeContext::daemonThread;
    private ErrorHandler errorHandler = error -> { };

    /** A context with every knob at its default; {@link #config} is required. */
    public NodeContext() {
        // knobs are set with the setters
    }

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
        return this;
    }
}
