package org.nakcast.simulator;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.UnaryOperator;

import org.agrona.collections.IntHashSet;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.collections.LongHashSet;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersReader;
import org.nakcast.config.TopicConfig;
import org.nakcast.transport.Delivery;
import org.nakcast.transport.LineDown;
import org.nakcast.transport.LossEvent;
import org.nakcast.transport.PublisherGone;
import org.nakcast.transport.RecoveryStarted;
import org.nakcast.transport.StreamEventListener;
import org.nakcast.transport.StreamPosition;
import org.nakcast.transport.StreamStarted;
import org.nakcast.transport.Subscription;
import org.nakcast.transport.protocol.DatagramValidator;
import org.nakcast.transport.protocol.FrameType;
import org.nakcast.transport.protocol.HeaderFlyweight;
import org.nakcast.transport.protocol.NakFlyweight;
import org.nakcast.transport.protocol.StatusFlyweight;
import org.nakcast.transport.protocol.UnrecoverableFlyweight;
import org.nakcast.transport.status.CounterTypeIds;
import org.nakcast.transport.status.DatagramCheck;
import org.nakcast.transport.status.StreamCounters;
import org.nakcast.transport.status.SystemCounter;
import org.nakcast.transport.status.SystemCounters;

/**
 * A subscribing process: a real node and an application that subscribes through the node's typed
 * API, each subscription checked by a {@link SubscriptionProbe}. A queued subscription is polled by
 * the application in each round, except while its poller is stopped; a handler that throws on the
 * poller's thread reaches the application, which counts it and polls on. A subscription may be
 * closed along the way, and the whole node too (the process then exits). A restart is a new node:
 * new subscriptions, new probes, joining the streams as they are then.
 *
 * <p>What the receiver decides is checked when it decides it, through its node's node-wide
 * listener ({@code NodeContext.receiverEvents}, told of every stream start, loss and end on the
 * receiving thread, before any subscription hears of them): an {@code UNRECOVERABLE} loss only of
 * datagrams its publisher may no longer hold, as the wire tells ({@link PublishedSession#surelyHeldFrom});
 * no loss at all in a seed repairable by construction; a stream ended as restarted only if its
 * publisher died, or if another process publishing under the same id began anew while this receiver
 * had not heard the stream for two heartbeats; no stream for a session that never sent to a data
 * port (a stray made it).
 */
class SubscriberHost extends NodeHost {
    /**
     * One subscription this process makes.
     *
     * @param pollStopFromNs when its application stops polling it (a queued one), Long.MAX_VALUE for never
     * @param closeAtNs when its application closes it, Long.MAX_VALUE for never
     */
    record SubscriptionPlan(String topicName, int topicId, SubscriptionProbe.Kind kind, boolean throwing,
        long pollStopFromNs, long pollStopUntilNs, long closeAtNs) {
    }

    private static final int QUEUE_POLL_LIMIT = 256;

