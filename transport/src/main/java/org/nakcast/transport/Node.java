package org.nakcast.transport;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.ErrorHandler;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SystemEpochClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.errors.DistinctErrorLog;
import org.agrona.concurrent.status.CountersManager;
import org.agrona.concurrent.status.CountersReader;
import org.nakcast.codecs.Codec;
import org.nakcast.codecs.FlyweightCodec;
import org.nakcast.config.NodeConfig;
import org.nakcast.config.NodeSettings;
import org.nakcast.config.TopicConfig;
import org.nakcast.transport.auth.AuthenticatingMedia;
import org.nakcast.transport.media.Line;
import org.nakcast.transport.media.Media;
import org.nakcast.transport.media.MediaChoice;
import org.nakcast.transport.node.NodeHarness;
import org.nakcast.transport.node.SettingsResolver;
import org.nakcast.transport.publish.OfferBuffer;
import org.nakcast.transport.publish.PublicationSettings;
import org.nakcast.transport.publish.PublisherStreams;
import org.nakcast.transport.publish.SenderAgent;
import org.nakcast.transport.receive.DeliveryTarget;
import org.nakcast.transport.receive.InboundStreamSettings;
import org.nakcast.transport.receive.MessageBytesHandler;
import org.nakcast.transport.receive.QueuedDelivery;
import org.nakcast.transport.receive.ReceiveDispatcher;
import org.nakcast.transport.receive.ReceiverAgent;
import org.nakcast.transport.receive.SubscriptionSettings;
import org.nakcast.transport.status.CountersFile;
import org.nakcast.transport.status.SystemCounter;
import org.nakcast.transport.status.SystemCounters;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A nakcast node: the sending and receiving machinery for every topic of one configuration, and
 * the way an application publishes and subscribes. Several nodes may live in one JVM and hear
 * each other. Closing a node stops its threads and frees its sockets and off-heap memory.
 *
 * <pre>{@code
 * try (Node node = Node.launch(NodeConfig.load(Path.of("config/nakcast.yaml")))) {
 *     BytePublication prices = node.newBytePublication("prices");
 *     Subscription quotes = node.newByteSubscription("prices", (message, header) -> ..., StreamEventListener.NONE);
 *     prices.offer(buffer, 0, length);
 * }
 * }</pre>
 */
