package org.nakcast.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;

import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;
import org.agrona.concurrent.status.CountersReader;
import org.junit.jupiter.api.Test;
import org.nakcast.transport.protocol.FrameType;
import org.nakcast.transport.protocol.NakFlyweight;
import org.nakcast.transport.status.StreamCounters;

/** Guarantee 17's model of one subscriber: what it misses, what it heard, and when keeping quiet is justified. */
class KeepingQuietTest {
    private static final int SESSION = 7;
    private static final long WINDOW_NS = 50_000;

    private final KeepingQuiet quiet = new KeepingQuiet(WINDOW_NS, 64);
    private final NakFlyweight nak = new NakFlyweight();
    private long dropped;
    private long queueFull;
    private long suppressed;

    @Test
    void aSuppressionIsJustifiedByANakHeardForTheLowestMissingDatagram() {
        startAndTake(0, 1, 2, 5, 6);
        hear(0, 3, 4);

        assertThat(suppressAt(10)).isNull();
    }

    @Test
    void aNakThatOverlapsTheGapButMissesItsLowestDatagramJustifiesNothing() {
        startAndTake(0, 1, 2, 7);
        hear(0, 4, 6);

        assertThat(suppressAt(10)).contains("session 7: 3");
    }

    @Test
    void aNakHeardLongerAgoThanTheWindowJustifiesNothing() {
        startAndTake(0, 1, 4);
        hear(0, 2, 3);

        assertThat(suppressAt(WINDOW_NS + 1)).contains("session 7: 2");
    }

    @Test
    void aDatagramTheNodeCountedDroppedIsStillMissing() {
        startAndTake(0, 1);
        quiet.reading(SESSION, 2);
        dropped++;
        quiet.settle(dropped, queueFull);
        take(3);
        hear(0, 3, 3);

        assertThat(suppressAt(10)).contains("session 7: 2");
    }

    @Test
    void whatWasGivenUpIsNotMissing() {
        startAndTake(0, 1, 6);
        quiet.givenUp(SESSION, 4);
        hear(0, 5, 5);

        assertThat(suppressAt(10)).isNull();
    }

    @Test
    void aStreamThatEndedForgetsWhatItHeldAheadAndStartsAgainWhereItResumes() {
        startAndTake(0, 1, 3, 4);
        quiet.ended(SESSION);
        quiet.started(SESSION, 2);
        hear(0, 3, 3);

        assertThat(suppressAt(10)).contains("session 7: 2");
    }

    @Test
    void aStreamHoldingBeforeItsStartAsksForNothingSoOnlyTheStartedOnesAreJudged() {
        startAndTake(0, 1);
        quiet.reading(SESSION + 1, 40);
        quiet.settle(dropped, queueFull);

        assertThat(suppressAt(10)).contains("session 7: 2").doesNotContain("session 8");
        hear(10, 2, 2);
        assertThat(suppressAt(20)).isNull();
    }

    @Test
    void beforeItsStartAStreamHoldsNothingBelowTheFirstDatagramItHeld() {
        take(5, 4);
        quiet.started(SESSION, 4);
        take(6);
        hear(0, 7, 7);

        assertThat(suppressAt(10)).contains("session 7: 4");
    }

    @Test
    void beforeItsStartAStreamHoldsNothingAWindowPastTheFirstDatagramItHeld() {
        take(0, 64, 65);
        quiet.started(SESSION, 0);
        for (long sequence = 1; sequence < 64; sequence++) {
            take(sequence);
        }
        hear(0, 65, 65);

        assertThat(suppressAt(10)).contains("session 7: 64");
    }

