package org.nakcast.transport.receive;

import static org.assertj.core.api.Assertions.assertThat;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.nakcast.transport.protocol.NakFlyweight;

class MissingRangesTest {
    private final ReorderWindow window = new ReorderWindow(16, 8);
    private final MissingRanges ranges = new MissingRanges(3);

    private void hold(long... sequences) {
        for (long sequence : sequences) {
            window.store(sequence, new UnsafeBuffer(new byte[1]), 0, 1);
        }
    }

    private long[] collected() {
        final long[] bounds = new long[2 * ranges.count()];
        for (int i = 0; i < ranges.count(); i++) {
            bounds[2 * i] = ranges.from(i);
            bounds[2 * i + 1] = ranges.to(i);
        }
        return bounds;
    }

    @Test
    void coalescesWhatIsNotHeldIntoAscendingInclusiveRanges() {
        hold(12, 15, 16);

        assertThat(ranges.collect(window, 10, 19, 0)).isEqualTo(3);
        assertThat(collected()).containsExactly(10, 11, 13, 14, 17, 19);
        assertThat(ranges.highest()).isEqualTo(19);
    }

    @Test
    void stopsAtTheMostRangesOneNakCarries() {
        hold(11, 13, 15);

        assertThat(ranges.collect(window, 10, 17, 0)).isEqualTo(3);
        assertThat(collected()).containsExactly(10, 10, 12, 12, 14, 14);
    }

    @Test
    void asksForNoMoreDatagramsThanANarrowNakTheLowestFirst() {
        final int narrow = NakFlyweight.MAX_DATAGRAMS_ASKED;

        assertThat(ranges.collect(window, 100, 100 + 10 * narrow, 0)).isOne();
        assertThat(collected()).containsExactly(100, 100 + narrow - 1);

        hold(12);
        assertThat(ranges.collect(window, 10, 10 + 10 * narrow, 0)).isEqualTo(2);
        assertThat(collected()).as("two datagrams, then the rest of the narrow NAK")
            .containsExactly(10, 11, 13, 13 + narrow - 3);
    }

    @Test
    void belowWhatThePublisherStillHoldsOnlyTheFirstMissingIsAskedForThenWhatItHolds() {
        hold(52);

        assertThat(ranges.collect(window, 10, 60, 50)).isEqualTo(3);
        assertThat(collected()).as("10 stands for everything gone; 50 on is asked for")
            .containsExactly(10, 10, 50, 51, 53, 60);
        assertThat(ranges.collect(window, 10, 60, 10)).as("nothing gone below the first missing").isEqualTo(2);
        assertThat(collected()).containsExactly(10, 51, 53, 60);
    }

    @Test
    void findsNothingWhenEverythingIsHeldOrTheSpanIsEmpty() {
        hold(10, 11);

        assertThat(ranges.collect(window, 10, 11, 0)).isZero();
        assertThat(ranges.collect(window, 12, 11, 0)).isZero();
    }

    @Test
    void aSingleMissingSequenceAtEachEnd() {
        hold(11, 12);

        ranges.collect(window, 10, 13, 0);

        assertThat(collected()).containsExactly(10, 10, 13, 13);
    }
}
