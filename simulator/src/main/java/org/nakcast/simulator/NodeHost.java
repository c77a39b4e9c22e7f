package org.nakcast.simulator;

import java.net.InetAddress;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.IntPredicate;
import java.util.function.UnaryOperator;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.nakcast.config.NodeConfig;
import org.nakcast.config.ThreadingMode;
import org.nakcast.config.TopicConfig;
import org.nakcast.transport.Node;
import org.nakcast.transport.NodeContext;
import org.nakcast.transport.PublisherEventListener;
import org.nakcast.transport.StreamEventListener;
import org.nakcast.transport.node.NodeHarness;
import org.nakcast.transport.protocol.DatagramValidator;
import org.nakcast.transport.protocol.FrameType;
import org.nakcast.transport.protocol.HeaderFlyweight;
import org.nakcast.transport.replay.RecoverySources;
import org.nakcast.transport.status.DatagramCheck;
import org.nakcast.transport.status.SystemCounter;

/**
 * A simulated process that runs a real {@link Node}: launched in threading mode {@code invoker} on
 * a {@link SimMedia} and the simulation's clock, its agents' {@code doWork()} called in each
 * round, then whatever its application does (offer, poll). A crash abandons the node as a killed
 * process leaves its memory; a start launches a new one. The node's counters, kept in memory,
 * are summed over its incarnations.
 *
 * <p>It checks the rule for stray datagrams as the node reads them: a datagram that is no datagram,
 * or whose type belongs on the other port, is counted once as malformed ({@code wrong port} when it
 * passed the checks), and nothing else is counted under those causes; checked over each
 * incarnation, since a stray cannot be told from the real datagrams read in the same round. On
 * authenticated lines it judges each datagram's trailer as the node's socket reads it
 * ({@link AuthTally}): only a datagram the socket takes is seen by the checks of what the node read.
 */
abstract class NodeHost extends SimHost {
    /** Where a datagram the node reads comes from, as far as the checks of what it read care. */
    enum Origin {
        /** Its sender's own. */
        OWN,
        /** The stranger's, in a live session's name: the node drops or ignores it. */
        FORGED,
        /**
         * The stranger's copy of a node's signed datagram, new to the socket that took it: the
         * protocol takes it as any copy, but it is no sign that its sender is there.
         */
        REPLAYED
    }

    /**
     * The causes of malformed datagrams the checks before any stream give (every one but those a
     * stream or flow control gives): strays alone are counted under them.
     */
    private static final Set<DatagramCheck> STRAY_CAUSES = EnumSet.complementOf(EnumSet.of(DatagramCheck.VALID,
        DatagramCheck.OUT_OF_REACH, DatagramCheck.IMPLAUSIBLE_LOSS, DatagramCheck.GONE_BEYOND_SEEN,
        DatagramCheck.END_BELOW_SEEN, DatagramCheck.STATUS_BEYOND_SENT));

    /** The scenario's context, for the knobs beside the configuration (NAK timing, retransmit hold-off). */
    private final NodeHarness template;
    /** Where the node's streams fetch what their publishers no longer hold; nowhere by default. */
    private RecoverySources recoverySources = topic -> List.of();
    private final List<InetAddress> lineGroups;
    final NodeConfig config;
    final SplittableRandom random;
    final Violations violations;
    private final long[] earlierIncarnations = new long[SystemCounter.values().length];
    private final HeaderFlyweight header = new HeaderFlyweight();
    /** The node of this incarnation; null while down. */
    Node node;
    int incarnation;
    /** Errors the node met on its own thread that no application handler threw, the first of them. */
    long errors;
    Throwable firstError;
    /** Sends its lines refused. */
    long sendsRefused;
    /** Times its application closed its node. */
    long nodesClosed;
    /** Stray datagrams handed to the node, over its incarnations. */
    long strays;
    /** The stranger's copies of signed datagrams its sockets took (new to them), over its incarnations. */
    long copiesTaken;
    /** This incarnation's strays, by the cause they must be counted under. */
    private final Map<DatagramCheck, Long> straysByCause = new EnumMap<>(DatagramCheck.class);
    private int strangerId = -1;
    private IntPredicate realSession = session -> false;
    /**
     * A stranger's datagrams in live sessions' names from its own address that this incarnation's
     * node was handed ({@link #reads}): each one is to be counted as from a wrong source.
     */
    private long forgeriesHanded;
    /** Where the datagram {@link #reads} let through last comes from. */
    private Origin originInHand = Origin.OWN;
    /** The trailers of what this incarnation's sockets read, on authenticated lines; null on others. */
    private AuthTally auth;

