package org.nakcast.simulator;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.ToLongFunction;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

import org.nakcast.config.FlowControlMode;
import org.nakcast.config.TopicConfig;
import org.nakcast.transport.status.SystemCounter;

/**
 * One seeded run of real nodes over the simulated network and clock: a fault phase, then a healed
 * phase by whose end every live subscription must have had every message of every live session it
 * is owed (or an exact loss event for it) and heard of every session that died, and every live
 * publisher must have published its quota. The {@link SubscriptionProbe}s check each delivery and
 * event as it happens, the {@link WireWatch} every datagram sent.
 */
final class Simulation {
    private static final long MS = 1_000_000;
    /** How long after healing a run may go on while publishers offer and subscribers still get messages. */
    private static final long LONGEST_HEALED_PHASE_NS = 5_000 * MS;
    /** See {@link #checkRepairsPerLoss} and {@link #checkNakVolume}. */
    private static final long RETRANSMIT_SLACK = 16;
    /** See {@link #checkNakVolume}. */
    private static final int NAKS_PER_COPY_NEEDED = 3;
    /** See {@link #checkNakVolume}. */
    private static final int NAKS_PER_SUBSCRIBER = 4;
    /** See {@link #checkNakVolume}. */
    private static final int NAKS_PER_SHARED_LOSS = 4;
    /** Salts line B's segment's own random stream, so that line A's draws stay those of one line. */
    private static final long LINE_B_NETWORK = 0x11_4E_B0_5EEDL;
    /** Salts a recorder process's own random: the other processes draw as they did without it. */
    private static final long RECORDER_RANDOM = 0x5E0C_0DE5_5EEDL;
    /** Salts the draws of each recorder source's faults. */
    private static final long RECOVERY_RANDOM = 0x4EC0_7E4D_5EEDL;
    /** Mixed into the seed for the stranger's choice to hold: drawn apart, so its forging stays as it was. */
    private static final long HOLDER_RANDOM = 0x401D_E45EEDL;

    private final Scenario scenario;
    private final Scheduler scheduler = new Scheduler();
    /** The segments of the lines, line A first. */
    private final List<SimNetwork> lines = new ArrayList<>();
    private final Map<Integer, PublishedSession> sessions = new LinkedHashMap<>();
    private final Violations violations = new Violations();
    private final SubscriptionProbe.Tally tally = new SubscriptionProbe.Tally();
    private final List<PublisherHost> publishers = new ArrayList<>();
    /** The subscribing processes, the recorders among them: each is a receiver to the publishers. */
    private final List<SubscriberHost> subscribers = new ArrayList<>();
    private final List<RecorderHost> recorders = new ArrayList<>();
    /** The recorder as recovering subscribers reach it: A, and B when the seed names two. */
    private final List<SimRecorderSource> recoverySources = new ArrayList<>();
    private final String traced;
    private final WireWatch wire;
    /** The datagrams the nodes signed, in an authenticated seed; null in another. */
    private final SignedDatagrams signed;
    private final RepairDemand demand = new RepairDemand();
    /** See {@link PublisherHost.Liveness#longestRefusalNs}. */
    private final long longestRefusalNs;
    private StrangerHost stranger;

