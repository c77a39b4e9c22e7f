package org.nakcast.transport.receive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.nakcast.transport.receive.StreamHarness.SESSION;
import static org.nakcast.transport.receive.StreamHarness.TOPIC;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.nakcast.transport.LossEvent;
import org.nakcast.transport.receive.StreamHarness.Delivered;
import org.nakcast.transport.replay.ReplayRefusal;
import org.nakcast.transport.status.SystemCounter;

/**
 * A stream on a topic with recorders: what its publisher no longer holds is fetched from them and
 * delivered in order, the live stream held meanwhile; only what no recorder holds is lost.
 */
class RecoveryTest {
    private static final long PATIENCE_NS = 1_000_000_000L;

    private final StreamHarness h = new StreamHarness();
    private final ScriptedRecorder a = new ScriptedRecorder("A");
    private final ScriptedRecorder b = new ScriptedRecorder("B");

    /** Datagrams 0..3 holding messages 0..5: [m0 m1] [m2] [m3 m4] [m5]; 1 and 2 never come, nor will. */
    private void lose1And2() {
        h.stream.recoverFrom(List.of(a, b), PATIENCE_NS);
        h.data(0, 0, "m0", "m1").data(3, 5, "m5");
        h.stream.onUnrecoverable(1, 2, 5, h.nowNs);
    }

    /** Polls, the clock standing, while the stream recovers (at most 10 times). */
    private void pollWhileRecovering() {
        for (int i = 0; i < 10 && h.stream.isRecovering(); i++) {
            h.poll();
        }
    }

    /** Polls every sixteenth of the patience for {@code ns}: a receiving thread that runs all along. */
    private static void pollFor(StreamHarness harness, long ns) {
        for (long polled = 0; polled < ns; polled += PATIENCE_NS / 16) {
            harness.advance(PATIENCE_NS / 16).poll();
        }
    }

    private List<Long> deliveredIndexes() {
        return h.delivered().stream().map(Delivered::index).toList();
    }

    @Test
    void whatThePublisherNoLongerHoldsComesFromTheRecorderInOrderWithNoLoss() {
        a.holds(0, "m0", "m1", "m2", "m3", "m4", "m5");
        lose1And2();

        assertThat(h.stream.isRecovering()).isTrue();
        assertThat(h.deliveredTexts()).containsExactly("m0", "m1");

        h.poll();

        assertThat(h.deliveredTexts()).containsExactly("m0", "m1", "m2", "m3", "m4", "m5");
        assertThat(deliveredIndexes()).containsExactly(0L, 1L, 2L, 3L, 4L, 5L);
        assertThat(h.losses()).isEmpty();
        assertThat(a.asked).singleElement().satisfies(range -> assertThat(range).containsExactly(2, 4));
        assertThat(h.stream.isRecovering()).isFalse();
        assertThat(h.stream.expectedSequence()).isEqualTo(4);
        assertThat(h.counter(SystemCounter.RECOVERIES)).isEqualTo(1);
        assertThat(h.counter(SystemCounter.RECOVERED_MESSAGES)).isEqualTo(3);
        assertThat(h.counter(SystemCounter.LOST_MESSAGES)).isZero();
        assertThat(a.openFetches).isZero();
    }

    @Test
    void liveDatagramsThatComeDuringTheRecoveryWaitForItAndNoneIsDeliveredTwice() {
        a.holds(2, "m2", "m3", "m4");
        lose1And2();
        h.data(4, 6, "m6").data(3, 5, "m5").data(5, 7, "m7");

        assertThat(h.deliveredTexts()).containsExactly("m0", "m1");

        h.poll();
        h.data(6, 8, "m8");

        assertThat(h.deliveredTexts()).containsExactly("m0", "m1", "m2", "m3", "m4", "m5", "m6", "m7", "m8");
        assertThat(h.counter(SystemCounter.DUPLICATES)).isEqualTo(1);
    }

