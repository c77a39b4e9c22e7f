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

        assertThat(ranges.collect(window, 10, 19)).isEqualTo(3);
        assertThat(collected()).containsExactly(10, 11, 13, 14, 17, 19);
        assertThat(ranges.highest()).isEqualTo(19);
    }

    @Test
    void stopsAtTheMostRangesOneNakCarries() {
        hold(11, 13, 15);

        assertThat(ranges.collect(window, 10, 17)).isEqualTo(3);
        assertThat(collected()).containsExactly(10, 10, 12, 12, 14, 14);
    }

    @Test
    void asksForNoMoreDatagramsThanANarrowNakTheLowestFirst() {
        final int narrow = NakFlyweight.MAX_DATAGRAMS_ASKED;

        assertThat(ranges.collect(window, 100, 100 + 10 * narrow)).isOne();
        assertThat(collected()).containsExactly(100, 100 + narrow - 1);

        hold(12);
        assertThat(ranges.collect(window, 10, 10 + 10 * narrow)).isEqualTo(2);
        assertThat(collected()).as("two datagrams, then the rest of the narrow NAK")
            .containsExactly(10, 11, 13, 13 + narrow - 3);
    }

    @Test
    void findsNothingWhenEverythingIsHeldOrTheSpanIsEmpty() {
        hold(10, 11);

        assertThat(ranges.collect(window, 10, 11)).isZero();
        assertThat(ranges.collect(window, 12, 11)).isZero();
    }

    @Test
    void aSingleMissingSequenceAtEachEnd() {
        hold(11, 12);

        ranges.collect(window, 10, 13);

        assertThat(collected()).containsExactly(10, 10, 13, 13);
    }
}