    /**
     * @param scenario what to run
     * @param traced the subscription whose every message and event is printed ({@code sub0#1/0}: subscriber
     *     0's first incarnation, its first subscription), {@code all}, or null
     */
    Simulation(Scenario scenario, String traced) {
        this.scenario = scenario;
        this.traced = traced;
        final SplittableRandom random = new SplittableRandom(scenario.seed() ^ 0x5EED_CAFEL);
        lines.add(new SimNetwork(scheduler, 0, random.split(), scenario.faults(), demand));
        final Scenario.SecondLine secondLine = scenario.secondLine();
        if (secondLine != null) {
            lines.add(new SimNetwork(scheduler, 1, new SplittableRandom(scenario.seed() ^ LINE_B_NETWORK),
                secondLine.faults(), demand));
        }
        longestRefusalNs = scenario.longestTimeoutNs() + 4 * scenario.harness().nakTiming().retryMaxNs();
        signed = scenario.authenticated() ? new SignedDatagrams() : null;
        wire = new WireWatch(scheduler, sessions, violations, signed);
        final Scenario.RecoveryFaults recovery = scenario.recovery();
        for (int i = 0; recovery != null && i < recovery.sources(); i++) {
            recoverySources.add(new SimRecorderSource(i == 0 ? "rec0-a" : "rec1-b", scheduler, recovery,
                new SplittableRandom(scenario.seed() ^ RECOVERY_RANDOM ^ i)));
        }
        lines.forEach(line -> line.tap(wire));
        final PublisherHost.Liveness liveness = new Liveness();
        for (int i = 0; i < scenario.publishers().size(); i++) {
            final Scenario.PublisherPlan plan = scenario.publishers().get(i);
            final PublisherHost host = new PublisherHost(scheduler, lines, "pub" + i, scenario, plan, sessions,
                random.split(), violations, liveness);
            publishers.add(host);
            host.startAt(0);
            schedule(host, plan.pauses(), plan.stop());
        }
        for (int i = 0; i < scenario.subscribers().size(); i++) {
            final Scenario.SubscriberPlan plan = scenario.subscribers().get(i);
            final SubscriberHost host = new SubscriberHost(scheduler, lines, "sub" + i, scenario, plan, sessions, wire,
                violations, tally, random.split(), traced, UnaryOperator.identity());
            if (!recoverySources.isEmpty()) {
                host.recovery = new RecoveryCheck(host.name, recoverySources, host::surelyHeardNs, violations,
                    scheduler, scenario);
                final List<AskedRecorder> asked = host.recovery.recorders();
                host.recoverFrom(topic -> List.copyOf(asked.subList(0, topic.recorders().size())));
            }
            subscribers.add(host);
            host.startAt(plan.joinAtNs());
            schedule(host, plan.pauses(), plan.stop());
        }
        final int streamBound = scenario.config().topics().stream().mapToInt(topic -> topic.maxPublishers()).sum();
        for (SubscriberHost subscriber : subscribers) {
            watchMemory(subscriber, streamBound);
        }
        if (scenario.strangerIntervalNs() > 0) {
            final int[] topicIds = scenario.config().topics().stream().mapToInt(topic -> topic.id()).toArray();
            stranger = new StrangerHost(scheduler, lines, new HostShape(4096, 1_000, 100_000), random.split(),
                new SplittableRandom(scenario.seed() ^ HOLDER_RANDOM), scenario.strangerIntervalNs(), topicIds,
                sessions, signed != null);
            stranger.startAt(0);
        }
        for (int i = 0; i < scenario.recorders().size(); i++) {
            final Scenario.RecorderPlan recorder = scenario.recorders().get(i);
            final Scenario.SubscriberPlan plan = recorder.process();
            final RecorderHost host;
            try {
                host = new RecorderHost(scheduler, lines, "rec" + i, scenario, plan, sessions, wire, violations, tally,
                    new SplittableRandom(scenario.seed() ^ RECORDER_RANDOM ^ i), traced, RecorderHost.newDirectory(),
                    recorder.disk());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            recorders.add(host);
            if (i < recoverySources.size()) {
                recoverySources.get(i).serve(host);
            }
            subscribers.add(host);
            host.startAt(plan.joinAtNs());
            schedule(host, plan.pauses(), plan.stop());
            watchMemory(host, streamBound);
        }
        if (stranger != null) {
            for (NodeHost host : nodeHosts()) {
                host.strangerIs(stranger.id, sessions::containsKey);
            }
        }
        if (signed != null) {
            signed.strangerIs(stranger == null ? -1 : stranger.id);
            nodeHosts().forEach(host -> host.authenticatedBy(signed));
        }
    }

    /**
     * Every millisecond: the receiver keeps no more streams than its topics' max-publishers allow,
     * and no more of a topic's from the stranger's host (its made-up sessions) than one host may hold
     * on each of the topic's lines (it has an address on each); with authentication, none.
     */
    private void watchMemory(SubscriberHost subscriber, int bound) {
        scheduler.at(scheduler.nowNs() + MS, () -> {
            final int streams = subscriber.streamCount();
            if (streams > bound) {
                violations.add(scheduler.nowNs(), Invariant.BOUNDED_MEMORY, ("%s keeps %d publisher streams, more than"
                    + " max-publishers allow (%d)").formatted(subscriber.name, streams, bound));
            }
            for (TopicConfig topic : scenario.config().topics()) {
                final int madeUp = stranger == null ? 0 : subscriber.madeUpStreams(topic.id());
                final int topicLines = scenario.config().lines(topic).size();
                final int share =
                    signed != null ? 0 : topicLines * Math.max(1, topic.maxPublishers() / (2 * topicLines));
                if (madeUp > share) {
                    violations.add(scheduler.nowNs(), Invariant.BOUNDED_MEMORY, ("%s keeps %d streams of sessions the"
                        + " stranger made up on topic %d, more than one host may hold (%d)").formatted(subscriber.name,
                        madeUp, topic.id(), share));
                }
            }
            if (scheduler.nowNs() < scenario.allRunningAtNs() + LONGEST_HEALED_PHASE_NS) {
                watchMemory(subscriber, bound);
            }
        });
    }

    private void schedule(NodeHost host, List<Scenario.Pause> pauses, Scenario.Stop stop) {
        for (Scenario.Pause pause : pauses) {
            host.pause(pause.fromNs(), pause.untilNs(), pause.lengthNs() > scenario.longestTimeoutNs());
        }
        if (stop.happens()) {
            if (stop.closed()) {
                closeAt(host, stop.atNs());
            } else {
                host.crash(stop.atNs());
            }
            if (stop.restartAtNs() >= 0) {
                host.startAt(stop.restartAtNs());
            }
        }
    }

    private static void closeAt(NodeHost host, long atNs) {
        if (host instanceof PublisherHost publisher) {
            publisher.closeAt(atNs);
        } else {
            ((SubscriberHost) host).closeAt(atNs);
        }
    }

    /**
     * What a publication may count on: under flow control {@code min} a session has no receiver to
     * wait for while no subscribing process runs an open subscription to its topic that still wants
     * it (one whose stream of it its loss policy dropped, or that was told it ended or restarted,
     * wants no more), or once a receiver of its topic has turned sessions away for want of room (the
     * one refused is not waited for); a topic under {@code max} waits for nobody, so nothing excuses
     * its offers being refused for long.
     */
    private final class Liveness implements PublisherHost.Liveness {
        @Override
        public boolean excused(PublishedSession session) {
            if (scenario.topic(session.topicId).flowControl() != FlowControlMode.MIN) {
                return false;
            }
            for (SubscriberHost subscriber : subscribers) {
                if (subscriber.isDown()) {
                    continue;
                }
                for (SubscriptionProbe probe : subscriber.probes()) {
                    if (probe.closed || probe.topicId != session.topicId) {
                        continue;
                    }
                    if (subscriber.counter(SystemCounter.PUBLISHER_STREAMS_REFUSED) > 0) {
                        return true;
                    }
                    final SubscriptionProbe.Track track = probe.tracks().get(session.sessionId);
                    if (track == null || !track.dropped && !track.ended && !track.restarted) {
                        return false;
                    }
                }
            }
            return true;
        }

        /**
         * With authentication, nothing: the STATUS of its made-up receiver are dropped at the socket.
         * Without, the publisher is at or past the limit that receiver sets, and no real receiver
         * holds it there too: each last told it a position less than a window behind what it sent.
         */
        @Override
        public boolean heldByStranger(PublishedSession session) {
            final long[] held = stranger == null || signed != null ? null : stranger.held();
            final long window = session.historyDatagrams / 2;
            final long sent = session.highestHandedData + 1;
            if (held == null || held[0] != session.sessionId || sent < held[2] + window) {
                return false;
            }
            for (SubscriberHost subscriber : subscribers) {
                if (subscriber.reportedAtOrBelow(session, sent - window)) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public long longestRefusalNs() {
            return longestRefusalNs;
        }

        @Override
        public long healedAtNs() {
            return scenario.allRunningAtNs();
        }
    }

    /**
     * Draws and runs one seed; a run that throws is a failed run, its exception its violation.
     *
     * @param traced see {@link #Simulation(Scenario, String)}
     */
    static SimulationResult runSeed(long seed, Set<FaultKind> kinds, String traced) {
        final Scenario scenario = Swarm.draw(seed, kinds);
        final Simulation simulation = new Simulation(scenario, traced);
        try {
            return simulation.run();
        } catch (RuntimeException | Error ex) {
            final StringWriter trace = new StringWriter();
            ex.printStackTrace(new PrintWriter(trace));
            simulation.violations.add(simulation.scheduler.nowNs(), Invariant.ERRORS, "the run threw " + trace);
            return simulation.result();
        } finally {
            simulation.recorders.forEach(RecorderHost::deleteDirectory);
        }
    }

    /** Runs the scenario to its end and checks where every subscription got to. */
    SimulationResult run() {
        scheduler.runUntil(scenario.allRunningAtNs());
        final long hardEndNs = scenario.allRunningAtNs() + LONGEST_HEALED_PHASE_NS;
        long progress = -1;
        long progressNs = scheduler.nowNs();
        while (scheduler.nowNs() < hardEndNs
            && (!publishersDone() || scheduler.nowNs() - progressNs < scenario.settleNs())) {
            scheduler.runUntil(scheduler.nowNs() + 5 * MS);
            if (tally.delivered + tally.lossEvents != progress) {
                progress = tally.delivered + tally.lossEvents;
                progressNs = scheduler.nowNs();
            }
        }
        checkConvergence();
        checkQuotas();
        checkRepairsPerLoss();
        checkNakVolume();
        checkNoNakWhileALineIsHealthy();
        recorders.forEach(recorder -> recorder.checkRecordings(scheduler.nowNs()));
        nodeHosts().forEach(NodeHost::finish);
        if (traced != null) {
            nodeHosts().forEach(host -> {
                System.out.println(host.name + " counters: " + host.describeCounters() + "; " + host.errors
                    + " errors on its node's thread");
                if (host.firstError != null) {
                    host.firstError.printStackTrace(System.out);
                }
            });
        }
        return result();
    }

    /** The subscribing processes, for a test that looks closer. */
    List<SubscriberHost> subscribers() {
        return subscribers;
    }

    /** Every publisher session, for a test that looks closer. */
    Map<Integer, PublishedSession> sessions() {
        return sessions;
    }

    private boolean publishersDone() {
        for (PublisherHost publisher : publishers) {
            if (!publisher.isDown() && !publisher.doneOffering(scheduler.nowNs())) {
                return false;
            }
        }
        return true;
    }

    /**
     * After healing: every live subscription has had every message of every live session it is
     * owed, up to the last one published, or a loss event for it; it was told of every session it
     * knew that died. Two exceptions, each what the receiver promises: a session its topic still
     * refuses at the end, because the topic keeps as many live streams as {@code max-publishers}
     * allows (a stranger's made-up sessions, gone by now, are no excuse), is owed nothing it was not
     * heard of, or after it ended; a session ended as restarted while its publisher lives (another
     * process publishing under its id began anew while this receiver had not heard it for two
     * heartbeats, checked when decided) stays ended.
     */
    private void checkConvergence() {
        final long nowNs = scheduler.nowNs();
        for (SubscriberHost subscriber : subscribers) {
            if (subscriber.isDown()) {
                continue;
            }
            final boolean refusedAny = subscriber.counter(SystemCounter.PUBLISHER_STREAMS_REFUSED) > 0;
            for (SubscriptionProbe probe : subscriber.probes()) {
                if (probe.closed) {
                    continue;
                }
                final boolean full = liveStreams(probe) >= maxPublishers(probe.topicId);
                for (PublishedSession session : sessions.values()) {
                    final SubscriptionProbe.Track track = probe.tracks().get(session.sessionId);
                    final boolean refused = full && (track == null || !track.live);
                    final boolean endedByNamesake = track != null && track.restarted && !session.isDead();
                    if (session.topicId == probe.topicId && !refused && !endedByNamesake) {
                        checkConvergence(probe, session, refusedAny, nowNs);
                    }
                }
            }
        }
        final long reported = subscribers.stream().mapToLong(host -> host.handlerErrors + host.pollerErrors).sum();
        if (reported != tally.thrown) {
            violations.add(nowNs, Invariant.ISOLATION, ("handlers threw %d times, but %d were reported to the node's"
                + " error handler or reached the poller").formatted(tally.thrown, reported));
        }
    }

    /**
     * Every session of a live publishing process published its quota, or was closed, unless its
     * publication had no receiver to wait for ({@link Liveness}): a publisher that stops publishing
     * is a violation, however it stops.
     */
    private void checkQuotas() {
        for (PublisherHost publisher : publishers) {
            for (PublishedSession session : publisher.shortOfQuota()) {
                violations.add(scheduler.nowNs(), Invariant.LIVENESS, ("%s: session %d published %d of its %d messages"
                    + " by the end of the run (%d offers refused by this process)").formatted(publisher.name,
                    session.sessionId, session.published, session.quota, publisher.offersRefused));
            }
        }
    }

    /** How many real sessions' streams the probe's receiver keeps now on its topic. */
    private static long liveStreams(SubscriptionProbe probe) {
        return probe.tracks().values().stream().filter(track -> track.live).count();
    }

    /**
     * One session at one subscription after healing. A subscription that joined the session under
     * way is owed what was published well after it joined and its host first heard the session (a
     * stalled or partitioned link may keep the session from it for a while: late join {@code now}
     * starts at the first datagram heard), or, if its receiver refused sessions for want of room
     * ({@code refusedAny}), well after its receiver first took the session.
     */
    private void checkConvergence(SubscriptionProbe probe, PublishedSession session, boolean refusedAny,
        long nowNs) {
        final SubscriptionProbe.Track track = probe.tracks().get(session.sessionId);
        if (session.isClosed() && !session.isDead()) {
            // closed, so freed by now: told of its end (ENDED with everything, checked when told; or SILENT)
            if (track != null && track.nextIndex >= 0 && !track.gone && !track.dropped) {
                violations.add(nowNs, Invariant.CONVERGENCE, "%s: never told that session %d, closed, ended".formatted(
                    probe.name, session.sessionId));
            }
            return;
        }
        if (session.isDead()) {
            if (track != null && track.nextIndex >= 0 && !track.gone && !track.dropped) {
                violations.add(nowNs, Invariant.CONVERGENCE, "%s: never told that session %d died (at %.6f s)"
                    .formatted(
                    probe.name, session.sessionId, session.deadSinceNs / 1e9));
            }
            return;
        }
        if (track != null && track.dropped) {
            return;
        }
        final long heardSinceNs = refusedAny && track != null
            ? Math.max(probe.heardSinceNs(session), track.firstStartNs) : probe.heardSinceNs(session);
        final boolean owed = probe.owedFromStart(session)
            || session.lastPublishNs > heardSinceNs + scenario.settleNs() / 2;
        final long reached = track == null ? 0 : Math.max(0, track.nextIndex) + track.unaccountedLoss;
        if ((owed || track != null && track.nextIndex >= 0) && reached != session.published) {
            violations.add(nowNs, Invariant.CONVERGENCE, ("%s: after healing has session %d up to message %d of %d"
                + " published%s").formatted(
                probe.name, session.sessionId, reached, session.published,
                track == null ? " (never heard of it)" : ""));
        }
    }

    /**
     * With line B healthy throughout (and line A's faults the network's alone): no subscriber sends
     * a NAK, since line B brings every datagram in order and a gap is NAKed only once both lines went
     * past it. Excused: a subscriber whose own line-B socket queue or reorder window dropped a datagram
     * (its reader's doing, not the line's).
     */
    private void checkNoNakWhileALineIsHealthy() {
        if (scenario.secondLine() == null || !scenario.secondLine().healthy()) {
            return;
        }
        for (SubscriberHost subscriber : subscribers) {
            final long naks = subscriber.counter(SystemCounter.NAKS_SENT);
            final boolean excused = subscriber.dataOverflowedOnLine[1] > 0
                || subscriber.counter(SystemCounter.REORDER_WINDOW_OVERFLOWS) > 0;
            if (naks > 0 && !excused) {
                violations.add(scheduler.nowNs(), Invariant.HEALTHY_LINE, ("%s sent %d NAKs while line B was healthy"
                    + " throughout").formatted(
                    subscriber.name, naks));
            }
        }
    }

    /** One of the segments' tallies, summed over the lines. */
    private long network(ToLongFunction<SimNetwork.Tally> count) {
        return lines.stream().mapToLong(line -> count.applyAsLong(line.tally())).sum();
    }

    /** The datagrams receivers needed again: see {@link #checkRepairsPerLoss}. */
    private long datagramsNeededAgain() {
        long needed = network(net -> net.dataLost) + network(net -> net.reordered) + network(net -> net.duplicated)
            + network(net -> net.stalledRepairs) + publishers.stream().mapToLong(host -> host.askedByCopies).sum();
        for (SubscriberHost subscriber : subscribers) {
            needed += subscriber.dataOverflowed + subscriber.counter(SystemCounter.REORDER_WINDOW_OVERFLOWS)
                + subscriber.reached.datagramsOwedAtStart;
        }
        return needed;
    }

    /**
     * The distinct datagrams receivers needed again, however many receivers needed each (one repair
     * serves them all): the datagrams whose copies went wrong ({@link RepairDemand}), and those a
     * full reorder window dropped or a stream asked for from where it started, which are counted
     * per receiver (nothing tells which they were).
     */
    private long distinctDatagramsNeededAgain() {
        long needed = demand.distinct();
        for (SubscriberHost subscriber : subscribers) {
            needed += subscriber.counter(SystemCounter.REORDER_WINDOW_OVERFLOWS)
                + subscriber.reached.datagramsOwedAtStart;
        }
        return needed;
    }

    private long retransmitsSent() {
        long retransmits = 0;
        for (PublisherHost publisher : publishers) {
            retransmits += publisher.counter(SystemCounter.RETRANSMITS_SENT);
        }
        return retransmits;
    }

    /**
     * Repairs per lost datagram are bounded: over a seed without a stranger (whose NAKs only the
     * repair budget bounds), or whose datagrams are authenticated (nothing it forges reaches a
     * publisher), the publishers send at most one RETRANSMIT per distinct datagram some receiver
     * needed again, plus one per receiver's copy needed again, plus {@value #RETRANSMIT_SLACK}.
     * A copy is needed again when a copy of a DATA or RETRANSMIT was lost on the network (one lost
     * before it fanned out counts once: one repair serves every receiver), dropped by a full socket
     * buffer or a full reorder window, overtaken by a copy sent after it (the gap looks like a loss),
     * or duplicated (a NAK twice), or when a repair's copy was held by a stalled link (its receiver,
     * hearing the stream on its other line, asks again meanwhile: seed 5127, a line stalled while the
     * other was cut); and a stream that starts may need every datagram from where it starts to the
     * publisher's latest (late join {@code oldest} replays history; a stream resumed after silence
     * asks for what it missed); and a stranger's copy of a signed NAK its publisher's socket had not
     * had asks again for what the NAK asked.
     *
     * <p>Why: the publisher resends a datagram at most once per retransmit hold-off, however many
     * NAKs ask for it then (suppression keeps most receivers from asking at all), so the first round
     * of asking costs one RETRANSMIT per datagram. A receiver asks again only after its retry
     * interval, at least twice the hold-off and twice its estimate of the repair time: a second
     * RETRANSMIT of a datagram comes only for a receiver whose repair took longer than it expected,
     * or whose own copy went missing at another time than the others' (independent losses are asked
     * for when each receiver finds them). A third for the same receiver needs its repair lost, which
     * is another copy needed again. The slack covers seeds with a handful of losses. Over 4,000 seeds
     * the most was 0.73 of the bound (two per copy needed again would allow far more where many
     * receivers share a loss).
     */
    private void checkRepairsPerLoss() {
        if (strangerReachesNodes()) {
            return;
        }
        final long needed = datagramsNeededAgain();
        final long distinct = distinctDatagramsNeededAgain();
        final long retransmits = retransmitsSent();
        if (retransmits > needed + distinct + RETRANSMIT_SLACK) {
            violations.add(scheduler.nowNs(), Invariant.REPAIRS_PER_LOSS, ("%d RETRANSMIT datagrams for %d distinct"
                + " datagrams and %d copies needed again: more than one each (and %d over)").formatted(retransmits,
                distinct, needed, RETRANSMIT_SLACK));
        }
    }

    /**
     * NAK volume is bounded, over a seed without a stranger (whose forged sessions draw NAKs of their
     * own), or whose datagrams are authenticated (it forges nothing a socket takes). A receiver NAKs
     * a datagram it needs again once, after a random delay, and again only after its retry interval;
     * NAKs heard from others suppress its own. So the subscribers send at
     * most {@value #NAKS_PER_COPY_NEEDED} NAK datagrams per copy needed again (one NAK lists many
     * gaps, so most seeds need far fewer: the worst of 4,000 seeds came to 1.9), plus
     * {@value #NAKS_PER_SUBSCRIBER} per subscriber (each asks once before it has heard the others)
     * and {@value #RETRANSMIT_SLACK}. And in a group of eight or more subscribers losing datagrams
     * before they fan out (shared loss alone), suppression holds NAKs to about one round per loss:
     * at most {@value #NAKS_PER_SHARED_LOSS} NAK datagrams per shared loss plus
     * {@value #NAKS_PER_SUBSCRIBER} per subscriber (over 191 such seeds of 4,000 the mean was 2.1 per
     * loss and the worst 2.6 with the subscribers' share taken off; without suppression every
     * subscriber sends its own, eight to thirty-two per loss).
     */
    private void checkNakVolume() {
        if (strangerReachesNodes()) {
            return;
        }
        final long naks = naksSent();
        final long needed = datagramsNeededAgain();
        final long subscriberShare = (long) NAKS_PER_SUBSCRIBER * subscribers.size();
        if (naks > NAKS_PER_COPY_NEEDED * needed + subscriberShare + RETRANSMIT_SLACK) {
            violations.add(scheduler.nowNs(), Invariant.NAK_VOLUME, ("%d NAK datagrams for %d copies needed again and"
                + " %d subscribers: more than %d per copy, %d per subscriber and %d over").formatted(naks, needed,
                subscribers.size(), NAKS_PER_COPY_NEEDED, NAKS_PER_SUBSCRIBER, RETRANSMIT_SLACK));
        }
        final long sharedLosses = network(net -> net.sharedLost);
        if (scenario.injected().equals(EnumSet.of(FaultKind.SHARED_LOSS)) && subscribers.size() >= 8
            && naks > NAKS_PER_SHARED_LOSS * sharedLosses + subscriberShare) {
            violations.add(scheduler.nowNs(), Invariant.NAK_VOLUME, ("%d NAK datagrams for %d datagrams lost before"
                + " fanning out to %d subscribers: more than %d per loss and %d per subscriber, so suppression"
                + " failed").formatted(naks, sharedLosses, subscribers.size(), NAKS_PER_SHARED_LOSS,
                NAKS_PER_SUBSCRIBER));
        }
    }

    /** Whether a stranger's forgeries reach the nodes: it forges, and the seed's datagrams are not authenticated. */
    private boolean strangerReachesNodes() {
        return stranger != null && signed == null;
    }

    private long naksSent() {
        long naks = 0;
        for (SubscriberHost subscriber : subscribers) {
            naks += subscriber.counter(SystemCounter.NAKS_SENT);
        }
        return naks;
    }

    private List<SimHost> hosts() {
        final List<SimHost> hosts = new ArrayList<>(nodeHosts());
        if (stranger != null) {
            hosts.add(stranger);
        }
        return hosts;
    }

    private List<NodeHost> nodeHosts() {
        final List<NodeHost> hosts = new ArrayList<>(publishers);
        hosts.addAll(subscribers);
        return hosts;
    }

    private int maxPublishers(int topicId) {
        return scenario.topic(topicId).maxPublishers();
    }

    /** What was injected of each fault kind, whether the seed drew the kind or the fault came of others. */
    private Map<FaultKind, Long> injectedByKind() {
        final Map<FaultKind, Long> injected = new EnumMap<>(FaultKind.class);
        injected.put(FaultKind.LOSS, network(net -> net.lost));
        injected.put(FaultKind.BURST, network(net -> net.burstLost));
        injected.put(FaultKind.TRAIN_LOSS, network(net -> net.trainLost));
        injected.put(FaultKind.SHARED_LOSS, network(net -> net.sharedLost));
        injected.put(FaultKind.DUPLICATION, network(net -> net.duplicated));
        injected.put(FaultKind.REORDER, network(net -> net.reordered));
        injected.put(FaultKind.OVERFLOW, hosts().stream().mapToLong(host -> host.overflowed).sum());
        injected.put(FaultKind.PARTITION, network(net -> net.partitioned));
        injected.put(FaultKind.STALL, network(net -> net.stalled));
        injected.put(FaultKind.SEND_REFUSAL, nodeHosts().stream().mapToLong(host -> host.sendsRefused).sum());
        injected.put(FaultKind.PUBLISHER_PAUSE, publishers.stream().mapToLong(host -> host.pauses).sum());
        injected.put(FaultKind.SUBSCRIBER_PAUSE, subscribers.stream().mapToLong(host -> host.pauses).sum());
        injected.put(FaultKind.PUBLISHER_RESTART, publishers.stream().mapToLong(host -> host.crashes).sum());
        injected.put(FaultKind.SUBSCRIBER_RESTART, subscribers.stream().mapToLong(host -> host.crashes).sum());
        injected.put(FaultKind.LATE_JOIN, scenario.subscribers().stream().filter(plan -> plan.joinAtNs() > 0).count());
        injected.put(FaultKind.STOPPED_POLLING, scenario.subscribers().stream()
            .flatMap(plan -> plan.subscriptions().stream())
            .filter(subscription -> subscription.pollStopFromNs() != Long.MAX_VALUE).count());
        injected.put(FaultKind.THROWING_HANDLER, tally.thrown);
        injected.put(FaultKind.STRANGER, stranger == null ? 0 : stranger.sent);
        injected.put(FaultKind.SHARED_PUBLISHER_ID, scenario.publishers().stream()
            .collect(Collectors.groupingBy(plan -> plan.nodeName(), Collectors.counting()))
            .values().stream().filter(count -> count > 1).count());
        injected.put(FaultKind.PUBLICATION_CLOSE, sessions.values().stream()
            .filter(session -> session.isClosed()).count());
        injected.put(FaultKind.REDUNDANT_LINES, subscribers.stream().mapToLong(host -> host.linesDown).sum());
        injected.put(FaultKind.SUBSCRIPTION_CLOSE, scenario.subscribers().stream()
            .flatMap(plan -> plan.subscriptions().stream())
            .filter(subscription -> subscription.closeAtNs() != Long.MAX_VALUE).count());
        injected.put(FaultKind.NODE_CLOSE, nodeHosts().stream().mapToLong(host -> host.nodesClosed).sum());
        injected.put(FaultKind.RECORDER, recorders.stream().mapToLong(host -> host.recordingsChecked).sum());
        injected.put(FaultKind.DISK, recorders.stream().mapToLong(host -> host.segmentsRefused + host.stalls).sum());
        injected.put(FaultKind.AUTHENTICATION, nodeHosts().stream()
            .mapToLong(host -> host.counter(SystemCounter.AUTH_UNSIGNED) + host.counter(SystemCounter.AUTH_UNKNOWN_KEY)
                + host.counter(SystemCounter.AUTH_BAD_TAG) + host.counter(SystemCounter.AUTH_REPLAYED)).sum());
        return injected;
    }

    private SimulationResult result() {
        final long naksSent = naksSent();
        long published = 0;
        for (PublishedSession session : sessions.values()) {
            published += session.published;
        }
        final long strays = nodeHosts().stream().mapToLong(host -> host.strays).sum();
        final long copiesTaken = nodeHosts().stream().mapToLong(host -> host.copiesTaken).sum();
        final StreamWatch.Reached reached = new StreamWatch.Reached();
        subscribers.forEach(subscriber -> reached.add(subscriber.reached));
        return new SimulationResult(scenario.seed(), scenario.injected(), injectedByKind(),
            publishers.stream().mapToLong(host -> host.longPauses).sum(),
            subscribers.stream().mapToLong(host -> host.longPauses).sum(), strays, copiesTaken,
            publishers.stream().mapToLong(host -> host.counter(SystemCounter.RECEIVERS_DROPPED)).sum(),
            subscribers.stream().mapToLong(host -> host.counter(SystemCounter.STREAMS_GONE_UNSTARTED)).sum(), reached,
            published, tally.delivered, tally.lossEvents, tally.lostMessages, naksSent,
            retransmitsSent(), datagramsNeededAgain(), distinctDatagramsNeededAgain(), network(net -> net.sharedLost),
            violations.count(), violations.perInvariant(), violations.first(), tally.traceHash, scheduler.events(),
            scheduler.nowNs(), subscribers.size());
    }
}