    private final Scenario scenario;
    private final List<SubscriptionPlan> plans;
    private final Map<Integer, PublishedSession> sessions;
    private final WireWatch wire;
    private final SubscriptionProbe.Tally tally;
    private final String traced;
    private final boolean tracing;
    private final List<Subscribed> subscribed = new ArrayList<>();
    private final List<SubscriptionProbe> probes = new ArrayList<>();
    /**
     * When this host last read a datagram of each session on its data port (any incarnation), its
     * publisher's or a stranger's copy of one: it may tell of a gap or repair one.
     */
    private final Long2LongHashMap lastReadNs = new Long2LongHashMap(Long.MIN_VALUE);
    /** The same, of its publisher's own datagrams alone: a stranger's copy is no sign that the publisher is there. */
    private final Long2LongHashMap lastHeardNs = new Long2LongHashMap(Long.MIN_VALUE);
    /**
     * When this incarnation's node last read a DATA or RETRANSMIT datagram of each session from its
     * publisher: it surely heard the session then (it may have heard it later too).
     */
    private final Long2LongHashMap surelyHeardNs = new Long2LongHashMap(Long.MIN_VALUE);
    /** Per (receiver id, session): when this host last sent a NAK for it. */
    private final Long2LongHashMap lastNakNs = new Long2LongHashMap(Long.MIN_VALUE);
    /** The (receiver id, session) keys a NAK too soon was told for. */
    private final LongHashSet nakTooSoon = new LongHashSet();
    private final NakFlyweight nak = new NakFlyweight();
    private final StatusFlyweight status = new StatusFlyweight();
    /** The receiver ids this process's nodes sent NAKs and STATUS as, over every incarnation. */
    private final IntHashSet receiverIds = new IntHashSet();
    private final NakFlyweight heardNak = new NakFlyweight();
    private final UnrecoverableFlyweight unrecoverableRead = new UnrecoverableFlyweight();
    private final long retryMinNs;
    /** Guarantee 17: what this process may keep quiet about, from what it read. */
    private final KeepingQuiet quiet;
    private boolean toldKeptQuiet;
    /**
     * The sessions this process's node turned away for want of room ({@code max-publishers}): such a
     * session is owed only what its publisher still holds once room is made.
     */
    private final IntHashSet refusedSessions = new IntHashSet();
    /** The session of the datagram read last, until the node's refusal count has been looked at after it. */
    private int sessionReadLast;
    private boolean readSinceLook;
    private long refusedSeen;
    /** The states the receiver reached, over its incarnations: see {@link StreamWatch}. */
    final StreamWatch.Reached reached = new StreamWatch.Reached();
    private StreamWatch watch;
    private boolean closeRequested;
    /** Exceptions handlers threw on the receiving thread, as the node reported them. */
    long handlerErrors;
    /** Exceptions a queued subscription's handler threw at its poller. */
    long pollerErrors;
    /** Lines a stream of this host called down, over its incarnations. */
    long linesDown;
    /** Per topic and session, the next message the application wants, stored when the process last died. */
    private final Map<Integer, Map<Integer, Long>> storedPositions = new HashMap<>();
    /** Guarantee 19, when the seed's topics name its recorder; null when none does. */
    RecoveryCheck recovery;

    /** A subscription made, its plan and its probe. */
    private record Subscribed(Subscription subscription, SubscriptionPlan plan, SubscriptionProbe probe) {
    }

    /** @param topicAsRun how this process runs each topic of the scenario's config */
    SubscriberHost(Scheduler scheduler, List<SimNetwork> lines, String name, Scenario scenario,
        Scenario.SubscriberPlan plan, Map<Integer, PublishedSession> sessions, WireWatch wire,
        Violations violations, SubscriptionProbe.Tally tally, SplittableRandom random, String traced,
        UnaryOperator<TopicConfig> topicAsRun) {
        super(scheduler, lines, name, plan.shape(), scenario, name, random, violations, topicAsRun);
        this.scenario = scenario;
        this.plans = plan.subscriptions();
        this.sessions = sessions;
        this.wire = wire;
        this.tally = tally;
        this.traced = traced;
        this.tracing = traced != null && (traced.equals("all") || traced.startsWith(name + "#"));
        this.retryMinNs = scenario.harness().nakTiming().retryMinNs();
        this.quiet = new KeepingQuiet(scenario.harness().nakTiming().retryMaxNs(),
            config.topics().stream().mapToInt(TopicConfig::reorderWindow).min().orElse(0));
    }

    @Override
    StreamEventListener decisions() {
        watch = new StreamWatch(scheduler, sessions, reached);
        return new Decisions(watch);
    }

    @Override
    boolean thrownByHandler(Throwable error) {
        if (error instanceof SubscriptionProbe.HandlerFailure) {
            handlerErrors++;
            return true;
        }
        return false;
    }

    @Override
    void started(long nowNs) {
        quiet.restart();
        surelyHeardNs.clear();
        subscribed.clear();
        probes.clear();
        closeRequested = false;
        final boolean resuming = resumesAtStoredPositions() && !storedPositions.isEmpty();
        if (resuming) {
            storedPositions.forEach((topicId, positions) -> node.resumeAt(scenario.topic(topicId).name(),
                positions.entrySet().stream().map(entry -> new StreamPosition(entry.getKey(), entry.getValue()))
                    .toArray(StreamPosition[]::new)));
            reached.positionResumes++;
        }
        for (int i = 0; i < plans.size(); i++) {
            final SubscriptionPlan plan = plans.get(i);
            final String probeName = name + "#" + incarnation + "/" + i;
            final SubscriptionProbe probe = new SubscriptionProbe(probeName, plan.topicId(), plan.kind(),
                plan.throwing(), scheduler, sessions, violations, tally,
                probeName.equals(traced) || "all".equals(traced) ? System.out::println : null);
            if (resuming) {
                probe.resumesAt(storedPositions.getOrDefault(plan.topicId(), Map.of()));
            }
            final Subscription subscription = node.newTypedSubscription(plan.topicName(), SimMessage.class, probe,
                probe, plan.kind() == SubscriptionProbe.Kind.QUEUED ? Delivery.ON_POLL : Delivery.ON_RECEIVING_THREAD);
            probes.add(probe);
            subscribed.add(new Subscribed(subscription, plan, probe));
        }
    }