    /**
     * Seed 10844: a subscriber held datagrams 180..243 of a session while its start was in doubt,
     * then started it at 0; the repairs of 31..63, stored ahead of 30, took the slots of 223..243
     * and 180..191, which the receiver's window then no longer held, and the model, still counting
     * them held, judged the lowest missing datagram 244 instead of 180.
     */
    @Test
    void aDatagramStoredAfterTheStartTakesTheSlotOfOneHeldBeforeItFromFurtherOn() {
        for (long sequence = 180; sequence < 244; sequence++) {
            take(sequence);
        }
        quiet.started(SESSION, 0);
        quiet.givenUp(SESSION, 29);
        for (long sequence = 31; sequence < 64; sequence++) {
            take(sequence);
        }
        for (long sequence = 30; sequence < 180; sequence++) {
            take(sequence);
        }
        hear(0, 180, 243);

        assertThat(suppressAt(10)).as("the lowest missing is 180, asked for").isNull();
        hear(20, 244, 300);
        assertThat(suppressAt(WINDOW_NS + 10)).as("180 asked for too long ago").contains("session 7: 180");
    }

    /** Seed 931: the next datagram needed is delivered at once; it takes no slot from one held further on. */
    @Test
    void theNextDatagramNeededTakesNoSlot() {
        for (long sequence = 100; sequence < 164; sequence++) {
            take(sequence);
        }
        quiet.started(SESSION, 40);
        for (long sequence = 40; sequence < 100; sequence++) {
            take(sequence);
        }
        hear(0, 164, 170);

        assertThat(suppressAt(10)).as("everything to 163 is held or delivered").isNull();
    }

    /**
     * Seed 26632: the node ended a stream that fell silent before its start (no event says so) and
     * began a new one for the session, holding from 13; the model, still holding from 18, refused
     * 13..17 and judged 13 missing.
     */
    @Test
    void aStreamTheNodeEndedBeforeItsStartIsForgottenWhole() {
        final StreamCounters streamCounters = streamCounters();
        take(18, 19);
        quiet.forgetGoneUnstarted(1, streamCounters);
        take(13, 14, 15, 16, 17);
        quiet.started(SESSION, 13);
        hear(0, 18, 20);

        assertThat(suppressAt(10)).as("13..17 held, 18 and 19 gone with the old stream, asked for").isNull();
    }

    @Test
    void aStreamTheNodeStillReceivesIsKeptWhenAnotherEndsBeforeItsStart() {
        final StreamCounters streamCounters = streamCounters();
        streamCounters.receiverPosition("prices", 1, SESSION);
        take(18, 19);
        quiet.forgetGoneUnstarted(1, streamCounters);
        take(13, 14, 15, 16, 17);
        quiet.started(SESSION, 13);
        hear(0, 18, 20);

        assertThat(suppressAt(10)).as("the stream still holds from 18: 13 is missing").contains("session 7: 13");
    }

    /**
     * Seed 99645: a stream ended in the round after the node read the datagram another stream needed
     * next (352), while the model had not settled that read; the NAK heard asked for 354, the lowest
     * that stream missed once 352 was in, and the model judged 352 missing.
     */
    @Test
    void aStreamEventBeforeTheReadIsSettledCountsTheDatagramReadLastEitherWay() {
        startAndTake(350, 351, 353);
        hear(0, 354, 356);
        quiet.reading(SESSION, 352);

        assertThat(suppressAt(10)).isNull();
    }

    @Test
    void anUnsettledDatagramAheadOfTheGapJustifiesNothing() {
        startAndTake(350, 351, 354);
        hear(0, 355, 356);
        quiet.reading(SESSION, 353);

        assertThat(suppressAt(10)).contains("session 7: 352");
    }

    /**
     * Seed 1203514: a restarted recorder held 424..551 before its stream started at 356; its delivery
     * queue was full, so it stored 356..423 as they came, each in the slot of one held from further
     * on (window 128), and missed those again.
     */
    @Test
    void aFullDeliveryQueueStoresTheNextDatagramsInTheSlotsOfOnesHeldFromFurtherOn() {
        take(70, 71, 72, 73);
        quiet.started(SESSION, 0);
        quiet.reading(SESSION, 0);
        queueFull++;
        quiet.settle(dropped, queueFull);
        take(1, 2, 3, 4, 5, 6, 7, 8, 9);
        hear(0, 70, 75);

        assertThat(suppressAt(10)).as("6 and 7 took the slots of 70 and 71").isNull();
    }

