package org.nakcast.transport.sim;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.ToLongFunction;
import java.util.stream.Collectors;

import org.nakcast.transport.SettingsResolver;
import org.nakcast.transport.status.SystemCounter;

/**
 * One seeded run of the real protocol classes over the simulated network: a fault phase, then a
 * healed phase by whose end every live subscription must have had every message of every live
 * session it is owed (or an exact loss event for it) and heard of every session that died. The
 * {@link SubscriptionProbe}s check each delivery and event as it happens.
 */
final class Simulation {
    private static final long MS = 1_000_000;
    /** How long after healing a run may go on while publishers offer and subscribers still get messages. */
    private static final long LONGEST_HEALED_PHASE_NS = 5_000 * MS;
    /** See {@link #checkRepairsPerLoss}. */
    private static final long RETRANSMITS_PER_DATAGRAM_NEEDED = 2;
    /** See {@link #checkRepairsPerLoss}. */
    private static final long RETRANSMIT_SLACK = 16;
    /** Salts line B's segment's own random stream, so that line A's draws stay those of one line. */
    private static final long LINE_B_NETWORK = 0x11_4E_B0_5EEDL;

    private final Scenario scenario;
    private final Scheduler scheduler = new Scheduler();
    /** The segments of the lines, line A first. */
    private final List<SimNetwork> lines = new ArrayList<>();
    private final Map<Integer, PublishedSession> sessions = new LinkedHashMap<>();
    private final Violations violations = new Violations();
    private final SubscriptionProbe.Tally tally = new SubscriptionProbe.Tally();
    private final List<PublisherHost> publishers = new ArrayList<>();
    private final List<SubscriberHost> subscribers = new ArrayList<>();
    private final String traced;
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
        lines.add(new SimNetwork(scheduler, 0, random.split(), scenario.faults()));
        final Scenario.SecondLine secondLine = scenario.secondLine();
        if (secondLine != null) {
            lines.add(new SimNetwork(scheduler, 1, new SplittableRandom(scenario.seed() ^ LINE_B_NETWORK),
                secondLine.faults()));
        }
        final SettingsResolver settings = new SettingsResolver(scenario.config(), scenario.context());
        for (int i = 0; i < scenario.publishers().size(); i++) {
            final Scenario.PublisherPlan plan = scenario.publishers().get(i);
            final PublisherHost host = new PublisherHost(scheduler, lines, "pub" + i, plan.shape(), settings,
                plan.topics(), sessions, random.split(), violations);
            publishers.add(host);
            host.startAt(0);
            schedule(host, plan.pauses(), plan.crashAtNs(), plan.restartAtNs());
        }
        for (int i = 0; i < scenario.subscribers().size(); i++) {
            final Scenario.SubscriberPlan plan = scenario.subscribers().get(i);
            final SubscriberHost host = new SubscriberHost(scheduler, lines, "sub" + i, plan.shape(), settings,
                plan.subscriptions(), sessions, violations, tally, random.split(), traced);
            subscribers.add(host);
            host.startAt(plan.joinAtNs());
            schedule(host, plan.pauses(), plan.crashAtNs(), plan.restartAtNs());
        }
        final int streamBound = scenario.config().topics().stream().mapToInt(topic -> topic.maxPublishers()).sum();
        for (SubscriberHost subscriber : subscribers) {
            watchMemory(subscriber, streamBound);
        }
        if (scenario.strangerIntervalNs() > 0) {
            final int[] topicIds = scenario.config().topics().stream().mapToInt(topic -> topic.id()).toArray();
            stranger = new StrangerHost(scheduler, lines, new HostShape(4096, 1_000, 100_000), random.split(),
                scenario.strangerIntervalNs(), topicIds);
            stranger.startAt(0);
        }
    }

    /** Every millisecond: the receiver keeps no more streams than its topics' max-publishers allow. */
    private void watchMemory(SubscriberHost subscriber, int bound) {
        scheduler.at(scheduler.nowNs() + MS, () -> {
            if (subscriber.streamCount() > bound) {
                violations.add(scheduler.nowNs(), "%s keeps %d publisher streams, more than max-publishers allow (%d)"
                    .formatted(subscriber.name, subscriber.streamCount(), bound));
            }
            if (scheduler.nowNs() < scenario.allRunningAtNs() + LONGEST_HEALED_PHASE_NS) {
                watchMemory(subscriber, bound);
            }
        });
    }

    private void schedule(SimHost host, List<Scenario.Pause> pauses, long crashAtNs, long restartAtNs) {
        for (Scenario.Pause pause : pauses) {
            host.pause(pause.fromNs(), pause.untilNs(), pause.untilNs() - pause.fromNs() > scenario.longestTimeoutNs());
        }
        if (crashAtNs >= 0) {
            host.crash(crashAtNs);
            if (restartAtNs >= 0) {
                host.startAt(restartAtNs);
            }
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
            simulation.violations.add(simulation.scheduler.nowNs(), "the run threw " + trace);
            return simulation.result();
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
        checkRepairsPerLoss();
        checkNoNakWhileALineIsHealthy();
        if (traced != null) {
            subscribers.forEach(subscriber -> {
                System.out.println(subscriber.name + " counters: " + subscriber.counters().counters().describeNonZero()
                    + "; " + subscriber.errors + " rounds ended by an exception");
                if (subscriber.firstError != null) {
                    subscriber.firstError.printStackTrace(System.out);
                }
            });
            publishers.forEach(publisher -> System.out.println(
                publisher.name + " counters: " + publisher.counters().counters().describeNonZero()));
        }
        final SimulationResult result = result();
        subscribers.forEach(SubscriberHost::close);
        publishers.forEach(PublisherHost::close);
        return result;
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
            if (!publisher.isCrashed() && !publisher.doneOffering(scheduler.nowNs())) {
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
            if (subscriber.isCrashed()) {
                continue;
            }
            final boolean refusedAny = subscriber.counters().get(SystemCounter.PUBLISHER_STREAMS_REFUSED) > 0;
            for (SubscriptionProbe probe : subscriber.probes()) {
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
            violations.add(nowNs, "handlers threw %d times, but %d were reported to the receiver's error handler or"
                .formatted(tally.thrown, reported) + " reached the poller");
        }
        for (SimHost host : hosts()) {
            if (host.errors > 0) {
                violations.add(nowNs, "%d rounds of %s ended by an exception, the first: %s".formatted(
                    host.errors, host.name, host.firstError));
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
        if (session.isGone() && !session.isDead()) {
            // closed and freed: told of its end (ENDED with everything, checked when told; or SILENT)
            if (track != null && track.nextIndex >= 0 && !track.gone && !track.dropped) {
                violations.add(nowNs, "%s: never told that session %d, closed and freed, ended".formatted(
                    probe.name, session.sessionId));
            }
            return;
        }
        if (session.isDead()) {
            if (track != null && track.nextIndex >= 0 && !track.gone && !track.dropped) {
                violations.add(nowNs, "%s: never told that session %d died (at %.6f s)".formatted(
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
            violations.add(nowNs, "%s: after healing has session %d up to message %d of %d published%s".formatted(
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
            final long naks = subscriber.counters().get(SystemCounter.NAKS_SENT);
            final boolean excused = subscriber.dataOverflowedOnLine[1] > 0
                || subscriber.counters().get(SystemCounter.REORDER_WINDOW_OVERFLOWS) > 0;
            if (naks > 0 && !excused) {
                violations.add(scheduler.nowNs(), "%s sent %d NAKs while line B was healthy throughout".formatted(
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
            + network(net -> net.stalledRepairs);
        for (SubscriberHost subscriber : subscribers) {
            needed += subscriber.dataOverflowed + subscriber.counters().get(SystemCounter.REORDER_WINDOW_OVERFLOWS)
                + subscriber.reached.datagramsOwedAtStart;
        }
        return needed;
    }

    private long retransmitsSent() {
        long retransmits = 0;
        for (PublisherHost publisher : publishers) {
            retransmits += publisher.counters().get(SystemCounter.RETRANSMITS_SENT);
        }
        return retransmits;
    }

    /**
     * Repairs per lost datagram are bounded: over a seed without a stranger (whose NAKs only the
     * repair budget bounds), the publishers send at most {@value #RETRANSMITS_PER_DATAGRAM_NEEDED}
     * RETRANSMIT datagrams per datagram the receivers needed again, plus
     * {@value #RETRANSMIT_SLACK}. A datagram is needed again when a copy of a DATA or RETRANSMIT was
     * lost on the network (one lost before it fanned out counts once: one repair serves every
     * receiver), dropped by a full socket buffer or a full reorder window, overtaken by a copy sent
     * after it (the gap looks like a loss), or duplicated (a NAK twice), or when a repair's copy was
     * held by a stalled link (its receiver, hearing the stream on its other line, asks again
     * meanwhile: seed 5127, a line stalled while the other was cut); and a stream that starts
     * may need every datagram from where it starts to the publisher's latest (late join
     * {@code oldest} replays history; a stream resumed after silence asks for what it missed).
     *
     * <p>Why two: the publisher resends a datagram at most once per retransmit hold-off, however
     * many NAKs ask for it then (suppression keeps most receivers from asking at all), and a
     * receiver asks again only after its retry interval, which is at least twice the hold-off and
     * twice its estimate of the repair time. So one datagram needed again costs one RETRANSMIT, and
     * a second only when the repair took longer than the receiver expected (its estimate still
     * behind the network, or the publisher slow to read its NAKs); a third needs that repair lost,
     * which is another datagram needed again. The slack covers seeds with a handful of losses.
     * Over 3,000 seeds the highest ratio was 1.6.
     */
    private void checkRepairsPerLoss() {
        if (stranger != null) {
            return;
        }
        final long needed = datagramsNeededAgain();
        final long retransmits = retransmitsSent();
        if (retransmits > RETRANSMITS_PER_DATAGRAM_NEEDED * needed + RETRANSMIT_SLACK) {
            violations.add(scheduler.nowNs(), "%d RETRANSMIT datagrams for %d datagrams needed again: more than %d each"
                .formatted(retransmits, needed, RETRANSMITS_PER_DATAGRAM_NEEDED) + " (and %d over)"
                .formatted(RETRANSMIT_SLACK));
        }
    }

    private List<SimHost> hosts() {
        final List<SimHost> hosts = new ArrayList<>(publishers);
        hosts.addAll(subscribers);
        if (stranger != null) {
            hosts.add(stranger);
        }
        return hosts;
    }

    private int maxPublishers(int topicId) {
        return scenario.config().topics().stream().filter(topic -> topic.id() == topicId).findFirst().orElseThrow()
            .maxPublishers();
    }

    /** What was injected of each fault kind, whether the seed drew the kind or the fault came of others. */
    private Map<FaultKind, Long> injectedByKind() {
        final Map<FaultKind, Long> injected = new EnumMap<>(FaultKind.class);
        injected.put(FaultKind.LOSS, network(net -> net.lost));
        injected.put(FaultKind.BURST, network(net -> net.burstLost));
        injected.put(FaultKind.SHARED_LOSS, network(net -> net.sharedLost));
        injected.put(FaultKind.DUPLICATION, network(net -> net.duplicated));
        injected.put(FaultKind.REORDER, network(net -> net.reordered));
        injected.put(FaultKind.OVERFLOW, hosts().stream().mapToLong(host -> host.overflowed).sum());
        injected.put(FaultKind.PARTITION, network(net -> net.partitioned));
        injected.put(FaultKind.STALL, network(net -> net.stalled));
        injected.put(FaultKind.SEND_REFUSAL, publishers.stream().mapToLong(host -> host.sendsRefused).sum()
            + subscribers.stream().mapToLong(host -> host.sendsRefused).sum());
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
            .flatMap(plan -> plan.topics().stream())
            .collect(Collectors.groupingBy(topic -> topic.publisherId(), Collectors.counting()))
            .values().stream().filter(count -> count > 1).count());
        injected.put(FaultKind.PUBLICATION_CLOSE, sessions.values().stream()
            .filter(session -> session.closedAtNs >= 0).count());
        injected.put(FaultKind.REDUNDANT_LINES, subscribers.stream().mapToLong(host -> host.linesDown).sum());
        return injected;
    }

    private SimulationResult result() {
        long naksSent = 0;
        for (SubscriberHost subscriber : subscribers) {
            naksSent += subscriber.counters().get(SystemCounter.NAKS_SENT);
        }
        long published = 0;
        for (PublishedSession session : sessions.values()) {
            published += session.published;
        }
        final long strays = hosts().stream().mapToLong(host -> host.strays()).sum();
        final StreamWatch.Reached reached = new StreamWatch.Reached();
        subscribers.forEach(subscriber -> reached.add(subscriber.reached));
        return new SimulationResult(scenario.seed(), scenario.injected(), injectedByKind(),
            publishers.stream().mapToLong(host -> host.longPauses).sum(),
            subscribers.stream().mapToLong(host -> host.longPauses).sum(), strays,
            reached, published, tally.delivered, tally.lossEvents, tally.lostMessages, naksSent,
            retransmitsSent(), datagramsNeededAgain(), network(net -> net.sharedLost), violations.count(),
            violations.first(), tally.traceHash, scheduler.events(), scheduler.nowNs(), subscribers.size());
    }
}
