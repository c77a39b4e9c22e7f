package org.nakcast.simulator;

import java.util.List;

import org.agrona.collections.Int2ObjectHashMap;
import org.nakcast.transport.LossEvent;
import org.nakcast.transport.RecoveryStarted;

/**
 * Guarantee 19 for one subscribing process: a recovery from the seed's recorders that gives messages
 * up (a loss event naming the recorders asked) may do so only if no recorder held them all when the
 * recovery began, or one failed an asker since (refused, down, stopped). Each recovery's start is
 * noted when the node decides it, with what the recorders held then.
 *
 * <p>A recorder behind (it has not recorded the messages yet) is waited for: a recovery gives up
 * only once nothing came for the topic's publisher timeout. So a loss sooner than that after the
 * recovery began, with no recorder failing, is judged again a publisher timeout after the start:
 * if a recorder holds every message given up by then, the recovery gave up what it would have had.
 */
final class RecoveryCheck {
    private final String name;
    private final List<SimRecorderSource> sources;
    private final Violations violations;
    private final Scheduler scheduler;
    private final Scenario scenario;
    /** Per session, the recovery under way or last begun. */
    private final Int2ObjectHashMap<Began> began = new Int2ObjectHashMap<>();
    long recoveries;
    long recoveriesFullyHeld;

    /** A recovery's start: when, and whether the recorder held every message of it then. */
    private record Began(RecoveryStarted event, long atNs, boolean held) {
    }

    RecoveryCheck(String name, List<SimRecorderSource> sources, Violations violations, Scheduler scheduler,
        Scenario scenario) {
        this.scenario = scenario;
        this.name = name;
        this.sources = sources;
        this.violations = violations;
        this.scheduler = scheduler;
    }

    /** The node began to fetch messages its publisher no longer held. */
    void started(RecoveryStarted event) {
        boolean held = false;
        for (SimRecorderSource source : sources) {
            final RecorderHost recorder = source.recorder();
            held |= recorder.isServing()
                && recorder.holdsAll(event.topicId(), event.sessionId(), event.firstMessage(), event.lastMessage());
        }
        recoveries++;
        if (held) {
            recoveriesFullyHeld++;
        }
        began.put(event.sessionId(), new Began(event, scheduler.nowNs(), held));
    }

    /** The node gave messages up after asking the recorders. */
    void lost(LossEvent event) {
        if (event.lostMessages() < 1) {
            violations.add(scheduler.nowNs(), Invariant.RECOVERY, "%s raised a loss event of no message naming the"
                .formatted(name) + " recorders: " + event);
            return;
        }
        final Began recovery = began.get(event.sessionId());
        if (recovery == null) {
            violations.add(scheduler.nowNs(), Invariant.RECOVERY, ("%s lost messages %d..%d of session %d naming the"
                + " recorders asked, though it began no recovery of that session").formatted(name,
                event.firstMessage(), event.firstMessage() + event.lostMessages() - 1, event.sessionId()));
            return;
        }
        final long patienceNs = scenario.topic(event.topicId()).publisherTimeout().toNanos();
        if (!recovery.held() && !failedSince(recovery.atNs()) && scheduler.nowNs() - recovery.atNs() < patienceNs) {
            final long lostAtNs = scheduler.nowNs();
            scheduler.at(recovery.atNs() + patienceNs, () -> judgeAgain(event, recovery, lostAtNs));
        }
        if (recovery.held() && !failedSince(recovery.atNs())) {
            violations.add(scheduler.nowNs(), Invariant.RECOVERY, ("%s lost messages %d..%d of session %d, which the"
                + " recorder held when the recovery of %d..%d began %.3f ms before and served throughout: %s")
                .formatted(name, event.firstMessage(), event.firstMessage() + event.lostMessages() - 1,
                    event.sessionId(), recovery.event().firstMessage(), recovery.event().lastMessage(),
                    (scheduler.nowNs() - recovery.atNs()) / 1e6, event.recordersAsked()));
        }
    }

    /** A loss sooner than the patience, judged again once it has passed: the recorder was only behind? */
    private void judgeAgain(LossEvent event, Began recovery, long lostAtNs) {
        if (failedSince(recovery.atNs())) {
            return;
        }
        for (SimRecorderSource source : sources) {
            final RecorderHost recorder = source.recorder();
            if (recorder.isServing() && recorder.holdsAll(event.topicId(), event.sessionId(), event.firstMessage(),
                event.firstMessage() + event.lostMessages() - 1)) {
                violations.add(scheduler.nowNs(), Invariant.RECOVERY, ("%s lost messages %d..%d of session %d %.3f ms"
                    + " into a recovery, with no recorder failing, and %s holds them all within the publisher timeout"
                    + " of its start: %s").formatted(name, event.firstMessage(),
                    event.firstMessage() + event.lostMessages() - 1, event.sessionId(),
                    (lostAtNs - recovery.atNs()) / 1e6, source.name(), event.recordersAsked()));
                return;
            }
        }
    }

    private boolean failedSince(long atNs) {
        for (SimRecorderSource source : sources) {
            if (source.lastFailureNs >= atNs) {
                return true;
            }
        }
        return false;
    }
}