    @Test
    void recoveredMessagesWaitForAFullDeliveryQueueHoweverLongAndAreNotGivenUp() {
        final boolean[] open = {false};
        a.holds(2, "m2", "m3", "m4");
        lose1And2();
        h.stream.deliverWhen((datagramLength, assembledLength, nowNs) -> open[0]);

        h.poll();
        pollFor(h, 2 * PATIENCE_NS);

        assertThat(h.deliveredTexts()).containsExactly("m0", "m1");
        assertThat(h.stream.isRecovering()).isTrue();

        open[0] = true;
        h.poll();
        h.poll();

        assertThat(h.deliveredTexts()).containsExactly("m0", "m1", "m2", "m3", "m4", "m5");
        assertThat(h.losses()).isEmpty();
        h.poll();
        assertThat(a.asked).as("a recovery that ended asks nothing more").hasSize(1);
        assertThat(a.openFetches).isZero();
    }

    @Test
    void aHoleInRecorderAIsFetchedFromRecorderB() {
        a.holds(2, "m2").holdsHole(3, 2);
        b.holds(3, "m3", "m4");
        lose1And2();

        pollWhileRecovering();

        assertThat(h.deliveredTexts()).containsExactly("m0", "m1", "m2", "m3", "m4", "m5");
        assertThat(h.losses()).isEmpty();
        assertThat(b.asked).singleElement().satisfies(range -> assertThat(range).containsExactly(3, 4));
    }

    @Test
    void aHoleInOneRecorderWhileTheOtherIsOnlyBehindWaitsForTheOther() {
        a.holds(2, "m2");
        b.holdsHole(2, 3);
        lose1And2();
        h.poll();
        h.poll();

        assertThat(h.deliveredTexts()).containsExactly("m0", "m1", "m2");
        a.holds(3, "m3", "m4");
        pollFor(h, PATIENCE_NS);

        assertThat(h.deliveredTexts()).containsExactly("m0", "m1", "m2", "m3", "m4", "m5");
        assertThat(h.losses()).isEmpty();
    }

    @Test
    void eachRecorderHasAWholePatienceFromWhenItIsFirstAskedThere() {
        a.silent = true;
        b.silent = true;
        a.holdsHole(2, 3);
        b.holds(2, "m2", "m3", "m4");
        lose1And2();
        pollFor(h, PATIENCE_NS * 9 / 10);
        a.silent = false;
        h.poll();

        pollFor(h, PATIENCE_NS / 2);
        assertThat(h.losses()).as("B was asked half a patience ago").isEmpty();
        b.silent = false;
        pollWhileRecovering();

        assertThat(h.deliveredTexts()).containsExactly("m0", "m1", "m2", "m3", "m4", "m5");
        assertThat(h.losses()).isEmpty();
    }

    @Test
    void aNodeStoppedLongerThanThePatienceAsksAgainWhenItRunsAndGivesNothingUpUnasked() {
        a.holdsHole(2, 3);
        lose1And2();
        h.poll();
        h.poll();
        assertThat(b.asked).as("B holds nothing yet: asked again later").hasSize(1);

        b.holds(2, "m2", "m3", "m4");
        b.silent = true;
        h.advance(2 * PATIENCE_NS).poll();

        assertThat(h.losses()).as("nobody was asked while the node stood still").isEmpty();
        assertThat(b.asked).hasSize(2);
        b.silent = false;
        pollWhileRecovering();

        assertThat(h.deliveredTexts()).containsExactly("m0", "m1", "m2", "m3", "m4", "m5");
        assertThat(h.losses()).isEmpty();
    }

    /** Seeds 43093 (no recording) and 49359 (a recording that does not hold them) crawled a patience a hole. */
    @ParameterizedTest
    @EnumSource(value = ReplayRefusal.class, names = {"NO_RECORDING", "NOT_HELD"})
    void aRecorderThatDoesNotHoldTheMessagesForAWholePatienceIsTakenAtItsWordAtTheNextHole(ReplayRefusal answer) {
        a.holdsHole(2, 1).holds(3, "m3").holdsHole(4, 1);
        b.refusing = answer;
        lose1And2();

        pollFor(h, PATIENCE_NS + PATIENCE_NS / 4);

        assertThat(h.losses()).as("the first hole waited a patience for B, the second did not")
            .extracting(LossEvent::firstMessage).containsExactly(2L, 4L);
        assertThat(h.deliveredTexts()).containsExactly("m0", "m1", "m3", "m5");
        assertThat(h.stream.isRecovering()).isFalse();
    }