    @Test
    void aQueueNeverSeenFullDeliversTheNextDatagramWithoutTakingASlot() {
        take(70, 71, 72, 73);
        quiet.started(SESSION, 0);
        take(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
        hear(0, 70, 75);

        assertThat(suppressAt(10)).contains("session 7: 10");
    }

    /** Seed 1225071: a flood of other sessions' NAKs pushed the one that justified out of the model. */
    @Test
    void nakRangesOfOtherSessionsDoNotPushASessionsOwnOut() {
        startAndTake(0, 1, 3);
        hear(0, 2, 2);
        for (int i = 0; i < 20_000; i++) {
            hear(SESSION + 1, 5, i, i);
        }

        assertThat(suppressAt(10)).isNull();
    }

    @Test
    void withoutAKnownReorderWindowNothingIsJudged() {
        final KeepingQuiet unknown = new KeepingQuiet(WINDOW_NS, 0);
        unknown.started(SESSION, 0);

        assertThat(unknown.judge(1, 10)).isNull();
    }

    @Test
    void aRecoveringStreamMayKeepQuietAboutWhatAnUnrecoverableItReadSaidIsGone() {
        recoveringPast20();
        hear(0, 21, 29);

        assertThat(suppressAt(10)).as("it recovers 2..20 and asks for 21 on").isNull();
    }

    /** Seed 53926: an UNRECOVERABLE the node ignored had moved the model's floor past what it asks for. */
    @Test
    void anUnrecoverableTheNodeIgnoredMovesNothing() {
        recoveringPast20();
        quiet.goneRead(SESSION, 1_000_000);
        dropped++;
        quiet.settle(dropped, queueFull);
        hear(0, 21, 29);

        assertThat(suppressAt(10)).isNull();
    }

    @Test
    void onlyAMoveOfTheCountIsJudged() {
        startAndTake(0, 1, 3);

        assertThat(quiet.judge(suppressed, 10)).isNull();
        assertThat(suppressAt(10)).isNotNull();
        assertThat(quiet.judge(suppressed, 20)).isNull();
    }

    /** Takes 0, 1 and 30; an UNRECOVERABLE up to 10 begins a recovery, and one up to 20 follows. */
    private void recoveringPast20() {
        startAndTake(0, 1, 30);
        quiet.goneRead(SESSION, 10);
        quiet.recoveryStarted(SESSION, 10);
        quiet.goneRead(SESSION, 20);
        quiet.settle(dropped, queueFull);
    }

    /** Starts the stream at the first of {@code sequences} and takes them all. */
    private void startAndTake(long... sequences) {
        quiet.started(SESSION, sequences[0]);
        take(sequences);
    }

    /** The node reads {@code sequences} of the stream, one after another, and drops none of them. */
    private void take(long... sequences) {
        for (long sequence : sequences) {
            quiet.reading(SESSION, sequence);
            quiet.settle(dropped, queueFull);
        }
    }

    private void hear(long atNs, long from, long to) {
        hear(SESSION, atNs, from, to);
    }

    private void hear(int session, long atNs, long from, long to) {
        final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocate(NakFlyweight.lengthFor(1)));
        nak.wrap(buffer, 0);
        nak.writeHeader(FrameType.NAK, NakFlyweight.lengthFor(1), session, 1, 0);
        nak.receiverId(99).rangeCount(1).range(0, from, to);
        quiet.heard(nak, atNs);
    }

    private static StreamCounters streamCounters() {
        final UnsafeBuffer values = new UnsafeBuffer(ByteBuffer.allocateDirect(8 * 1024));
        final UnsafeBuffer metadata = new UnsafeBuffer(ByteBuffer.allocateDirect(4 * values.capacity()));
        return new StreamCounters(new CountersManager(metadata, values),
            new AtomicCounter(new UnsafeBuffer(ByteBuffer.allocateDirect(CountersReader.COUNTER_LENGTH)), 0));
    }

    private String suppressAt(long nowNs) {
        return quiet.judge(++suppressed, nowNs);
    }
}