    /**
     * Whether this process, started again, resumes each session at the position its application
     * stored (a topic's streams then begin at the next message it wants): in seeds whose subscribers
     * recover from recorders, every other subscribing process does.
     */
    private boolean resumesAtStoredPositions() {
        return scenario.recovery() != null && incarnation > 1 && ((name.hashCode() ^ scenario.seed()) & 1) == 0;
    }

    /**
     * What the application stores as the process dies: per topic and session, the next message it
     * wants, the least over its subscriptions to the topic (the one furthest behind sets it).
     */
    private void storePositions() {
        storedPositions.clear();
        for (SubscriptionProbe probe : probes) {
            final Map<Integer, Long> byTopic = storedPositions.computeIfAbsent(probe.topicId, id -> new HashMap<>());
            probe.positions().forEach((sessionId, next) -> byTopic.merge(sessionId, next, Math::min));
        }
    }

    /** From {@code atNs}, once it runs, the process closes its node and exits. */
    void closeAt(long atNs) {
        scheduler.at(atNs, () -> closeRequested = !isDown());
    }

    @Override
    int work(long nowNs) {
        if (closeRequested) {
            closeRequested = false;
            probes.forEach(probe -> probe.closed = true);
            closeNode();
            probes.clear();
            subscribed.clear();
            return 0;
        }
        noteRefusal();
        judgeKeptQuiet(true);
        int work = 0;
        for (int i = 0; i < subscribed.size(); i++) {
            final Subscribed one = subscribed.get(i);
            final SubscriptionPlan plan = one.plan();
            if (one.probe().closed) {
                continue;
            }
            if (nowNs >= plan.closeAtNs()) {
                one.subscription().close();
                one.probe().closed = true;
                continue;
            }
            final boolean stopped = nowNs >= plan.pollStopFromNs() && nowNs < plan.pollStopUntilNs();
            if (plan.kind() == SubscriptionProbe.Kind.QUEUED && !stopped) {
                work += poll(one.subscription());
            }
        }
        return work;
    }

    /**
     * What the application's poller does: polls, and when its handler throws, counts the failure and
     * polls again later (the message it failed on counts as delivered).
     */
    private int poll(Subscription subscription) {
        try {
            return subscription.poll(QUEUE_POLL_LIMIT);
        } catch (SubscriptionProbe.HandlerFailure failure) {
            pollerErrors++;
            return 1;
        }
    }

    @Override
    void onCrash(long nowNs) {
        storePositions();
        probes.clear();
        subscribed.clear();
        super.onCrash(nowNs);
    }

    @Override
    void reading(int line, FrameType.Port port, HeaderFlyweight header, int length, Origin origin) {
        final boolean nakRead = port == FrameType.Port.CONTROL && header.typeCode() == FrameType.NAK.code();
        if (nakRead) {
            heardNak.wrap(header.buffer(), header.offset());
        }
        if (tracing) {
            System.out.println("%.6f %s reads on its %s port of line %d: %s session %d topic %d sequence %d flags %d,"
                .formatted(scheduler.nowNs() / 1e9, name, port, line, FrameType.fromCode(header.typeCode()),
                    header.sessionId(), header.topicId(), header.sequence(), header.flags()) + " %d bytes%s%s"
                .formatted(length, nakRead ? " from receiver %d: %s".formatted(heardNak.receiverId(), ranges(heardNak))
                    : "", origin == Origin.OWN ? "" : " (the stranger's: " + origin + ")"));
        }
        noteRefusal();
        judgeKeptQuiet(true);
        sessionReadLast = header.sessionId();
        readSinceLook = true;
        if (port == FrameType.Port.DATA && FrameType.belongsOn(port, header.typeCode()) && origin != Origin.FORGED) {
            lastReadNs.put(header.sessionId(), scheduler.nowNs());
            if (origin == Origin.OWN) {
                noteHeard(header.sessionId(), scheduler.nowNs());
            }
            if (header.typeCode() == FrameType.DATA.code() || header.typeCode() == FrameType.RETRANSMIT.code()) {
                quiet.reading(header.sessionId(), header.sequence());
                if (origin == Origin.OWN && sessions.containsKey(header.sessionId())) {
                    surelyHeardNs.put(header.sessionId(), scheduler.nowNs());
                }
            } else if (header.typeCode() == FrameType.UNRECOVERABLE.code()) {
                unrecoverableRead.wrap(header.buffer(), header.offset());
                quiet.goneRead(header.sessionId(), unrecoverableRead.toSequence());
            }
        }
        if (nakRead) {
            quiet.heard(heardNak, scheduler.nowNs());
        }
    }

