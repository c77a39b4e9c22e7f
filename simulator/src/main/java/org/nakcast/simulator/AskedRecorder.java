package org.nakcast.simulator;

import java.util.function.IntToLongFunction;
import java.util.function.ObjIntConsumer;

import org.agrona.DirectBuffer;
import org.agrona.collections.Int2ObjectHashMap;
import org.nakcast.transport.replay.HoleCause;
import org.nakcast.transport.replay.RecoverySource;
import org.nakcast.transport.replay.ReplayHandler;
import org.nakcast.transport.replay.ReplayRefusal;

/**
 * A seed's recorder as one subscribing process asks it: every fetch goes to the shared
 * {@link SimRecorderSource}, and on the way back this notes, per session, what the recorder told
 * this asker in the recovery under way and since when, so that a loss the process takes at the
 * recorder's word can be judged by what it was told ({@link RecoveryCheck}):
 *
 * <pre>
 *   since the asker last moved on (a message served by any recorder, messages given up, the start):
 *     when it was first asked there       (then, if it served that message; A after a loss or at the start)
 *     whether it answered a hole there
 *     whether it said "no recording" while the session was not heard here for a patience
 *   since it last served this asker a message or a hole:
 *     since when it has said "not held"   (no recording, or none holding the message asked)
 * </pre>
 *
 * The process's node sees only this; the guarantee reads {@link #answered}.
 */
final class AskedRecorder implements RecoverySource {
    private final RecoverySource shared;
    private final Scheduler scheduler;
    private final IntToLongFunction patienceOfTopicNs;
    private final IntToLongFunction sessionHeardNs;
    private final ObjIntConsumer<AskedRecorder> servedMessage;
    private final Int2ObjectHashMap<Answers> answers = new Int2ObjectHashMap<>();

    /** What the recorder told this asker of one session in the recovery under way. */
    static final class Answers {
        /** When the asker last moved on: a message served by any recorder, messages given up, or the start. */
        long positionSinceNs;
        /**
         * When this recorder was first asked since {@link #positionSinceNs} (then, for the one that
         * served the message there, or recorder A after a loss or at the start), or Long.MIN_VALUE.
         */
        long firstAskedNs = Long.MIN_VALUE;
        /** When it began to say it holds no recording or not the message asked, or Long.MIN_VALUE. */
        long notHeldSinceNs = Long.MIN_VALUE;
        /** Whether it said it has no recording since {@link #positionSinceNs} while the session was silent here. */
        boolean noRecordingOfASilentSession;
        /** Whether it answered that a hole of its recording lies where the asker is, since {@link #positionSinceNs}. */
        boolean answeredHole;

        /** When it has been waited for from, as its asker counts: a patience after this it may be given up on. */
        long waitedForSinceNs() {
            return firstAskedNs == Long.MIN_VALUE ? positionSinceNs : firstAskedNs;
        }

        private void movedOn(long nowNs, boolean served) {
            positionSinceNs = nowNs;
            firstAskedNs = served ? nowNs : Long.MIN_VALUE;
            noRecordingOfASilentSession = false;
            answeredHole = false;
        }
    }

    /**
     * @param shared the recorder as every process reaches it
     * @param patienceOfTopicNs a topic's publisher timeout: how long a recovery waits for a recorder
     * @param sessionHeardNs when the asker's node last read a datagram of a session's publisher
     *     that it surely heard, or Long.MIN_VALUE
     * @param servedMessage told of each message this recorder serves the asker, with its session
     */
    AskedRecorder(RecoverySource shared, Scheduler scheduler, IntToLongFunction patienceOfTopicNs,
        IntToLongFunction sessionHeardNs, ObjIntConsumer<AskedRecorder> servedMessage) {
        this.shared = shared;
        this.scheduler = scheduler;
        this.patienceOfTopicNs = patienceOfTopicNs;
        this.sessionHeardNs = sessionHeardNs;
        this.servedMessage = servedMessage;
    }

