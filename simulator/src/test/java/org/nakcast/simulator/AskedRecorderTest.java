package org.nakcast.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.nakcast.transport.replay.HoleCause;
import org.nakcast.transport.replay.RecoverySource;
import org.nakcast.transport.replay.ReplayHandler;
import org.nakcast.transport.replay.ReplayRefusal;

class AskedRecorderTest {
    private static final int TOPIC = 3;
    private static final int SESSION = 77;
    private static final long MS = 1_000_000;
    private static final long PATIENCE_NS = 10 * MS;

    /** An asker that reads nothing of the answers. */
    private static final ReplayHandler NOBODY = new ReplayHandler() {
        @Override
        public void onAccepted(long requestId, long first, long last) {
        }

        @Override
        public void onMessage(long messageIndex, DirectBuffer buffer, int offset, int length, long recordedAtNs) {
        }

        @Override
        public void onHole(long firstMessage, long count, HoleCause cause) {
        }

        @Override
        public void onDone(long requestId, long nextMessageIndex) {
        }

        @Override
        public void onRefused(long requestId, ReplayRefusal refusal, String sentence) {
        }
    };

    private final Scheduler scheduler = new Scheduler();
    private final ScriptedRecorder recorder = new ScriptedRecorder();
    private final List<Integer> servedSessions = new ArrayList<>();
    private long sessionHeardNs = Long.MIN_VALUE;
    private final AskedRecorder asked = new AskedRecorder(recorder, scheduler, topicId -> PATIENCE_NS,
        sessionId -> sessionHeardNs, (server, sessionId) -> servedSessions.add(sessionId));

    @Test
    void aRecorderSayingItHoldsNoneIsNotedFromItsFirstSuchAnswerUntilItServesAMessage() {
        asked.recoveryBegan(SESSION, true);
        answerAt(5 * MS, handler -> handler.onRefused(1, ReplayRefusal.NOT_HELD, "not yet"));
        answerAt(7 * MS, handler -> handler.onRefused(1, ReplayRefusal.NO_RECORDING, "none"));
        assertThat(told().notHeldSinceNs).isEqualTo(5 * MS);

        answerAt(9 * MS, handler -> handler.onMessage(40, new UnsafeBuffer(new byte[8]), 0, 8, 0));

        assertThat(told().notHeldSinceNs).isEqualTo(Long.MIN_VALUE);
        assertThat(servedSessions).containsExactly(SESSION);
    }

    @Test
    void aFailureOfItsOwnIsNotASayingThatItHoldsNone() {
        asked.recoveryBegan(SESSION, true);

        answerAt(5 * MS, handler -> handler.onRefused(1, ReplayRefusal.UNREACHABLE, "down"));

        assertThat(told().notHeldSinceNs).isEqualTo(Long.MIN_VALUE);
        assertThat(told().noRecordingOfASilentSession).isFalse();
    }

    @Test
    void noRecordingIsTakenAsItsWordOnlyOfASessionSilentHereForAPatience() {
        asked.recoveryBegan(SESSION, true);
        sessionHeardNs = 3 * MS;

        answerAt(12 * MS, handler -> handler.onRefused(1, ReplayRefusal.NO_RECORDING, "none"));
        assertThat(told().noRecordingOfASilentSession).as("heard 9 ms before").isFalse();

        answerAt(13 * MS, handler -> handler.onRefused(1, ReplayRefusal.NO_RECORDING, "none"));
        assertThat(told().noRecordingOfASilentSession).as("heard a patience before").isTrue();
    }

    @Test
    void noRecordingOfASessionNeverHeardHereIsTakenAsItsWord() {
        asked.recoveryBegan(SESSION, true);

        answerAt(MS, handler -> handler.onRefused(1, ReplayRefusal.NO_RECORDING, "none"));

        assertThat(told().noRecordingOfASilentSession).isTrue();
    }

    @Test
    void aRecorderIsWaitedForFromItsFirstAskSinceTheAskerMovedOnOrFromThenIfItServed() {
        asked.recoveryBegan(SESSION, false);
        scheduler.runUntil(2 * MS);
        assertThat(told().waitedForSinceNs()).as("not asked yet: since the recovery began").isZero();

        answerAt(4 * MS, handler -> handler.onDone(1, 0));
        answerAt(6 * MS, handler -> handler.onDone(1, 0));
        assertThat(told().waitedForSinceNs()).as("since its first ask").isEqualTo(4 * MS);

        scheduler.runUntil(8 * MS);
        asked.movedOn(SESSION, true);
        assertThat(told().waitedForSinceNs()).as("it served: since then").isEqualTo(8 * MS);

        scheduler.runUntil(9 * MS);
        asked.movedOn(SESSION, false);
        answerAt(11 * MS, handler -> handler.onDone(1, 0));
        assertThat(told().waitedForSinceNs()).as("another served: since its next ask").isEqualTo(11 * MS);
    }

