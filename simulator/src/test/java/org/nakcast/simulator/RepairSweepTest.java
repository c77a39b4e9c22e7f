package org.nakcast.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The checker's model of one session's repair sweep, and when it stops judging (a queue that may have filled). */
class RepairSweepTest {
    private static final long HOLD_OFF_NS = 1_000;
    private static final long HELD_FROM = 0;
    private static final long SENT_UP_TO = 10_000;

    private final RepairSweep sweep = new RepairSweep(HOLD_OFF_NS);

    @Test
    void aPassAtOneInstantThatGoesOverADatagramAskedForAndHeldIsCaught() {
        ask(4, 6);
        ask(10, 12);
        ask(5, 11);

        for (long sequence = 4; sequence <= 11; sequence++) {
            assertThat(sweep.resent(sequence, HELD_FROM, 100)).isEqualTo(-1);
        }
        assertThat(sweep.resent(20, HELD_FROM, 100)).isEqualTo(12);
    }

    @Test
    void aDatagramNoLongerHeldMayBePassed() {
        ask(4, 6);

        assertThat(sweep.resent(4, HELD_FROM, 100)).isEqualTo(-1);
        assertThat(sweep.resent(7, 7, 100)).isEqualTo(-1);
    }

    @Test
    void aPassOverTwoInstantsIsNotJudged() {
        ask(4, 6);

        assertThat(sweep.resent(4, HELD_FROM, 100)).isEqualTo(-1);
        assertThat(sweep.resent(6, HELD_FROM, 200)).isEqualTo(-1);
    }

    @Test
    void withRunsBelowTheQueuesLimitWaitingThePassIsJudged() {
        askSingles(0, 127);

        assertThat(sweep.resent(0, HELD_FROM, 100)).isEqualTo(-1);
        assertThat(sweep.resent(4, HELD_FROM, 100)).isEqualTo(2);
    }

    @Test
    void onceAsManyRunsWaitAsTheQueueMayRefuseNothingIsJudged() {
        askSingles(0, 128);

        assertThat(sweep.resent(0, HELD_FROM, 100)).isEqualTo(-1);
        assertThat(sweep.resent(4, HELD_FROM, 100)).isEqualTo(-1);
    }

    @Test
    void aDatagramAskedForBetweenTwoRunsJoinsThemIntoOne() {
        askSingles(0, 127);
        ask(1, 1);
        ask(1_000, 1_000);

        assertThat(sweep.resent(0, HELD_FROM, 100)).isEqualTo(-1);
        assertThat(sweep.resent(3, HELD_FROM, 100)).isEqualTo(1);
    }

    @Test
    void aDatagramResentFromTheMiddleOfARunSplitsIt() {
        ask(0, 254);
        for (long sequence = 1; sequence < 252; sequence += 2) {
            sweep.resent(sequence, HELD_FROM, 100 + sequence);
        }
        ask(1_000, 1_000);

        assertThat(sweep.resent(0, HELD_FROM, 10_000)).isEqualTo(-1);
        assertThat(sweep.resent(4, HELD_FROM, 10_000)).as("0, 2, ... 250, 252..254 and 1000: 128 runs waiting")
            .isEqualTo(-1);
    }

    private void ask(long from, long to) {
        sweep.asked(from, to, HELD_FROM, SENT_UP_TO, 0);
    }

    /** Asks for {@code count} datagrams one apart from {@code first}: each its own run. */
    private void askSingles(long first, int count) {
        for (int i = 0; i < count; i++) {
            ask(first + 2L * i, first + 2L * i);
        }
    }
}
