package org.nakcast.transport.sim;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

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

    private final Scenario scenario;
    private final Scheduler scheduler = new Scheduler();
    private final SimNetwork network;
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
        this.network = new SimNetwork(scheduler, random.split(), scenario.faults());
        final SettingsResolver settings = new SettingsResolver(scenario.config(), scenario.context());
        final int offerBufferBytes = scenario.context().offerBufferBytes();
        for (int i = 0; i < scenario.publishers().size(); i++) {
            final Scenario.PublisherPlan plan = scenario.publishers().get(i);
            final PublisherHost host = new PublisherHost(scheduler, network, "pub" + i, plan.shape(), settings,
                offerBufferBytes, plan.topics(), sessions, random.split(), scenario.sendRefusal());
            publishers.add(host);
            host.startAt(0);
            schedule(host, plan.pauses(), plan.crashAtNs(), plan.restartAtNs());
        }
        for (int i = 0; i < scenario.subscribers().size(); i++) {
            final Scenario.SubscriberPlan plan = scenario.subscribers().get(i);
            final SubscriberHost host = new SubscriberHost(scheduler, network, "sub" + i, plan.shape(), settings,
                plan.subscriptions(), sessions, violations, tally, random.split(), scenario.sendRefusal(), traced);
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
            stranger = new StrangerHost(scheduler, network, new HostShape(4096, 1_000, 100_000), random.split(),
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
            if (scheduler.nowNs() < scenario.faultPhaseNs() + LONGEST_HEALED_PHASE_NS) {
                watchMemory(subscriber, bound);
            }
        });
    }

    private static void schedule(SimHost host, List<Scenario.Pause> pauses, long crashAtNs, long restartAtNs) {
        for (Scenario.Pause pause : pauses) {
            host.pause(pause.fromNs(), pause.untilNs());
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
        scheduler.runUntil(scenario.faultPhaseNs());
        final long hardEndNs = scenario.faultPhaseNs() + LONGEST_HEALED_PHASE_NS;
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
        if (traced != null) {
            subscribers.forEach(subscriber -> {
                System.out.println(subscriber.name + " counters: " + subscriber.counters().counters().describeNonZero()
                    + "; " + subscriber.errors + " rounds ended by an exception");
                if (subscriber.firstError != null && !(subscriber.firstError instanceof IllegalStateException)) {
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
     * knew that died. A session its topic may have refused (more sessions than {@code max-publishers})
     * is owed nothing it was not heard of, or after it was reported gone.
     */
    private void checkConvergence() {
        final long nowNs = scheduler.nowNs();
        for (PublishedSession session : sessions.values()) {
            if (session.repairBytes > session.repairAllowance()) {
                violations.add(nowNs, "session %d sent %d bytes of repairs, more than its budget allows (%d)".formatted(
                    session.sessionId, session.repairBytes, session.repairAllowance()));
            }
        }
        for (SubscriberHost subscriber : subscribers) {
            if (subscriber.isCrashed()) {
                continue;
            }
            final boolean refusedSessions = subscriber.counters().get(SystemCounter.PUBLISHER_STREAMS_REFUSED) > 0;
            for (SubscriptionProbe probe : subscriber.probes()) {
                for (PublishedSession session : sessions.values()) {
                    final SubscriptionProbe.Track track = probe.tracks().get(session.sessionId);
                    final boolean refused = refusedSessions && (track == null || track.gone);
                    if (session.topicId == probe.topicId && !refused) {
                        checkConvergence(probe, session, nowNs);
                    }
                }
            }
        }
    }

    private void checkConvergence(SubscriptionProbe probe, PublishedSession session, long nowNs) {
        final SubscriptionProbe.Track track = probe.tracks().get(session.sessionId);
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
        final boolean owed = probe.owedFromStart(session)
            || session.lastPublishNs > probe.joinedAtNs + scenario.settleNs() / 2;
        final long reached = track == null ? 0 : Math.max(0, track.nextIndex) + track.unaccountedLoss;
        if ((owed || track != null && track.nextIndex >= 0) && reached != session.published) {
            violations.add(nowNs, "%s: after healing has session %d up to message %d of %d published%s".formatted(
                probe.name, session.sessionId, reached, session.published,
                track == null ? " (never heard of it)" : ""));
        }
    }

    private SimulationResult result() {
        long naksSent = 0;
        for (SubscriberHost subscriber : subscribers) {
            naksSent += subscriber.counters().get(SystemCounter.NAKS_SENT);
        }
        long retransmits = 0;
        for (PublisherHost publisher : publishers) {
            retransmits += publisher.counters().get(SystemCounter.RETRANSMITS_SENT);
        }
        long published = 0;
        for (PublishedSession session : sessions.values()) {
            published += session.published;
        }
        return new SimulationResult(scenario.seed(), scenario.injected(), published, tally.delivered,
            tally.lossEvents, tally.lostMessages, naksSent, retransmits, network.tally().sharedLost,
            violations.count(), violations.first(), tally.traceHash, scheduler.events(), scheduler.nowNs(),
            subscribers.size());
    }
}