    /** @param topicAsRun how this process runs each topic of the scenario's config (a recorder its own way) */
    NodeHost(Scheduler scheduler, List<SimNetwork> lines, String name, HostShape shape, Scenario scenario,
        String nodeName, SplittableRandom random, Violations violations, UnaryOperator<TopicConfig> topicAsRun) {
        super(scheduler, lines, name, shape);
        this.template = scenario.harness();
        this.config = new NodeConfig(scenario.config().node().withName(nodeName).withThreading(ThreadingMode.INVOKER),
            scenario.config().transports(), scenario.config().topics().stream().map(topicAsRun).toList()).conclude();
        this.lineGroups = config.transports().stream().map(transport -> transport.group()).toList();
        this.random = random;
        this.violations = violations;
    }

    /** What the node's application does once the node is up: publications, subscriptions. */
    abstract void started(long nowNs);

    /** What the application does in a round, after the node's agents: offers, polls. */
    abstract int work(long nowNs);

    /** Who hears what happens to the node's publications as it is decided; nobody by default. */
    PublisherEventListener publisherEvents() {
        return new PublisherEventListener() { };
    }

    /** Makes the node's streams fetch what their publishers no longer hold from {@code sources}. */
    void recoverFrom(RecoverySources sources) {
        this.recoverySources = sources;
    }

    /** Who hears every stream event of the node as it is decided; nobody by default. */
    StreamEventListener decisions() {
        return StreamEventListener.NONE;
    }

    /** Whether an error the node reported was thrown by the application's own handler. */
    boolean thrownByHandler(Throwable error) {
        return false;
    }

    @Override
    final void onStart(long nowNs) {
        incarnation++;
        node = Node.launch(new NodeContext().config(config)
                .codecs(SimMessageCodec.registry())
                .countersInFile(false)
                .receiverEvents(decisions())
                .publisherEvents(publisherEvents())
                .errorHandler(this::onNodeError),
            new NodeHarness()
                .clock(scheduler::nowNs)
                .media(new SimMedia(this, lineGroups))
                .ids(new SplittableRandom(random.nextLong()))
                .seed(random.nextLong())
                .nakTiming(template.nakTiming())
                .retransmitHoldOffNs(template.retransmitHoldOffNs())
                .recoverySources(recoverySources));
        started(nowNs);
    }

    @Override
    final int round(long nowNs) {
        return node.doWork() + work(nowNs);
    }

    @Override
    void onCrash(long nowNs) {
        endIncarnation();
    }

    /** Closes the node as an application does, once nothing of it is left to finish; then the process is gone. */
    final void closeNode() {
        nodesClosed++;
        node.close();
        endIncarnation();
        exit();
    }

    /** Keeps what this incarnation counted, checks its strays, and lets the node go. */
    private void endIncarnation() {
        if (node == null) {
            return;
        }
        checkStrays();
        checkForgeries();
        checkTrailers();
        for (SystemCounter counter : SystemCounter.values()) {
            earlierIncarnations[counter.ordinal()] += node.counters().get(counter).get();
        }
        straysByCause.clear();
        forgeriesHanded = 0;
        node = null;
    }

