package org.nakcast.simulator;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntToLongFunction;

import org.agrona.collections.Int2ObjectHashMap;
import org.nakcast.transport.LossEvent;
import org.nakcast.transport.RecoveryStarted;

/**
 * Guarantee 19 for one subscribing process: a recovery from the seed's recorders that gives messages
 * up (a loss event naming the recorders asked) may do so only if no recorder held them all when the
 * recovery began, or one failed an asker since (refused, down, stopped). Each recovery's start is
 * noted when the node decides it, with what the recorders held then.
 *
 * <p>A recorder that does not hold the messages yet is waited for: with no recorder failing, a
 * recovery gives messages up only once each of the topic's recorders answered a hole where it is,
 * or was asked there a publisher timeout before with nothing coming, or has said for that long that
 * it holds no recording of them, or said it has no recording of a session this process has not
 * heard for that long. The process reaches each recorder through an {@link AskedRecorder}, which
 * notes what it was told and since when.
 */
final class RecoveryCheck {
    private final String name;
    /** The seed's recorders, A first, as every process reaches them: their processes and failures. */
    private final List<SimRecorderSource> sources;
    /** The same as this process asks them. */
    private final List<AskedRecorder> recorders;
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

    /**
     * @param sources the seed's recorders, A first, shared by every process
     * @param sessionHeardNs when this process's node last read a datagram of a session's publisher
     *     that it surely heard, or Long.MIN_VALUE
     */
    RecoveryCheck(String name, List<SimRecorderSource> sources, IntToLongFunction sessionHeardNs,
        Violations violations, Scheduler scheduler, Scenario scenario) {
        this.scenario = scenario;
        this.name = name;
        this.violations = violations;
        this.scheduler = scheduler;
        this.sources = List.copyOf(sources);
        final List<AskedRecorder> asked = new ArrayList<>();
        for (SimRecorderSource source : sources) {
            asked.add(new AskedRecorder(source, scheduler,
                topicId -> scenario.topic(topicId).publisherTimeout().toNanos(), sessionHeardNs, this::served));
        }
        this.recorders = List.copyOf(asked);
    }

    /** The recorders as this process's node reaches them, A first. */
    List<AskedRecorder> recorders() {
        return recorders;
    }

    /** The node began to fetch messages its publisher no longer held. */
    void started(RecoveryStarted event) {
        boolean held = false;
        for (int i = 0; i < recorders.size(); i++) {
            final RecorderHost recorder = sources.get(i).recorder();
            held |= recorder.isServing()
                && recorder.holdsAll(event.topicId(), event.sessionId(), event.firstMessage(), event.lastMessage());
            recorders.get(i).recoveryBegan(event.sessionId(), i == 0);
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
        if (recovery.held() && !failedSince(recovery.atNs())) {
            violations.add(scheduler.nowNs(), Invariant.RECOVERY, ("%s lost messages %d..%d of session %d, which the"
                + " recorder held when the recovery of %d..%d began %.3f ms before and served throughout: %s")
                .formatted(name, event.firstMessage(), event.firstMessage() + event.lostMessages() - 1,
                    event.sessionId(), recovery.event().firstMessage(), recovery.event().lastMessage(),
                    (scheduler.nowNs() - recovery.atNs()) / 1e6, event.recordersAsked()));
        }
        judgeTheWait(event, recovery);
        for (int i = 0; i < recorders.size(); i++) {
            recorders.get(i).movedOn(event.sessionId(), i == 0);
        }
    }

    /**
     * Judges whether the process waited for each recorder of the topic as long as it owes one
     * before it gave messages up at their word: a recorder that failed it since the recovery began,
     * answered a hole there, has no recording of a session silent here for a publisher timeout, or
     * was asked there (or said it holds none of them) that long ago is waited for no more.
     */
    private void judgeTheWait(LossEvent event, Began recovery) {
        if (failedSince(recovery.atNs())) {
            return;
        }
        final long nowNs = scheduler.nowNs();
        final long patienceNs = scenario.topic(event.topicId()).publisherTimeout().toNanos();
        final int asked = scenario.topic(event.topicId()).recorders().size();
        for (int i = 0; i < asked; i++) {
            final AskedRecorder recorder = recorders.get(i);
            final AskedRecorder.Answers told = recorder.answered(event.sessionId());
            if (told.answeredHole || told.noRecordingOfASilentSession || nowNs - told.waitedForSinceNs() >= patienceNs
                || told.notHeldSinceNs != Long.MIN_VALUE && nowNs - told.notHeldSinceNs >= patienceNs) {
                continue;
            }
            violations.add(nowNs, Invariant.RECOVERY, ("%s lost messages %d..%d of session %d %.3f ms into a"
                + " recovery, with no recorder failing, though %s was asked there %.3f ms before and said it holds"
                + " none of them for %.3f ms, of the %.3f ms it is waited for: %s").formatted(name,
                event.firstMessage(), event.firstMessage() + event.lostMessages() - 1, event.sessionId(),
                (nowNs - recovery.atNs()) / 1e6, recorder.name(), (nowNs - told.waitedForSinceNs()) / 1e6,
                told.notHeldSinceNs == Long.MIN_VALUE ? 0 : (nowNs - told.notHeldSinceNs) / 1e6, patienceNs / 1e6,
                event.recordersAsked()));
            return;
        }
    }

    /** A recorder served this process a message: each recorder is waited for afresh from here. */
    private void served(AskedRecorder server, int sessionId) {
        for (AskedRecorder recorder : recorders) {
            recorder.movedOn(sessionId, recorder == server);
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