    @Test
    void aHoleInEveryRecorderIsLostAtOnce() {
        a.holds(2, "m2").holdsHole(3, 1).holds(4, "m4");
        b.holdsHole(3, 1);
        lose1And2();

        pollWhileRecovering();

        assertThat(h.deliveredTexts()).containsExactly("m0", "m1", "m2", "m4", "m5");
        assertThat(h.losses()).singleElement().extracting(LossEvent::firstMessage, LossEvent::lostMessages)
            .containsExactly(3L, 1L);
    }

    /**
     * Seed 123: with the recorder down, each of a stream's many gaps held it a patience, and it
     * crawled. Seed 1023369: so did a recorder whose full disk refused what came; seed 1490126 one
     * whose node turned the session away (max-publishers); seed 1650153 one whose recording had
     * stopped.
     */
    @ParameterizedTest
    @EnumSource(value = ReplayRefusal.class,
        names = {"UNREACHABLE", "NOT_STORING", "SESSION_REFUSED", "NOT_RECORDING", "TOO_MANY_CLIENTS"})
    void recordersFailingForAWholePatienceAreNotWaitedForAgainAtTheStreamsNextGap(ReplayRefusal failure) {
        a.refusing = failure;
        b.refusing = failure;
        lose1And2();
        pollFor(h, PATIENCE_NS + PATIENCE_NS / 4);
        assertThat(h.losses()).as("the first gap waits a patience").extracting(LossEvent::firstMessage)
            .containsExactly(2L);

        h.data(4, 6, "m6").data(6, 8, "m8");
        h.stream.onUnrecoverable(5, 5, 8, h.nowNs);
        pollFor(h, PATIENCE_NS / 4);

        assertThat(h.losses()).as("the next does not").extracting(LossEvent::firstMessage).containsExactly(2L, 7L);
        assertThat(h.deliveredTexts()).containsExactly("m0", "m1", "m5", "m6", "m8");

        a.refusing = null;
        a.holds(10, "m10");
        h.data(7, 9, "m9").data(9, 11, "m11");
        h.stream.onUnrecoverable(8, 8, 11, h.nowNs);
        pollFor(h, PATIENCE_NS / 4);
        assertThat(h.deliveredTexts()).as("a recorder back is asked and served")
            .containsExactly("m0", "m1", "m5", "m6", "m8", "m9", "m10", "m11");
    }

    /**
     * Seed 911442: a publisher died with hundreds of gaps its stream had yet to recover, and each
     * waited a patience for recorders that never had its session.
     */
    @Test
    void aRecorderWithNoRecordingOfASessionSilentForAWholePatienceIsTakenAtItsWordAtOnce() {
        a.refusing = ReplayRefusal.NO_RECORDING;
        b.refusing = ReplayRefusal.NO_RECORDING;
        lose1And2();
        h.data(4, 6, "m6").data(6, 8, "m8");
        h.stream.onUnrecoverable(5, 5, 8, h.nowNs);

        pollFor(h, PATIENCE_NS + PATIENCE_NS / 4);

        assertThat(h.losses()).as("the first run waited a patience; the next began with the session silent that long")
            .extracting(LossEvent::firstMessage).containsExactly(2L, 7L);
        assertThat(h.deliveredTexts()).containsExactly("m0", "m1", "m5", "m6", "m8");
    }