    /**
     * Guarantee 17, looked at before each datagram the node reads, after each round, and before a
     * stream event changes the model: a NAK kept back since the last look was justified by the NAKs
     * heard (told once per process). Before a read and after a round, the datagram read last is
     * settled first: taken unless the node counted it dropped. A stream event may come while a
     * datagram is read or in the round after it, before the node's counters tell whether it was
     * taken: then the model judges with it unsettled, either way (see {@link KeepingQuiet}).
     */
    private void judgeKeptQuiet(boolean settle) {
        final SystemCounters counters = node.counters();
        if (settle) {
            quiet.settle(counters.get(SystemCounter.REORDER_WINDOW_OVERFLOWS).get()
                + counters.get(SystemCounter.PUBLISHER_STREAMS_REFUSED).get()
                + counters.get(SystemCounter.ENDED_SESSION_DATAGRAMS).get()
                + counters.get(SystemCounter.NOT_SUBSCRIBED).get()
                + counters.get(SystemCounter.WRONG_SOURCE).get()
                + counters.malformed(DatagramCheck.GONE_BEYOND_SEEN).get()
                + counters.malformed(DatagramCheck.OUT_OF_REACH).get()
                + counters.malformed(DatagramCheck.IMPLAUSIBLE_LOSS).get(),
                counters.get(SystemCounter.DELIVERY_QUEUE_FULL).get());
            quiet.forgetGoneUnstarted(counters.get(SystemCounter.STREAMS_GONE_UNSTARTED).get(), counters.streams());
        }
        final String unjustified = quiet.judge(counters.get(SystemCounter.NAKS_SUPPRESSED).get(), scheduler.nowNs());
        if (unjustified != null && !toldKeptQuiet) {
            toldKeptQuiet = true;
            violations.add(scheduler.nowNs(), Invariant.SUPPRESSION, name + " " + unjustified);
        }
    }

    @Override
    void sending(int line, FrameType.Port port, UnsafeBuffer buffer, int length) {
        if (DatagramValidator.check(buffer, 0, length) != DatagramCheck.VALID) {
            return;
        }
        if (HeaderFlyweight.typeCodeAt(buffer, 0) == FrameType.STATUS.code()) {
            status.wrap(buffer, 0);
            receiverIds.add(status.receiverId());
            return;
        }
        if (HeaderFlyweight.typeCodeAt(buffer, 0) != FrameType.NAK.code()) {
            return;
        }
        nak.wrap(buffer, 0);
        receiverIds.add(nak.receiverId());
        if (tracing) {
            System.out.println("%.6f %s sends NAK on line %d as receiver %d, session %d: %s".formatted(
                scheduler.nowNs() / 1e9, name, line, nak.receiverId(), nak.sessionId(), ranges(nak)));
        }
        checkNakPace(nak, scheduler.nowNs());
    }

    /**
     * A receiver that has read nothing of a session since its last NAK for it has learned of no new
     * gap and no repair: only its retry timer can send the next NAK, which waits at least the shortest
     * retry interval. The same NAK sent on the second line at the same instant is one NAK. On two lines
     * a line called down moves the NAK horizon with nothing read, and NAKs the gaps it passes at once:
     * those seeds are not held to this.
     */
    private void checkNakPace(NakFlyweight sent, long nowNs) {
        final long key = ((long) sent.receiverId() << 32) | (sent.sessionId() & 0xFFFF_FFFFL);
        final long previousNs = lastNakNs.put(key, nowNs);
        if (previousNs == Long.MIN_VALUE || previousNs == nowNs || scenario.secondLine() != null
            || lastReadNs.get(sent.sessionId()) >= previousNs || nowNs - previousNs >= retryMinNs
            || !nakTooSoon.add(key)) {
            return;
        }
        violations.add(nowNs, Invariant.NAK_PACE, ("%s NAKed session %d again (%s) %.1f us after its last NAK for"
            + " it with nothing of the session read in between, sooner than the shortest retry interval (%d us);"
            + " told once per receiver and session")
            .formatted(name, sent.sessionId(), ranges(sent), (nowNs - previousNs) / 1e3, retryMinNs / 1_000));
    }