    /** The counters that moved, in words, over every incarnation: for a traced run. */
    final String describeCounters() {
        final StringBuilder moved = new StringBuilder();
        for (SystemCounter counter : SystemCounter.values()) {
            if (counter(counter) != 0) {
                moved.append(moved.isEmpty() ? "" : ", ").append(counter.label()).append(' ').append(counter(counter));
            }
        }
        return moved.toString();
    }

    /** What the node counted of {@code counter}, over every incarnation. */
    final long counter(SystemCounter counter) {
        return earlierIncarnations[counter.ordinal()] + (node == null ? 0 : node.counters().get(counter).get());
    }

    /** Whether the send in hand on {@code line} is refused (the line's faults decide). */
    final boolean refusesSend(int line) {
        final boolean refused = lines.get(line).faults().refusesSend(scheduler.nowNs(), random);
        sendsRefused += refused ? 1 : 0;
        return refused;
    }

    /**
     * Tells the node's host which host is the stranger, and which sessions are real: see
     * {@link #reads}.
     */
    final void strangerIs(int hostId, IntPredicate realSession) {
        this.strangerId = hostId;
        this.realSession = realSession;
    }

    /**
     * Makes the node's sockets on authenticated lines judge what they read by the trailers the wire
     * shows ({@link AuthTally}): a seed whose transports authenticate their datagrams.
     */
    final void authenticatedBy(SignedDatagrams signed) {
        this.auth = new AuthTally(signed);
    }

    /**
     * Whether the node reads {@code arrival}, waiting on {@code port} of {@code line}. With
     * authentication, everything: the node's sockets judge each datagram's trailer. Without it, all
     * but a stranger's DATA, RETRANSMIT, HEARTBEAT or UNRECOVERABLE of a real session, sent from its
     * own address, that reaches a node that does not hold a stream of that session yet, or a topic on
     * two lines. A receiver takes the first source it hears a session from for its publisher's
     * (source pinning); a stranger heard first is taken for the publisher, which only authenticated
     * datagrams prevent, so the guarantee the stranger tests is that of a receiver that already hears
     * the session. A node that holds a stream of the session on a topic's one line took it from its
     * publisher: nothing else of a real session makes a stream.
     */
    final boolean reads(int line, FrameType.Port port, SimSocket.Arrival arrival) {
        originInHand = Origin.OWN;
        if (auth != null) {
            // of what the stranger sends, a socket takes only its copies of what the nodes signed
            originInHand = arrival.from() == strangerId ? Origin.REPLAYED : Origin.OWN;
            return true;
        }
        if (arrival.from() != strangerId || port != FrameType.Port.DATA) {
            return true;
        }
        final UnsafeBuffer view = new UnsafeBuffer(arrival.datagram());
        if (DatagramValidator.check(view, 0, view.capacity(), port) != DatagramCheck.VALID) {
            return true;
        }
        header.wrap(view, 0);
        final int sessionId = header.sessionId();
        if (!realSession.test(sessionId)) {
            return true;
        }
        if (arrival.source() != strangerId) {
            originInHand = Origin.FORGED; // spoofed: an UNRECOVERABLE past what was sent, which the node ignores
            return true;
        }
        final int topicId = header.topicId();
        final boolean[] holds = {false};
        if (node != null && lines.size() == 1) {
            node.counters().streams().forEachReceivingStream(
                (topic, session) -> holds[0] |= topic == topicId && session == sessionId);
        }
        forgeriesHanded += holds[0] ? 1 : 0;
        originInHand = holds[0] ? Origin.FORGED : Origin.OWN;
        return holds[0];
    }