    /**
     * Seed 1319318: a stream resumed after its session fell silent took on the session's earlier
     * life, but its recovery kept the fresh one, never heard: every recorder with no recording of the
     * session yet (its own start still repairing) was taken at its word at once, as if the session
     * had been silent all along, and the messages it was about to record were given up.
     */
    @Test
    void aResumedStreamWaitsForARecorderWithNoRecordingOfASessionHeardLately() {
        a.refusing = ReplayRefusal.NO_RECORDING;
        b.refusing = ReplayRefusal.NO_RECORDING;
        h.advance(2 * PATIENCE_NS);
        final SessionLife earlier = new SessionLife();
        earlier.heard(h.nowNs);
        h.stream.recoverFrom(List.of(a, b), PATIENCE_NS);
        h.stream.resumeAt(0, 0, earlier, h.nowNs);
        h.data(0, 0, "m0", "m1").data(3, 5, "m5");
        h.stream.onUnrecoverable(1, 2, 5, h.nowNs);

        pollFor(h, PATIENCE_NS / 4);
        assertThat(h.losses()).as("the session was heard just now: a recording of it may be made soon").isEmpty();

        pollFor(h, PATIENCE_NS);
        assertThat(h.losses()).extracting(LossEvent::firstMessage).containsExactly(2L);
    }

    @ParameterizedTest
    @EnumSource(value = ReplayRefusal.class, names = {"NO_RECORDING", "NOT_HELD"})
    void aRecorderWithoutTheMessagesOfASessionHeardLatelyIsWaitedForAgainAtTheNextGap(ReplayRefusal answer) {
        a.refusing = answer;
        b.refusing = answer;
        lose1And2();
        pollFor(h, PATIENCE_NS + PATIENCE_NS / 4);

        h.data(4, 6, "m6").data(6, 8, "m8");
        h.stream.onUnrecoverable(5, 5, 8, h.nowNs);
        pollFor(h, PATIENCE_NS / 4);
        assertThat(h.losses()).as("its recording may be made, or come that far, soon")
            .extracting(LossEvent::firstMessage).containsExactly(2L);

        pollFor(h, PATIENCE_NS);
        assertThat(h.losses()).extracting(LossEvent::firstMessage).containsExactly(2L, 7L);
    }

    @Test
    void messagesNoRecorderHoldsAreOneExactLossNamingEachRecordersAnswerAndDeliveryGoesOn() {
        a.holds(2, "m2").holdsHole(3, 1).holds(4, "m4");
        b.refusing = ReplayRefusal.UNREACHABLE;
        lose1And2();

        for (int i = 0; i < 12 && h.stream.isRecovering(); i++) {
            h.advance(PATIENCE_NS / 8).poll();
        }

        assertThat(h.deliveredTexts()).containsExactly("m0", "m1", "m2", "m4", "m5");
        assertThat(h.losses()).singleElement().satisfies(loss -> {
            assertThat(loss.firstMessage()).isEqualTo(3);
            assertThat(loss.lostMessages()).isEqualTo(1);
            assertThat(loss.fromSequence()).isEqualTo(1);
            assertThat(loss.toSequence()).isEqualTo(2);
            assertThat(loss.recordersAsked()).containsExactly(
                "A: messages 3..3 not recorded, sent while the recorder was down",
                "B: the recorder could not be reached (scripted)");
            assertThat(loss.describe()).contains("nor did a recorder");
        });
        assertThat(h.events.indexOf(h.losses().get(0))).isGreaterThan(h.events.indexOf(new Delivered(2, TOPIC,
            SESSION, "m2"))).isLessThan(h.events.indexOf(new Delivered(4, TOPIC, SESSION, "m4")));
        assertThat(h.counter(SystemCounter.LOST_MESSAGES)).isEqualTo(1);
        assertThat(h.counter(SystemCounter.RECOVERED_MESSAGES)).isEqualTo(2);
    }

    @Test
    void aHoleGivenUpInOneRecoveryIsForgottenByTheNext() {
        a.holdsHole(2, 3);
        b.silent = true;
        lose1And2();
        pollFor(h, PATIENCE_NS * 5 / 2);
        assertThat(h.losses()).singleElement().extracting(LossEvent::lostMessages).isEqualTo(3L);

        h.data(6, 9, "m9");
        a.refusing = ReplayRefusal.NO_RECORDING;
        b.silent = false;
        b.refusing = ReplayRefusal.UNREACHABLE;
        h.stream.onUnrecoverable(4, 5, 9, h.nowNs);
        h.poll();

        assertThat(h.losses()).as("nothing given up at once: no hole is known at 6").hasSize(1);
        pollFor(h, PATIENCE_NS * 5 / 2);
        assertThat(h.losses()).hasSize(2).last().satisfies(loss -> {
            assertThat(loss.firstMessage()).isEqualTo(6);
            assertThat(loss.lostMessages()).isEqualTo(3);
        });
        assertThat(h.deliveredTexts()).containsExactly("m0", "m1", "m5", "m9");
    }