public final class Node implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Node.class);
    /** How often the log says how many more times an error already logged came: every ten seconds at most. */
    private static final long ERROR_LINE_INTERVAL_NS = 10_000_000_000L;

    private final NodeContext context;
    private final NodeHarness harness;
    private final NodeConfig config;
    private final SettingsResolver settingsResolver;
    /** The counters file, or null when the node keeps its counters in memory. */
    private final CountersFile countersFile;
    private final NodeCounterBuffers counterBuffers;
    /** The node's name as unique on this host, for its publisher ids. */
    private final String publisherIdStem;
    private final SystemCounters counters;
    private final SenderAgent sender;
    private final ReceiverAgent receiver;
    private final AgentThreads threads;
    private final MediaChoice mediaChoice;
    private final TopicCodecs topicCodecs;
    /** Errors met on an application's thread (a message its codec cannot encode): counted, logged, recorded. */
    private final ErrorHandler applicationErrors;
    /** The node's errors in its log: each distinct one with its trace once, then counted. */
    private final ThrottledErrorLog errorLines;
    private final PublisherIds publisherIds = new PublisherIds();
    /** The offer buffers of the publications made, until their memory is freed. */
    private final Set<OfferBuffer> liveOffers = ConcurrentHashMap.newKeySet();
    /** Per topic, the positions its sessions resume at ({@link #resumeAt}). */
    private final Map<String, Map<Integer, Long>> resumePositions = new ConcurrentHashMap<>();
    private volatile boolean closed;

    private Node(NodeContext context, NodeHarness harness) {
        harness.check();
        this.context = context.conclude();
        this.harness = harness;
        this.config = context.config();
        this.topicCodecs = new TopicCodecs(this.context);
        this.settingsResolver = new SettingsResolver(config, harness);
        final NodeSettings settings = config.node();
        this.countersFile = this.context.countersInFile() ? NodeCountersFile.open(settings) : null;
        this.counterBuffers = countersFile == null ? NodeCounterBuffers.inMemory()
            : new NodeCounterBuffers(countersFile.metadataBuffer(), countersFile.valuesBuffer(),
                countersFile.errorLogBuffer());
        this.publisherIdStem = countersFile == null ? settings.name() : NodeCountersFile.stem(countersFile.path());
        this.counters = new SystemCounters(
            new CountersManager(counterBuffers.metadata(), counterBuffers.values()));
        final DistinctErrorLog errorLog =
            new DistinctErrorLog(counterBuffers.errorLog(), SystemEpochClock.INSTANCE);
        this.mediaChoice = harness.media() != null
            ? new MediaChoice(harness.media(), null) : MediaChoice.of(settings.media().name());
        final Media media = new AuthenticatingMedia(mediaChoice.media());
        this.sender = new SenderAgent(harness.clock(), media, counters, harness.sendLoss(), harness::receiveLoss,
            NodeEventLog.publisherEvents(settings.name(), context.publisherEvents()));
        final ErrorHandler applications = context.errorHandler();
        this.errorLines = new ThrottledErrorLog(settings.name(), harness.clock()::nanoTime, ERROR_LINE_INTERVAL_NS,
            (line, error) -> LOG.error(line, error));
        final ErrorHandler errorHandler = error -> {
            errorLines.log(error);
            errorLog.record(error);
            applications.onError(error);
        };
        this.applicationErrors = error -> {
            counters.get(SystemCounter.ERRORS).increment();
            errorHandler.onError(error);
        };
        this.receiver = new ReceiverAgent(harness.clock(), media, counters, harness.sendLoss(),
            harness::receiveLoss,
            new ReceiveDispatcher(counters, drawId(), harness.seed(),
                NodeEventLog.receiverEvents(settings.name(), harness.clock(), this.context.receiverEvents(),
                    applicationErrors), errorHandler));
        this.threads = new AgentThreads(settings.name(), settings.threading(), settings.idleStrategy(),
            context.threadFactory(), errorHandler, counters.get(SystemCounter.ERRORS), sender, receiver);
        LOG.info("node {} started: threading {}, idle strategy {}, media {}, counters and errors in {}",
            settings.name(), settings.threading(), settings.idleStrategy(), media.name(),
            countersFile == null ? "memory" : countersFile.path());
        NodeEventLog.mediaFallback(settings.name(), settings.media(), mediaChoice);
        NodeEventLog.codecModulesMissing(settings.name(), config.topics(), this.context.codecs().missingModules());
    }

    /**
     * Launches a node with every other knob at its default.
     *
     * @param config a concluded configuration ({@link NodeConfig#load}, {@link NodeConfig#embeddedDefault})
     */
    public static Node launch(NodeConfig config) {
        return launch(new NodeContext().config(config));
    }

    /**
     * Launches a node from a context.
     *
     * @throws TransportException naming the JVM flag nakcast needs, when the JVM lacks it
     */
    public static Node launch(NodeContext context) {
        return launch(context, new NodeHarness());
    }

    /**
     * Launches a node from a context, with what a test, a simulation or a benchmark changes besides
     * ({@link NodeHarness}: a stepped clock, injected loss, NAK timings, a simulated network).
     *
     * @throws TransportException naming the JVM flag nakcast needs, when the JVM lacks it, or the
     *     harness knob that is wrong
     */
    @SuppressWarnings("exports") // the harness is not exported: a modular service launches with its defaults
    public static Node launch(NodeContext context, NodeHarness harness) {
        AgronaAccess.check();
        return new Node(context, harness);
    }

    /**
     * Starts publishing on a topic, as a new publisher stream with its own random session id: each
     * call makes a stream of its own, with its own history, until it is closed. The transport's
     * sockets are opened now, so a port or interface problem fails here.
     *
     * @throws TransportException naming the topic or the socket that failed
     * @throws IllegalStateException if the node is closed
     */
    public BytePublication newBytePublication(String topicName) {
        requireOpen();
        final TopicConfig topic = topic(topicName);
        final PublicationSettings settings = settingsResolver.publication(
            topicName, newSessionId(), publisherIds.next(publisherIdStem, topic.id()));
        final int datagramLength = settings.datagramLength();
        final OfferBuffer offers = new OfferBuffer(
            (int) topic.offerBuffer().bytes(), PublisherStreams.maxMessageLength(settings), liveOffers::remove);
        liveOffers.add(offers);
        sender.addPublication(settings, offers);
        final int historyDatagrams = PublisherStreams.historyDatagrams(settings);
        LOG.info("node {}: publishing topic '{}' (id {}) session {} on {}, history {} datagrams ({} of {} bytes"
                + " configured), offer buffer {} bytes, max message {} bytes",
            config.node().name(), topicName, topic.id(), settings.sessionId(),
            Line.describeSetups(settings.lines()), historyDatagrams,
            (long) historyDatagrams * datagramLength, topic.history().bytes(), topic.offerBuffer().bytes(),
            offers.maxMessageLength());
        return new BytePublication(topicName, topic.id(), settings.sessionId(), offers,
            counters.get(SystemCounter.BACK_PRESSURE));
    }

    /**
     * Starts publishing typed messages on a topic, encoded with the codec the topic's config names,
     * as a new publisher stream (see {@link #newBytePublication(String)}).
     *
     * @throws TransportException naming the topic, codec and class when the codec cannot carry
     *     {@code messageClass}, or the socket that failed
     */
    public <T> TypedPublication<T> newTypedPublication(String topicName, Class<T> messageClass) {
        final Codec<T> codec = topicCodecs.codec(topic(topicName), messageClass);
        return new TypedPublication<>(newBytePublication(topicName), codec, applicationErrors);
    }

    /**
     * Starts publishing flyweight messages on a topic, as a new publisher stream (see
     * {@link #newBytePublication(String)}): stage a type's encoder, set its fields, offer. One
     * publication carries every type it is made for, on one session, in the order offered.
     *
     * @param encoderClasses the generated encoders of the message types to publish, at least one
     * @throws TransportException when the topic's codec has no flyweight path or none of these encoders
     */
    public FlyweightPublication newFlyweightPublication(String topicName, Class<?>... encoderClasses) {
        if (encoderClasses == null || encoderClasses.length == 0) {
            throw new IllegalArgumentException("topic '" + topicName + "': name at least one encoder class");
        }
        final TopicConfig topic = topic(topicName);
        final Map<Class<?>, FlyweightCodec<?, ?, ?>> codecs = new HashMap<>();
        for (Class<?> encoderClass : encoderClasses) {
            codecs.put(encoderClass, topicCodecs.flyweightCodec(topic, encoderClass, true));
        }
        return new FlyweightPublication(newBytePublication(topicName), codecs);
    }

    /**
     * Subscribes to a topic's messages as their bytes, delivered on {@link Subscription#poll}.
     *
     * @param handler gets every message of every publisher stream, in order per stream: a buffer over
     *     exactly the message (index 0 to its capacity), reused, valid during the call
     * @param events gets stream started, publisher gone and loss events
     * @throws TransportException naming the topic or the socket that failed
     */
    public Subscription newByteSubscription(
        String topicName, MessageHandler<? super DirectBuffer> handler, StreamEventListener events) {
        return newByteSubscription(topicName, handler, events, Delivery.ON_POLL);
    }

    /**
     * Subscribes to a topic's messages as their bytes, delivered as {@code delivery} says.
     *
     * @see #newByteSubscription(String, MessageHandler, StreamEventListener)
     */
    public Subscription newByteSubscription(String topicName, MessageHandler<? super DirectBuffer> handler,
        StreamEventListener events, Delivery delivery) {
        requireArguments(handler, events, delivery);
        final UnsafeBuffer view = new UnsafeBuffer(0, 0);
        return addSubscription(topicName, new DecodingHandler<DirectBuffer>((buffer, offset, length) -> {
            view.wrap(buffer, offset, length);
            return view;
        }, handler, events, counters.get(SystemCounter.UNDECODABLE_MESSAGES)), events, delivery);
    }

    /**
     * Subscribes to a topic's messages as objects, decoded with the codec the topic's config names,
     * delivered on {@link Subscription#poll}. A message the codec refuses is counted and reported to
     * {@code events}, never delivered half-built.
     *
     * @throws TransportException naming the topic, codec and class when the codec cannot carry
     *     {@code messageClass}, or the socket that failed
     */
    public <T> Subscription newTypedSubscription(
        String topicName, Class<T> messageClass, MessageHandler<? super T> handler, StreamEventListener events) {
        return newTypedSubscription(topicName, messageClass, handler, events, Delivery.ON_POLL);
    }

    /**
     * Subscribes to a topic's messages as objects, delivered as {@code delivery} says.
     *
     * @see #newTypedSubscription(String, Class, MessageHandler, StreamEventListener)
     */
    public <T> Subscription newTypedSubscription(String topicName, Class<T> messageClass,
        MessageHandler<? super T> handler, StreamEventListener events, Delivery delivery) {
        requireArguments(handler, events, delivery);
        final Codec<T> codec = topicCodecs.codec(topic(topicName), messageClass);
        return addSubscription(topicName, new DecodingHandler<>(codec::decode, handler, events,
            counters.get(SystemCounter.UNDECODABLE_MESSAGES)), events, delivery);
    }

    /**
     * Subscribes to a flyweight topic's messages, each type to its handler as its decoder wrapped
     * over the received bytes (no copy, no object), delivered on {@link Subscription#poll}.
     *
     * @see #newFlyweightSubscription(String, FlyweightHandlers, StreamEventListener, Delivery)
     */
    public Subscription newFlyweightSubscription(String topicName, FlyweightHandlers handlers,
        StreamEventListener events) {
        return newFlyweightSubscription(topicName, handlers, events, Delivery.ON_POLL);
    }

    /**
     * Subscribes to a flyweight topic's messages, each type to its handler, delivered as
     * {@code delivery} says. The decoders are reused; read them during the call. A message of a
     * type with no handler is counted and reported to {@code events} as undecodable.
     *
     * @throws TransportException when the topic's codec has no flyweight path or not one of the decoders
     */
    public Subscription newFlyweightSubscription(String topicName, FlyweightHandlers handlers,
        StreamEventListener events, Delivery delivery) {
        requireArguments(handlers, events, delivery);
        final TopicConfig topic = topic(topicName);
        final List<FlyweightCodec<?, ?, ?>> codecs = new ArrayList<>();
        for (Class<?> decoderClass : handlers.decoderClasses()) {
            codecs.add(topicCodecs.flyweightCodec(topic, decoderClass, false));
        }
        if (codecs.isEmpty()) {
            throw new IllegalArgumentException("topic '" + topicName + "': the handlers handle no message type");
        }
        return addSubscription(topicName,
            handlers.dispatch(codecs, events, counters.get(SystemCounter.UNDECODABLE_MESSAGES)), events, delivery);
    }

    /**
     * Makes the publisher streams of {@code topicName} of the sessions named begin, when this node
     * first hears them, at the positions given: a service restarted with the positions it stored
     * ({@link StreamPosition#after}) gets each of those sessions from the next message it wants,
     * nothing before it; what the publisher no longer holds comes from the topic's recorders (or is
     * a loss event). Other sessions start as the topic's {@code late-join} says. Takes effect with the
     * node's first subscription to the topic; a session the node already hears is not moved.
     *
     * @throws TransportException if there is no such topic
     */
    public void resumeAt(String topicName, StreamPosition... positions) {
        topic(topicName);
        final Map<Integer, Long> byTopic =
            resumePositions.computeIfAbsent(topicName, name -> new ConcurrentHashMap<>());
        for (StreamPosition position : positions) {
            byTopic.put(position.sessionId(), position.nextMessageIndex());
        }
    }

    /**
     * Subscribes a handler of message bytes. The transport's sockets are opened now, so a port or
     * interface problem fails here.
     */
    private Subscription addSubscription(
        String topicName, MessageBytesHandler handler, StreamEventListener events, Delivery delivery) {
        requireOpen();
        final TopicConfig topic = topic(topicName);
        final SubscriptionSettings settings = settingsResolver.subscription(topicName)
            .resumingAt(resumePositions.getOrDefault(topicName, Map.of()));
        final InboundStreamSettings streamSettings = settings.streamSettings();
        final QueuedDelivery queue = delivery == Delivery.ON_POLL
            ? new QueuedDelivery(topic.deliveryQueue().bytes(), handler, events) : null;
        final DeliveryTarget target = queue == null ? DeliveryTarget.onReceivingThread(handler, events) : queue;
        receiver.addSubscription(settings, target);
        LOG.info("node {}: subscribed to topic '{}' (id {}) on {}, reorder window {} datagrams ({} bytes per"
                + " publisher stream, taken at its first gap), at most {} publisher streams, delivery {}",
            config.node().name(), topicName, topic.id(), settings.describeLines(),
            streamSettings.reorderWindowCapacity(),
            (long) streamSettings.reorderWindowCapacity() * streamSettings.maxDatagramLength(), topic.maxPublishers(),
            queue == null ? "on the receiving thread" : "through a queue of " + queue.capacity() + " bytes");
        return new Subscription(topicName, topic.id(), target, receiver, queue);
    }

    private static void requireArguments(Object handler, StreamEventListener events, Delivery delivery) {
        if (handler == null || events == null || delivery == null) {
            throw new IllegalArgumentException((handler == null ? "handler" : events == null ? "events" : "delivery")
                + " is null" + (events == null ? " (StreamEventListener.NONE takes no action)" : ""));
        }
    }

    /**
     * Does one round of sending and receiving on the caller's thread: for threading mode
     * {@code invoker}, where the application drives the node.
     *
     * @return work done; 0 means the node was idle
     * @throws IllegalStateException if the node runs its own threads
     */
    public int doWork() {
        return threads.invoke();
    }

    /**
     * The file other processes read this node's counters and errors from; null when the node keeps
     * them in memory ({@link NodeContext#countersInFile}).
     */
    public Path countersFile() {
        return countersFile == null ? null : countersFile.path();
    }

    /**
     * A read-only view of every counter in this node's counters file, system and stream counters alike,
     * as {@code nakcast-stat} sees them from another process: for exporting them from this process.
     * It reads this node's own mapping of the file: opening the file again in this process
     * ({@link CountersFile#open}) would release this node's lock on it when its channel closes, since a
     * file's locks belong to the process. The view stays readable after the node closed (its last values).
     */
    public CountersReader countersReader() {
        return new CountersReader(counterBuffers.metadata(), counterBuffers.values());
    }

    /** The node's counters. */
    public SystemCounters counters() {
        return counters;
    }

    /**
     * Why this node's sockets run on {@code nio} in place of the media {@code node.media} names
     * (also logged as a warning when the node started), or null when they run on the one named.
     */
    public String mediaFallback() {
        return mediaChoice.fellBack() ? mediaChoice.fallbackReason() : null;
    }

    /** The node's configuration. */
    public NodeConfig config() {
        return config;
    }

    /**
     * Closes every publication this node made (each sends what was offered, marks its end and
     * lingers for repairs, as {@link BytePublication#close()} does; this waits for them, at most
     * {@link SettingsResolver#closeWaitNs()}), then stops the threads and closes every socket.
     * Later offers answer {@link OfferResult#CLOSED}; later publications and subscriptions are
     * refused. Idempotent.
     */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            liveOffers.forEach(OfferBuffer::close);
            awaitPublicationsFinished();
            // The counters stay allocated in the file: read after the node stopped, they tell how it ended.
            CloseHelper.closeAll(threads, countersFile);
            errorLines.flush();
        }
    }

    /**
     * Waits until the sending thread has finished every closed publication, driving the node itself
     * when the application drives it (threading {@code invoker}); gives up after
     * {@link SettingsResolver#closeWaitNs()}.
     */
    private void awaitPublicationsFinished() {
        final long deadlineNs = System.nanoTime() + settingsResolver.closeWaitNs();
        final IdleStrategy idle = new BackoffIdleStrategy();
        while (!allPublicationsFinished() && System.nanoTime() - deadlineNs < 0) {
            if (threads.isInvoker()) {
                idle.idle(threads.invoke());
            } else {
                idle.idle();
            }
        }
        if (!allPublicationsFinished()) {
            LOG.warn("node {}: closed before every publication had sent all it was offered and lingered its"
                + " close-linger (waited {} ms)", config.node().name(), settingsResolver.closeWaitNs() / 1_000_000);
        }
    }

    private boolean allPublicationsFinished() {
        for (OfferBuffer offers : liveOffers) {
            if (!offers.finished()) {
                return false;
            }
        }
        return true;
    }

    private void requireOpen() {
        if (closed) {
            throw new IllegalStateException("node " + config.node().name() + " is closed");
        }
    }

    private TopicConfig topic(String topicName) {
        return settingsResolver.topic(topicName);
    }

    /** A session id: never 0. */
    private int newSessionId() {
        int sessionId;
        do {
            sessionId = drawId();
        } while (sessionId == 0);
        return sessionId;
    }

    /** An id from the context's generator, drawn by one caller at a time (a seeded one is not thread-safe). */
    private int drawId() {
        synchronized (publisherIds) {
            return harness.ids().nextInt();
        }
    }
}
