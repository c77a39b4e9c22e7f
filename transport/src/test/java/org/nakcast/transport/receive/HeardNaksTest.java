package org.nakcast.transport.receive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.nakcast.transport.receive.StreamHarness.nakFromOther;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

class HeardNaksTest {
    private static final long NOW = 1_000_000;

    private final ReorderWindow window = new ReorderWindow(16, 8);
    private final MissingRanges missing = new MissingRanges(3);
    private final HeardNaks heard = new HeardNaks();

    /** Misses 10, 11, 13, 14: holds 12 of [10, 14]. */
    private MissingRanges missingTwoRanges() {
        window.store(12, new UnsafeBuffer(new byte[1]), 0, 1);
        missing.collect(window, 10, 14, 0);
        return missing;
    }

    private boolean coveredAfterHearing(long... bounds) {
        final HeardNaks fresh = new HeardNaks();
        fresh.add(nakFromOther(bounds), NOW);
        return fresh.cover(missing, NOW - 1);
    }

    @Test
    void aNakThatHoldsEveryRangeCovers() {
        missingTwoRanges();

        assertThat(coveredAfterHearing(10, 11, 13, 14)).isTrue();
        assertThat(coveredAfterHearing(0, 100)).isTrue();
        assertThat(coveredAfterHearing(9, 10, 11, 11, 13, 20)).isTrue();
    }

    @Test
    void aNakThatLeavesAnySequenceOutDoesNotCover() {
        missingTwoRanges();

        assertThat(coveredAfterHearing(10, 11)).isFalse();
        assertThat(coveredAfterHearing(11, 14)).isFalse();
        assertThat(coveredAfterHearing(10, 10, 13, 14)).isFalse();
        assertThat(coveredAfterHearing(10, 11, 13, 13)).isFalse();
        assertThat(coveredAfterHearing(20, 30)).isFalse();
    }

    @Test
    void aRangeReachingTheLargestSequenceDoesNotWrapAround() {
        missingTwoRanges();

        assertThat(coveredAfterHearing(10, 11, 13, Long.MAX_VALUE)).isTrue();
    }

    @Test
    void naksOfSeveralReceiversCoverTogetherInAnyOrder() {
        missingTwoRanges();
        heard.add(nakFromOther(13, 14), NOW);
        assertThat(heard.cover(missing, NOW - 1)).isFalse();

        heard.add(nakFromOther(11, 11), NOW + 1);
        heard.add(nakFromOther(10, 10), NOW + 2);

        assertThat(heard.cover(missing, NOW - 1)).isTrue();
    }

    @Test
    void onlyRangesHeardAfterTheGivenTimeCount() {
        missingTwoRanges();
        heard.add(nakFromOther(10, 11), NOW);
        heard.add(nakFromOther(13, 14), NOW + 500);

        assertThat(heard.cover(missing, NOW - 1)).isTrue();
        assertThat(heard.cover(missing, NOW)).isFalse();
    }

    @Test
    void theOldestRangesAreForgottenPastTheCapacity() {
        missingTwoRanges();
        heard.add(nakFromOther(10, 14), NOW);
        for (int i = 0; i < HeardNaks.CAPACITY - 1; i++) {
            heard.add(nakFromOther(100 + i, 100 + i), NOW);
        }
        assertThat(heard.cover(missing, NOW - 1)).isTrue();

        heard.add(nakFromOther(200, 200), NOW);

        assertThat(heard.cover(missing, NOW - 1)).isFalse();
    }

    @Test
    void nothingMissingIsAlwaysCovered() {
        missing.collect(window, 5, 4, 0);

        assertThat(heard.cover(missing, NOW - 1)).isTrue();
    }
}
