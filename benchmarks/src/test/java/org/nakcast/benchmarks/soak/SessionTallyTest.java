package org.nakcast.benchmarks.soak;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.nakcast.benchmarks.child.Figures;

class SessionTallyTest {
    private final SessionTally tally = new SessionTally();

    @Test
    void anUnbrokenRunIsCountedOnceEach() {
        for (long number = 5; number < 10; number++) {
            tally.onMessage(number);
        }
        assertThat(tally.first()).isEqualTo(5);
        assertThat(tally.next()).isEqualTo(10);
        assertThat(tally.received()).isEqualTo(5);
        assertThat(tally.duplicates()).isZero();
        assertThat(tally.skippedSilently()).isZero();
    }

    @Test
    void aNumberSeenAgainIsADuplicateAndAJumpWithoutALossEventIsSilentLoss() {
        tally.onMessage(0);
        tally.onMessage(1);
        tally.onMessage(1);
        tally.onMessage(4);

        assertThat(tally.received()).isEqualTo(3);
        assertThat(tally.duplicates()).isOne();
        assertThat(tally.skippedSilently()).isEqualTo(2);
    }

    @Test
    void aJumpALossEventAnnouncedIsLossNotSilence() {
        tally.onMessage(0);
        tally.onLoss(3);
        tally.onMessage(4);
        tally.onMessage(9);

        assertThat(tally.lost()).isEqualTo(3);
        assertThat(tally.skippedSilently()).isEqualTo(4);
    }

    @Test
    void theFiguresReadBackAsWritten() {
        tally.onMessage(2);
        tally.onMessage(2);
        tally.onMessage(7);
        tally.onLoss(1);
        final Figures figures = new Figures();
        tally.putInto(figures, SoakFigures.sessionPrefix(-42));

        final SessionTally read = SoakFigures.sessions(Figures.parse(figures.toLine())).get(-42);

        assertThat(read).usingRecursiveComparison().ignoringFields("lossNotYetSeen").isEqualTo(tally);
    }
}