    @Test
    void aHoleAnsweredIsNotedUntilTheAskerMovesOnAndANewRecoveryForgetsEverything() {
        asked.recoveryBegan(SESSION, true);
        answerAt(MS, handler -> handler.onRefused(1, ReplayRefusal.NO_RECORDING, "none"));
        answerAt(2 * MS, handler -> handler.onHole(40, 3, HoleCause.LOST_IN_TRANSPORT));
        assertThat(told().answeredHole).isTrue();

        asked.movedOn(SESSION, false);
        assertThat(told().answeredHole).isFalse();
        assertThat(told().noRecordingOfASilentSession).isFalse();

        answerAt(3 * MS, handler -> handler.onRefused(1, ReplayRefusal.NOT_HELD, "not yet"));
        asked.recoveryBegan(SESSION, true);
        assertThat(told().notHeldSinceNs).isEqualTo(Long.MIN_VALUE);
        assertThat(asked.answered(SESSION + 1)).isNull();
    }

    @Test
    void theAskerGetsEveryAnswerAsTheRecorderGaveIt() {
        asked.recoveryBegan(SESSION, true);
        final List<String> heard = new ArrayList<>();
        recorder.answers.add(handler -> {
            handler.onAccepted(1, 40, 42);
            handler.onMessage(40, new UnsafeBuffer(new byte[8]), 0, 8, 5);
            handler.onHole(41, 1, HoleCause.LOST_IN_TRANSPORT);
            handler.onDone(1, 42);
            handler.onRefused(2, ReplayRefusal.NOT_HELD, "not yet");
        });

        asked.fetch(TOPIC, SESSION, 40, 42, 0).poll(new ReplayHandler() {
            @Override
            public void onAccepted(long requestId, long first, long last) {
                heard.add("accepted " + first + ".." + last);
            }

            @Override
            public void onMessage(long messageIndex, DirectBuffer buffer, int offset, int length,
                long recordedAtNs) {
                heard.add("message " + messageIndex + " of " + length + " recorded at " + recordedAtNs);
            }

            @Override
            public void onHole(long firstMessage, long count, HoleCause cause) {
                heard.add("hole " + firstMessage + " x" + count + " " + cause);
            }

            @Override
            public void onDone(long requestId, long nextMessageIndex) {
                heard.add("done at " + nextMessageIndex);
            }

            @Override
            public void onRefused(long requestId, ReplayRefusal refusal, String sentence) {
                heard.add("refused " + refusal + ": " + sentence);
            }
        }, 64, 0);

        assertThat(heard).containsExactly("accepted 40..42", "message 40 of 8 recorded at 5",
            "hole 41 x1 LOST_IN_TRANSPORT", "done at 42", "refused NOT_HELD: not yet");
    }

    private AskedRecorder.Answers told() {
        return asked.answered(SESSION);
    }

    /** At {@code atNs}, the asker asks the recorder, which answers with {@code answer}. */
    private void answerAt(long atNs, Consumer<ReplayHandler> answer) {
        scheduler.runUntil(atNs);
        recorder.answers.add(answer);
        asked.fetch(TOPIC, SESSION, 40, 50, atNs).poll(NOBODY, 64, atNs);
    }

    /** A recorder whose every fetch gives the next answer scripted, at its first poll. */
    private static final class ScriptedRecorder implements RecoverySource {
        final ArrayDeque<Consumer<ReplayHandler>> answers = new ArrayDeque<>();

        @Override
        public String name() {
            return "rec0-a";
        }

        @Override
        public Fetch fetch(int topicId, int sessionId, long fromMessage, long toMessage, long nowNs) {
            return new Fetch() {
                @Override
                public int poll(ReplayHandler handler, int limit, long pollNs) {
                    final Consumer<ReplayHandler> answer = answers.poll();
                    if (answer == null) {
                        return 0;
                    }
                    answer.accept(handler);
                    return 1;
                }

                @Override
                public void close() {
                }
            };
        }
    }
}