    @Test
    void aRecorderBehindIsAskedAgainUntilItHasThemAndNothingIsLost() {
        a.holds(2, "m2");
        b.refusing = ReplayRefusal.NOT_HELD;
        lose1And2();

        h.poll();
        pollFor(h, PATIENCE_NS / 2);
        assertThat(h.deliveredTexts()).containsExactly("m0", "m1", "m2");

        a.holds(3, "m3", "m4");
        for (int i = 0; i < 6; i++) {
            h.advance(PATIENCE_NS / 16).poll();
        }

        assertThat(h.deliveredTexts()).containsExactly("m0", "m1", "m2", "m3", "m4", "m5");
        assertThat(h.losses()).isEmpty();
    }

    @Test
    void whatNothingBringsForThePatienceIsLostExactly() {
        a.refusing = ReplayRefusal.NO_RECORDING;
        b.refusing = ReplayRefusal.UNREACHABLE;
        lose1And2();

        for (int i = 0; i < 10; i++) {
            h.advance(PATIENCE_NS / 8).poll();
        }

        assertThat(h.losses()).singleElement().satisfies(loss -> {
            assertThat(loss.firstMessage()).isEqualTo(2);
            assertThat(loss.lostMessages()).isEqualTo(3);
            assertThat(loss.recordersAsked()).containsExactly(
                "A: no recording of that topic and session (scripted)",
                "B: the recorder could not be reached (scripted)");
        });
        assertThat(h.deliveredTexts()).containsExactly("m0", "m1", "m5");
        assertThat(a.asked.size()).isGreaterThan(1);
        assertThat(a.openFetches + b.openFetches).isZero();
    }

    @Test
    void anUnrecoverableHeardDuringTheRecoveryIsRecoveredAfterIt() {
        a.holds(2, "m2", "m3", "m4");
        lose1And2();
        h.data(5, 7, "m7");
        h.stream.onUnrecoverable(4, 4, 7, h.nowNs);

        h.poll();
        assertThat(h.deliveredTexts()).containsExactly("m0", "m1", "m2", "m3", "m4", "m5");

        a.holds(6, "m6");
        h.poll();

        assertThat(h.deliveredTexts()).containsExactly("m0", "m1", "m2", "m3", "m4", "m5", "m6", "m7");
        assertThat(h.losses()).isEmpty();
        assertThat(h.counter(SystemCounter.RECOVERIES)).isEqualTo(2);
    }

    @Test
    void gapsThePublisherSaidAreGoneAreNotNakedAgainWhileARecoveryIsUnderWay() {
        a.silent = true;
        b.silent = true;
        h.stream.recoverFrom(List.of(a, b), PATIENCE_NS);
        h.data(0, 0, "m0", "m1").data(3, 5, "m5").data(5, 7, "m7").data(7, 9, "m9").heartbeat(8);
        h.stream.onUnrecoverable(1, 4, 7, h.nowNs);
        assertThat(h.stream.isRecovering()).isTrue();

        for (int i = 0; i < 8 && h.stream.naks().deadlineNs() != NakScheduler.NO_DEADLINE; i++) {
            h.pollAtDeadline();
        }

        assertThat(h.naks()).isNotEmpty().allSatisfy(nak -> assertThat(nak.ranges()).containsExactly(
            new StreamHarness.Range(6, 6), new StreamHarness.Range(8, 8)));
        assertThat(h.stream.isRecovering()).isTrue();
    }

