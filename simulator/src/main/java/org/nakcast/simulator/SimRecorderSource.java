package org.nakcast.simulator;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.SplittableRandom;

import org.agrona.DirectBuffer;
import org.nakcast.recorder.store.RecordHandler;
import org.nakcast.recorder.store.RecordingDescriptor;
import org.nakcast.recorder.store.RecordingReader;
import org.nakcast.transport.replay.HoleCause;
import org.nakcast.transport.replay.RecoverySource;
import org.nakcast.transport.replay.ReplayHandler;
import org.nakcast.transport.replay.ReplayRefusal;

/**
 * A seed's recorder as its subscribers' nodes reach it for what their publishers no longer hold:
 * each fetch reads the {@link RecorderHost}'s recording of the session on the simulation's clock
 * and answers as a replay endpoint does (a session its node turns away is refused as such), with
 * the seed's recovery faults: an answer that comes late, a slow disk (few messages per poll), a
 * full disk (what its recording could not store is refused as a recorder that cannot store
 * answers), a catalog that lags what was written (an answer ends short of the messages recorded in
 * the last moments), refusals, and a recorder down or stopped (unreachable, or silent). A recorder
 * whose slow disk holds its duty cycle answers nothing meanwhile: it answers replays on the thread
 * it records on, so it never answers from a catalog that thread has not caught up with. Held past
 * the lateness a recorder only behind may take ({@link Scenario.RecoveryFaults#lateAtMostNs}), it
 * fails the asker. Remembers when it last failed an asker (refused for a fault, down, stopped,
 * held by its disk that long; not a recording that does not hold what was asked, or not yet),
 * which the recovery guarantee is judged by.
 */
final class SimRecorderSource implements RecoverySource {
    private final String name;
    private final Scheduler scheduler;
    private final Scenario.RecoveryFaults faults;
    private final SplittableRandom draws;
    private RecorderHost host;
    /** When it last refused, could not be reached or was stopped; Long.MIN_VALUE for never. */
    long lastFailureNs = Long.MIN_VALUE;
    long fetches;
    long refusals;

    SimRecorderSource(String name, Scheduler scheduler, Scenario.RecoveryFaults faults, SplittableRandom draws) {
        this.name = name;
        this.scheduler = scheduler;
        this.faults = faults;
        this.draws = draws;
    }

    /** The recorder process whose recordings it serves. */
    void serve(RecorderHost recorder) {
        this.host = recorder;
    }