    private static String ranges(NakFlyweight nak) {
        final StringBuilder ranges = new StringBuilder();
        for (int i = 0; i < nak.rangeCount(); i++) {
            ranges.append(i == 0 ? "" : " ").append(nak.rangeFrom(i)).append("..").append(nak.rangeTo(i));
        }
        return ranges.toString();
    }

    /**
     * Looked at before each datagram read and after each round: if the node's count of datagrams of
     * refused publisher streams moved since the last look, the datagram read last was one of them.
     */
    private void noteRefusal() {
        final long refused = counter(SystemCounter.PUBLISHER_STREAMS_REFUSED);
        if (refused != refusedSeen && readSinceLook) {
            refusedSessions.add(sessionReadLast);
        }
        refusedSeen = refused;
        readSinceLook = false;
    }

    /**
     * Whether datagram {@code sequence} of the session may have left its publisher's history before
     * any STATUS of this process's receiver reached the publisher: flow control did not wait for it yet.
     */
    private boolean lostBeforeHeard(PublishedSession session, long sequence) {
        for (IntHashSet.IntIterator ids = receiverIds.iterator(); ids.hasNext(); ) {
            if (!session.mayHaveLeftBeforeHeard(sequence, ids.nextValue())) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether this process's receivers last told the publisher of {@code session}, as its node read
     * them, a position at or below {@code position}; false if it read none.
     */
    final boolean reportedAtOrBelow(PublishedSession session, long position) {
        for (IntHashSet.IntIterator ids = receiverIds.iterator(); ids.hasNext(); ) {
            final long reported = session.statusPosition.get(ids.nextValue());
            if (reported != Long.MIN_VALUE && reported <= position) {
                return true;
            }
        }
        return false;
    }

    /** Whether the session's publisher dropped this process's receiver from flow control, as it may. */
    private boolean droppedFromFlowControl(PublishedSession session) {
        for (IntHashSet.IntIterator ids = receiverIds.iterator(); ids.hasNext(); ) {
            if (session.droppedReceivers.contains(ids.nextValue())) {
                return true;
            }
        }
        return false;
    }

    /**
     * When this incarnation's node last read a DATA or RETRANSMIT datagram its publisher sent of
     * {@code sessionId}, or Long.MIN_VALUE: a time by which it surely heard the session.
     */
    long surelyHeardNs(int sessionId) {
        return surelyHeardNs.get(sessionId);
    }

    /** Notes that a datagram of {@code sessionId} its publisher sent was read from the data port. */
    private void noteHeard(int sessionId, long nowNs) {
        lastHeardNs.put(sessionId, nowNs);
        watch.onRead(sessionId, nowNs);
        final PublishedSession session = sessions.get(sessionId);
        if (session != null) {
            for (int i = 0; i < probes.size(); i++) {
                if (probes.get(i).topicId == session.topicId) {
                    probes.get(i).heard(sessionId, nowNs);
                }
            }
        }
    }

    /** Checks each stream start, loss and end when the receiver decides it. */
    private final class Decisions implements StreamEventListener {
        private final StreamWatch watch;

        Decisions(StreamWatch watch) {
            this.watch = watch;
        }

        @Override
        public void onStreamStarted(StreamStarted event) {
            watch.onStreamStarted(event);
            judgeKeptQuiet(false);
            quiet.started(event.sessionId(), event.firstSequence());
            if (!wire.seenOnDataPort(event.sessionId())) {
                violations.add(scheduler.nowNs(), Invariant.BOUNDED_MEMORY, ("%s started a stream of session %d, of"
                    + " which no datagram of a publisher's type ever reached a data port: a stray made it")
                    .formatted(name, event.sessionId()));
            }
        }

        @Override
        public void onLoss(LossEvent event) {
            watch.onLoss(event);
            if (event.cause() != LossEvent.Cause.SUBSCRIPTION_OVERRUN) {
                judgeKeptQuiet(false);
                quiet.givenUp(event.sessionId(), event.toSequence());
            }
            if (recovery != null && !event.recordersAsked().isEmpty()) {
                recovery.lost(event);
            }
            final PublishedSession session = sessions.get(event.sessionId());
            if (session == null || event.cause() == LossEvent.Cause.SUBSCRIPTION_OVERRUN) {
                return;
            }
            final long nowNs = scheduler.nowNs();
            if (scenario.repairableByConstruction() && !droppedFromFlowControl(session)
                && !refusedSessions.contains(session.sessionId) && !lostBeforeHeard(session, event.fromSequence())) {
                violations.add(nowNs, Invariant.AVOIDABLE_LOSS, ("%s gave up datagrams %d..%d of session %d (%s) in a"
                    + " seed where every loss can be repaired").formatted(name, event.fromSequence(),
                    event.toSequence(), session.sessionId, event.cause()));
            }
            final long held = session.surelyHeldFrom();
            if (event.toSequence() >= held) {
                violations.add(nowNs, Invariant.GIVEN_UP_WHEN_GONE, ("%s gave up datagrams %d..%d of session %d while"
                    + " its publisher's history holds every datagram from %d (%s)").formatted(name,
                    event.fromSequence(), event.toSequence(), session.sessionId, held, event.cause()));
            }
        }

        @Override
        public void onLineDown(LineDown event) {
            linesDown++;
        }

        @Override
        public void onRecoveryStarted(RecoveryStarted event) {
            watch.onRecoveryStarted(event);
            judgeKeptQuiet(false);
            quiet.recoveryStarted(event.sessionId(), event.toSequence());
            if (recovery != null) {
                recovery.started(event);
            }
        }

        @Override
        public void onPublisherGone(PublisherGone event) {
            watch.onPublisherGone(event);
            judgeKeptQuiet(false);
            quiet.ended(event.sessionId());
            final PublishedSession session = sessions.get(event.sessionId());
            if (session == null || event.cause() != PublisherGone.Cause.RESTARTED || session.isDead()) {
                return;
            }
            final PublishedSession restarted = sessions.get(event.newSessionId());
            final long nowNs = scheduler.nowNs();
            if (restarted == null || restarted.publisherId != session.publisherId) {
                violations.add(nowNs, Invariant.AFTER_THE_END, ("%s ended session %d of a live publisher as restarted"
                    + " by session %d, which is not of its publisher id").formatted(name, session.sessionId,
                    event.newSessionId()));
            } else if (lastHeardNs.get(session.sessionId) > nowNs - 2 * heartbeatNs(session.topicId)) {
                violations.add(nowNs, Invariant.AFTER_THE_END, ("%s ended session %d as restarted by session %d, which"
                    + " shares its publisher id, though it heard it %.3f ms ago: two live publishers sharing an id"
                    + " ended each other").formatted(name, session.sessionId, restarted.sessionId,
                    (nowNs - lastHeardNs.get(session.sessionId)) / 1e6));
            }
        }
    }

    private long heartbeatNs(int topicId) {
        for (TopicConfig topic : config.topics()) {
            if (topic.id() == topicId) {
                return topic.heartbeat().toNanos();
            }
        }
        throw new IllegalArgumentException("no topic " + topicId);
    }

    /**
     * How many streams the node keeps on topic {@code topicId} of sessions no publisher of the run
     * has: sessions the stranger made up, all from its one host.
     */
    int madeUpStreams(int topicId) {
        if (node == null) {
            return 0;
        }
        final int[] streams = new int[1];
        node.countersReader().forEach((counterId, typeId, keyBuffer, label) -> {
            if (typeId == CounterTypeIds.RECEIVER_POSITION
                && keyBuffer.getInt(StreamCounters.KEY_TOPIC_ID_OFFSET) == topicId
                && !sessions.containsKey(keyBuffer.getInt(StreamCounters.KEY_SESSION_ID_OFFSET))) {
                streams[0]++;
            }
        });
        return streams[0];
    }

    /** How many publisher streams the receiver keeps now, as its counters show them; 0 when down. */
    int streamCount() {
        if (node == null) {
            return 0;
        }
        final CountersReader counters = node.countersReader();
        final int[] streams = new int[1];
        counters.forEach((counterId, typeId, keyBuffer, label) -> {
            if (typeId == CounterTypeIds.RECEIVER_POSITION) {
                streams[0]++;
            }
        });
        return streams[0];
    }

    /** The probes of this incarnation; empty once down. */
    List<SubscriptionProbe> probes() {
        return probes;
    }
}