    /**
     * A gone run that a full queue keeps from being given up after the recovery waits for the queue,
     * and is not asked for again meanwhile: asked again, the publisher would answer the same, with
     * its oldest datagrams, which the stream holds (seed 1540436: a recorder held by its disk drew
     * 1,852 retransmits for 737 datagrams needed).
     */
    @Test
    void aGoneRunAFullQueueKeepsFromBeingGivenUpWaitsForTheQueueWithoutBeingAskedForAgain() {
        final int[] room = {5};
        a.holds(2, "m2", "m3", "m4");
        h.stream.recoverFrom(List.of(a, b), PATIENCE_NS);
        h.stream.deliverWhen((datagramLength, assembledLength, nowNs) -> h.delivered().size() < room[0]);
        h.data(0, 0, "m0", "m1").data(3, 5, "m5").data(5, 7, "m7").heartbeat(5);
        h.stream.onUnrecoverable(1, 4, 7, h.nowNs);

        h.poll();
        for (int i = 0; i < 4 && h.stream.naks().deadlineNs() != NakScheduler.NO_DEADLINE; i++) {
            h.pollAtDeadline();
        }

        assertThat(h.deliveredTexts()).containsExactly("m0", "m1", "m2", "m3", "m4");
        assertThat(h.stream.isRecovering()).isFalse();
        assertThat(h.naks()).as("the publisher said datagram 4 is gone").allSatisfy(nak -> assertThat(nak.ranges())
            .noneMatch(range -> range.from() <= 4 && 4 <= range.to()));

        room[0] = 100;
        pollFor(h, 2 * PATIENCE_NS);

        assertThat(h.deliveredTexts()).containsExactly("m0", "m1", "m2", "m3", "m4", "m5", "m7");
        assertThat(h.losses()).singleElement().extracting(LossEvent::firstMessage, LossEvent::lostMessages)
            .containsExactly(6L, 1L);
    }

    @Test
    void aStreamWhosePublisherEndedHasNotEndedUntilTheRecoveryHasDelivered() {
        a.holds(2, "m2", "m3", "m4");
        lose1And2();
        h.stream.onHeartbeat(0, new HeartbeatDatagram(TOPIC, SESSION).saying(3).endOfStream(true), h.nowNs);

        assertThat(h.stream.hasEnded()).isFalse();

        h.poll();

        assertThat(h.stream.hasEnded()).isTrue();
    }

    @Test
    void aStreamEndingDuringTheRecoveryResumesFromTheDatagramsGivenUpToIt() {
        a.holds(2, "m2");
        lose1And2();
        h.poll();

        assertThat(h.stream.resumeSequence()).isEqualTo(1);
        assertThat(h.stream.knownMessageIndex()).isEqualTo(3);
    }

    @Test
    void withoutAKnownMessageIndexTheLossIsReportedAsBeforeWithNoRecorderAsked() {
        h.stream.recoverFrom(List.of(a), PATIENCE_NS);
        h.heartbeat(9).heartbeat(12);
        h.stream.onUnrecoverable(10, 12, 20, h.nowNs);

        assertThat(h.losses()).singleElement().satisfies(loss -> {
            assertThat(loss.lostMessages()).isZero();
            assertThat(loss.recordersAsked()).isEmpty();
        });
        assertThat(a.asked).isEmpty();
    }

    @Test
    void aLossWithTheDropPolicyDropsTheStream() {
        final StreamHarness dropping = new StreamHarness(InboundStreamSettings.DEFAULTS.withDropStreamOnLoss(true));
        a.refusing = ReplayRefusal.NO_RECORDING;
        dropping.stream.recoverFrom(List.of(a), PATIENCE_NS);
        dropping.data(0, 0, "m0").data(2, 2, "m2");
        dropping.stream.onUnrecoverable(1, 1, 2, dropping.nowNs);

        pollFor(dropping, 2 * PATIENCE_NS);

        assertThat(dropping.losses()).singleElement().extracting(LossEvent::streamDropped).isEqualTo(true);
        assertThat(dropping.stream.isDropped()).isTrue();
        assertThat(dropping.deliveredTexts()).containsExactly("m0");
        assertThat(a.openFetches).isZero();
    }
}
