package org.nakcast.transport.publish;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class RetransmitQueueTest {
    private final RetransmitQueue queue = new RetransmitQueue(4);

    @Test
    void keepsRangesAscendingWhateverOrderTheyCameIn() {
        queue.add(20, 21);
        queue.add(2, 3);
        queue.add(10, 10);

        assertThat(drain()).containsExactly(2L, 3L, 10L, 20L, 21L);
    }

    @Test
    void mergesRangesThatOverlapOrTouchSoEachSequenceIsQueuedOnce() {
        queue.add(10, 12);
        queue.add(4, 6);
        queue.add(7, 9);
        queue.add(5, 11);
        queue.add(20, 20);
        queue.add(13, 19);

        assertThat(drain()).containsExactlyElementsOf(sequences(4, 20));
    }

    @Test
    void aRangeCoveringSeveralMergesThemAllIntoOne() {
        queue.add(2, 2);
        queue.add(4, 4);
        queue.add(6, 6);
        queue.add(8, 8);

        assertThat(queue.add(1, 9)).isTrue();
        assertThat(queue.add(30, 30)).as("three slots free again").isTrue();

        assertThat(drain()).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 30L);
    }

    @Test
    void forgetsEverythingBelowTheOldestWhereverItLies() {
        queue.add(10, 12);
        queue.add(2, 3);
        queue.add(6, 8);

        queue.forgetBelow(7);

        assertThat(drain()).containsExactly(7L, 8L, 10L, 11L, 12L);
    }

    @Test
    void forgettingEverythingEmptiesIt() {
        queue.add(2, 3);
        queue.add(6, 8);

        queue.forgetBelow(9);

        assertThat(queue.isEmpty()).isTrue();
    }

    @Test
    void whenFullRefusesARangeThatMergesWithNoneButTakesOneThatDoes() {
        for (int i = 0; i < 4; i++) {
            assertThat(queue.add(10L * i, 10L * i + 1)).isTrue();
        }

        assertThat(queue.add(5, 5)).isFalse();
        assertThat(queue.add(12, 15)).isTrue();

        assertThat(drain()).containsExactly(0L, 1L, 10L, 11L, 12L, 13L, 14L, 15L, 20L, 21L, 30L, 31L);
    }

    @Test
    void theSweepGoesOnFromWhereItStoppedAndThenRound() {
        queue.add(4, 6);
        queue.add(9, 12);

        assertThat(queue.nextFrom(0)).isEqualTo(4);
        assertThat(queue.nextFrom(5)).isEqualTo(5);
        assertThat(queue.nextFrom(7)).isEqualTo(9);
        assertThat(queue.nextFrom(11)).isEqualTo(11);
        assertThat(queue.nextFrom(13)).as("past the highest: round to the lowest").isEqualTo(4);
    }

    @Test
    void whatIsAskedAgainBehindTheSweepWaitsForTheNextRound() {
        queue.add(0, 9);
        final List<Long> sent = new ArrayList<>();
        long cursor = 0;
        for (int i = 0; i < 5; i++) {
            cursor = takeNext(cursor, sent);
        }

        queue.add(0, 9);
        while (!queue.isEmpty()) {
            cursor = takeNext(cursor, sent);
        }

        assertThat(sent).containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 0L, 1L, 2L, 3L, 4L);
    }

    @Test
    void removingFromTheMiddleSplitsTheRangeButAFullQueueDropsThePartBelow() {
        queue.add(0, 9);
        queue.remove(5);
        assertThat(drain()).containsExactly(0L, 1L, 2L, 3L, 4L, 6L, 7L, 8L, 9L);

        for (int i = 0; i < 4; i++) {
            queue.add(10L * i, 10L * i + 8);
        }
        queue.remove(15);

        assertThat(drain()).as("full: 10..14 dropped, its receivers ask again").containsExactlyElementsOf(
            concat(concat(sequences(0, 8), sequences(16, 18)), concat(sequences(20, 28), sequences(30, 38))));
    }

    /** Takes the next sequence of the sweep into {@code sent}; returns where the sweep goes on. */
    private long takeNext(long cursor, List<Long> sent) {
        final long next = queue.nextFrom(cursor);
        sent.add(next);
        queue.remove(next);
        return next + 1;
    }

    /** Every sequence queued, lowest first, as a sweep from 0 takes them. */
    private List<Long> drain() {
        final List<Long> sequences = new ArrayList<>();
        long cursor = 0;
        while (!queue.isEmpty()) {
            cursor = takeNext(cursor, sequences);
        }
        return sequences;
    }

    private static List<Long> concat(List<Long> first, List<Long> second) {
        final List<Long> both = new ArrayList<>(first);
        both.addAll(second);
        return both;
    }

    private static List<Long> sequences(long from, long toInclusive) {
        final List<Long> sequences = new ArrayList<>();
        for (long sequence = from; sequence <= toInclusive; sequence++) {
            sequences.add(sequence);
        }
        return sequences;
    }
}