    /**
     * The node is about to read a datagram of {@code length} bytes from {@code port} of {@code line}.
     * On an authenticated line ({@code nonces} the socket's, else null) its trailer is judged first,
     * and only a datagram the socket takes goes on, without its trailer. A stray (one that fails the
     * checks, or whose type belongs on the other port) is noted under the cause it must be counted
     * under.
     */
    final void handingOver(int line, FrameType.Port port, UnsafeBuffer buffer, int length, SocketNonces nonces) {
        int protocolLength = length;
        if (nonces != null) {
            if (auth.handed(buffer, length, nonces) != AuthVerdict.TAKEN) {
                return;
            }
            copiesTaken += originInHand == Origin.REPLAYED ? 1 : 0;
            protocolLength -= TrailerLayout.LENGTH;
        }
        final DatagramCheck check = DatagramValidator.check(buffer, 0, protocolLength, port);
        if (check == DatagramCheck.VALID || check == DatagramCheck.WRONG_PORT) {
            header.wrap(buffer, 0);
            reading(line, port, header, protocolLength, originInHand);
        }
        if (check != DatagramCheck.VALID) {
            strays++;
            straysByCause.merge(check, 1L, Long::sum);
        }
    }

    /**
     * The node is about to read a datagram that passed the checks, on whichever port, of
     * {@code length} protocol bytes, from {@code origin}.
     */
    void reading(int line, FrameType.Port port, HeaderFlyweight header, int length, Origin origin) {
    }

    /**
     * The node handed a datagram of {@code length} protocol bytes (its trailer, if signed, follows
     * them) for {@code port} to its media, which took it (it leaves with the sender's next flush):
     * when the node decided to send it.
     */
    void handedToMedia(FrameType.Port port, DirectBuffer buffer, int offset, int length) {
    }

    /**
     * The node is about to put a datagram of {@code length} protocol bytes (its trailer, if signed,
     * follows them) on {@code port} of {@code line}.
     */
    void sending(int line, FrameType.Port port, UnsafeBuffer buffer, int length) {
    }

    /**
     * Every stray this incarnation's node was handed was counted once, as malformed under its cause,
     * and nothing else was: the causes the checks before any stream give come of strays alone.
     */
    private void checkStrays() {
        for (DatagramCheck cause : STRAY_CAUSES) {
            final long handed = straysByCause.getOrDefault(cause, 0L);
            final long counted = node.counters().malformed(cause).get();
            if (counted != handed) {
                violations.add(scheduler.nowNs(), Invariant.BOUNDED_MEMORY, "%s was handed %d stray datagrams to be"
                    .formatted(name, handed) + " counted as malformed: %s, and counted %d".formatted(
                    cause.description(), counted));
            }
        }
    }

    /** Guarantee 21: what this incarnation's node counted of the trailers its sockets read. */
    private void checkTrailers() {
        if (auth != null) {
            auth.check(name, node.counters(), violations, scheduler.nowNs());
        }
    }

    /**
     * Guarantee 20: every datagram a stranger sent in a live session's name from its own address that
     * this incarnation's node was handed was dropped as from a wrong source, once; and nothing else
     * was (every session's own datagrams come from its publisher's one address per line). With
     * authentication nothing is: an authenticated line does not ask where a datagram comes from, and
     * nothing the stranger forges gets past the socket.
     */
    private void checkForgeries() {
        final long counted = node.counters().get(SystemCounter.WRONG_SOURCE).get();
        if (counted != forgeriesHanded) {
            violations.add(scheduler.nowNs(), Invariant.SOURCE_PINNED, ("%s was handed %d datagrams a stranger sent"
                + " in live sessions' names from its own address, and counted %d from a wrong source")
                .formatted(name, forgeriesHanded, counted));
        }
    }

    private void onNodeError(Throwable error) {
        if (thrownByHandler(error)) {
            return;
        }
        errors++;
        if (firstError == null) {
            firstError = error;
        }
    }

    /** Checks, when the run ends, what the process's node did not report otherwise. */
    void finish() {
        if (node != null) {
            checkStrays();
            checkForgeries();
            checkTrailers();
        }
        if (errors > 0) {
            violations.add(scheduler.nowNs(), Invariant.ERRORS, "%d errors on the node's thread of %s, the first: %s"
                .formatted(errors, name, firstError));
        }
    }
}