    /**
     * A recovery of {@code sessionId} began, asking recorder A first: what was told before is
     * forgotten.
     */
    void recoveryBegan(int sessionId, boolean askedFirst) {
        final Answers fresh = new Answers();
        fresh.movedOn(scheduler.nowNs(), askedFirst);
        answers.put(sessionId, fresh);
    }

    /**
     * The asker moved on in {@code sessionId}: {@code server} served it a message, or it gave
     * messages up and asks recorder A next ({@code server} A). The one that served counts as asked
     * from then, as its asker counts it.
     */
    void movedOn(int sessionId, boolean server) {
        final Answers told = answers.get(sessionId);
        if (told != null) {
            told.movedOn(scheduler.nowNs(), server);
        }
    }

    /** What it told this asker of {@code sessionId} in the recovery under way; null before one began. */
    Answers answered(int sessionId) {
        return answers.get(sessionId);
    }

    @Override
    public String name() {
        return shared.name();
    }

    @Override
    public Fetch fetch(int topicId, int sessionId, long fromMessage, long toMessage, long nowNs) {
        final Answers told = answers.get(sessionId);
        if (told != null && told.firstAskedNs == Long.MIN_VALUE) {
            told.firstAskedNs = scheduler.nowNs();
        }
        return new TappedFetch(shared.fetch(topicId, sessionId, fromMessage, toMessage, nowNs), topicId, sessionId);
    }

    /** Hands the recorder's answers on to the asker's handler, noting them first. */
    private final class TappedFetch implements Fetch, ReplayHandler {
        private final Fetch fetch;
        private final int topicId;
        private final int sessionId;
        private ReplayHandler asker;

        TappedFetch(Fetch fetch, int topicId, int sessionId) {
            this.fetch = fetch;
            this.topicId = topicId;
            this.sessionId = sessionId;
        }

        @Override
        public int poll(ReplayHandler handler, int limit, long nowNs) {
            asker = handler;
            return fetch.poll(this, limit, nowNs);
        }

        @Override
        public void close() {
            fetch.close();
        }

        @Override
        public void onAccepted(long requestId, long first, long last) {
            asker.onAccepted(requestId, first, last);
        }

        @Override
        public void onMessage(long messageIndex, DirectBuffer buffer, int offset, int length, long recordedAtNs) {
            served();
            servedMessage.accept(AskedRecorder.this, sessionId);
            asker.onMessage(messageIndex, buffer, offset, length, recordedAtNs);
        }

        @Override
        public void onHole(long firstMessage, long count, HoleCause cause) {
            served();
            final Answers told = answers.get(sessionId);
            if (told != null) {
                told.answeredHole = true;
            }
            asker.onHole(firstMessage, count, cause);
        }

        @Override
        public void onDone(long requestId, long nextMessageIndex) {
            asker.onDone(requestId, nextMessageIndex);
        }

        @Override
        public void onRefused(long requestId, ReplayRefusal refusal, String sentence) {
            final Answers told = answers.get(sessionId);
            final long nowNs = scheduler.nowNs();
            final boolean notHeld = refusal == ReplayRefusal.NO_RECORDING || refusal == ReplayRefusal.NOT_HELD;
            if (told != null && notHeld && told.notHeldSinceNs == Long.MIN_VALUE) {
                told.notHeldSinceNs = nowNs;
            }
            if (told != null && refusal == ReplayRefusal.NO_RECORDING) {
                final long heardNs = sessionHeardNs.applyAsLong(sessionId);
                told.noRecordingOfASilentSession |= heardNs == Long.MIN_VALUE
                    || nowNs - heardNs >= patienceOfTopicNs.applyAsLong(topicId);
            }
            asker.onRefused(requestId, refusal, sentence);
        }

        private void served() {
            final Answers told = answers.get(sessionId);
            if (told != null) {
                told.notHeldSinceNs = Long.MIN_VALUE;
            }
        }
    }
}