    /** The recorder process it serves. */
    RecorderHost recorder() {
        return host;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Fetch fetch(int topicId, int sessionId, long fromMessage, long toMessage, long nowNs) {
        fetches++;
        final long delayNs = faults.answerDelayMaxNs() == 0 ? 0 : draws.nextLong(faults.answerDelayMaxNs());
        final boolean refused = draws.nextDouble() < faults.refusal();
        return new SimFetch(topicId, sessionId, fromMessage, toMessage, nowNs, nowNs + delayNs, refused);
    }

    private void failed() {
        lastFailureNs = scheduler.nowNs();
    }

    /** One request, read from the recording as the recorder wrote it so far. */
    private final class SimFetch implements Fetch, RecordHandler {
        private final int topicId;
        private final int sessionId;
        private final long to;
        private final long readyAtNs;
        private final boolean refused;
        private final long askedAtNs;
        private final int incarnation;
        private long recordingId;
        private long next;
        private RecordingReader reader;
        private ReplayHandler answers;
        private boolean finished;
        private boolean polling;
        /** Whether this poll met a message recorded too lately to serve yet: the answer ends there. */
        private boolean lagging;
        private long pollNs;

        SimFetch(int topicId, int sessionId, long from, long to, long askedAtNs, long readyAtNs, boolean refused) {
            this.topicId = topicId;
            this.sessionId = sessionId;
            this.next = from;
            this.to = to;
            this.readyAtNs = readyAtNs;
            this.refused = refused;
            this.askedAtNs = askedAtNs;
            this.incarnation = host.incarnation;
        }

        @Override
        public int poll(ReplayHandler handler, int limit, long nowNs) {
            if (finished) {
                return 0;
            }
            answers = handler;
            if (!host.isServing() || host.incarnation != incarnation) {
                failed();
                if (host.isDown() || host.incarnation != incarnation) {
                    return refuse(ReplayRefusal.UNREACHABLE, "the recorder is down");
                }
                return 0; // stopped: the connection is open, nothing answers
            }
            if (host.isStalled(nowNs)) {
                if (host.stalledUntilNs() - askedAtNs > faults.lateAtMostNs()) {
                    failed(); // held past the lateness a recorder only behind may take
                }
                return 0; // its thread held by its disk: the answer comes when the stall ends
            }
            if (nowNs < readyAtNs) {
                return 0;
            }
            if (reader == null && (!open() || finished)) {
                return 1;
            }
            polling = true;
            lagging = false;
            pollNs = nowNs;
            int handed;
            try {
                handed = reader.poll(this, Math.min(limit, faults.messagesPerPoll()));
            } catch (IOException e) {
                handed = 0;
                polling = false;
                return refuse(ReplayRefusal.DAMAGED, e.toString());
            }
            polling = false;
            if (finished) {
                closeReader();
                return handed;
            }
            if (handed == 0 && !lagging && next <= to && refusing()) {
                return refuse(ReplayRefusal.NOT_STORING, "its disk refused message " + next + " and refuses what"
                    + " comes");
            }
            if (next > to || handed == 0 || lagging) {
                finished = true;
                closeReader();
                answers.onDone(1, next);
                return handed + 1;
            }
            return handed;
        }

        /**
         * Opens the reader at the first message asked for, or refuses as a recorder would; what was
         * asked before the recording began is a hole (the asker may close the fetch on it).
         */
        private boolean open() {
            if (refused) {
                refuse(ReplayRefusal.TOO_MANY_CLIENTS, "drawn refusal");
                return false;
            }
            final RecordingDescriptor recording;
            try {
                recording = RecordingDescriptor.find(host.recordings(), topicId, sessionId, next);
                if (recording == null && host.turnsAway(topicId, sessionId)) {
                    refuse(ReplayRefusal.SESSION_REFUSED, "its node turns session " + sessionId + " away");
                    return false;
                }
                if (recording == null) {
                    refuse(ReplayRefusal.NO_RECORDING, "no recording of session " + sessionId);
                    return false;
                }
                final long readFrom = Math.max(next, recording.firstMessageIndex());
                recordingId = recording.recordingId();
                reader = RecordingReader.openAt(host.directory(), recordingId, readFrom);
                if (reader == null) {
                    final ReplayRefusal refusal = recording.refusalPastItsEnd(host.turnsAway(topicId, sessionId));
                    if (refusal == ReplayRefusal.NOT_HELD) {
                        host.checkNotHeld(recording, scheduler.nowNs());
                    }
                    refuse(refusal, "its recording of session " + sessionId + " does not hold message " + readFrom);
                    return false;
                }
            } catch (IOException e) {
                refuse(ReplayRefusal.DAMAGED, e.toString());
                return false;
            }
            answers.onAccepted(1, next, to);
            if (next < recording.firstMessageIndex()) {
                onHole(next, recording.firstMessageIndex() - next, HoleCause.BEFORE_RECORDING);
            }
            return true;
        }

        /** Whether the recording read says its disk refuses what comes, as the catalog has it now. */
        private boolean refusing() {
            try {
                for (RecordingDescriptor recording : host.recordings()) {
                    if (recording.recordingId() == recordingId) {
                        return recording.refusing();
                    }
                }
                return false;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        private int refuse(ReplayRefusal refusal, String sentence) {
            refusals++;
            if (refusal != ReplayRefusal.NOT_HELD && refusal != ReplayRefusal.NO_RECORDING) {
                failed(); // a recording that does not hold what was asked (yet) is no failure of the recorder
            }
            finished = true;
            closeReader();
            answers.onRefused(1, refusal, name + ": " + sentence);
            return 1;
        }

        @Override
        public void onMessage(long messageIndex, DirectBuffer buffer, int offset, int length, long recordedAtNs) {
            if (!finished && !lagging && messageIndex == next && next <= to && pollNs - recordedAtNs < faults.lagNs()) {
                lagging = true;
            }
            if (!finished && !lagging && messageIndex == next && next <= to) {
                next++;
                answers.onMessage(messageIndex, buffer, offset, length, recordedAtNs);
            }
        }

        /** A hole of the recording, clipped to what is still to answer, as a recorder sends it. */
        @Override
        public void onHole(long firstMessage, long count, HoleCause cause) {
            final long from = Math.max(firstMessage, next);
            final long last = Math.min(firstMessage + count - 1, to);
            if (!finished && !lagging && from == next && from <= last) {
                next = last + 1;
                answers.onHole(from, last - from + 1, cause);
            }
        }

        @Override
        public void close() {
            finished = true;
            if (!polling) {
                closeReader();
            }
        }

        private void closeReader() {
            if (reader != null) {
                try {
                    reader.close();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                reader = null;
            }
        }
    }
}
