package org.nakcast.transport.receive;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

class NakSchedulerTest {
    private static final NakTiming TIMING = new NakTiming(20_000, 50_000, 100_000, 800_000);
    private static final long NOW = 1_000_000_000L;
    private static final long GROUP_OF_TWO_WINDOW = (long) (50_000 * (1 + Math.log(2)));
    private static final long GROUP_OF_16_WINDOW = (long) (50_000 * (1 + Math.log(16)));

    private final NakScheduler scheduler = new NakScheduler(TIMING, new SplittableRandom(7));

    @Test
    void nothingIsDueAtFirst() {
        assertThat(scheduler.deadlineNs()).isEqualTo(NakScheduler.NO_DEADLINE);
        assertThat(scheduler.isDue(Long.MAX_VALUE - 1)).isFalse();
    }

    @Test
    void aGapIsNakedWithinTheRandomWindow() {
        scheduler.onGapFound(NOW, 1);

        assertThat(scheduler.deadlineNs()).isBetween(NOW, NOW + 50_000);
        assertThat(scheduler.isDue(scheduler.deadlineNs() - 1)).isFalse();
        assertThat(scheduler.isDue(scheduler.deadlineNs())).isTrue();
    }

    @Test
    void theWindowNeverShrinksBelowTheFloor() {
        final NakTiming tiny = new NakTiming(20_000, 0, 100_000, 800_000);
        long largest = 0;
        for (int seed = 0; seed < 200; seed++) {
            final NakScheduler other = new NakScheduler(tiny, new SplittableRandom(seed));
            other.onGapFound(NOW, 1);
            largest = Math.max(largest, other.deadlineNs() - NOW);
        }

        assertThat(largest).isBetween(15_000L, 20_000L);
    }

    @Test
    void retriesDoubleFromTwiceTheEstimateUpToTheCap() {
        scheduler.onGapFound(NOW, 1);
        final long[] intervals = new long[5];
        long now = NOW;
        for (int i = 0; i < intervals.length; i++) {
            now = Math.max(now, scheduler.deadlineNs());
            scheduler.onNakSent(10, now);
            intervals[i] = scheduler.deadlineNs() - now;
        }

        assertThat(intervals).containsExactly(100_000, 200_000, 400_000, 800_000, 800_000);
    }

    @Test
    void aHugeCapNeverOverflowsTheInterval() {
        final NakScheduler wide = new NakScheduler(new NakTiming(0, 0, 1, Long.MAX_VALUE / 4), new SplittableRandom(1));
        long previous = 0;
        for (int i = 0; i < 200; i++) {
            wide.onNakSent(10, 0);
            final long interval = wide.deadlineNs();
            assertThat(interval).isGreaterThanOrEqualTo(previous).isLessThanOrEqualTo(Long.MAX_VALUE / 4);
            previous = interval;
        }

        assertThat(previous).isEqualTo(Long.MAX_VALUE / 4);
    }

    @Test
    void aRepairStartsTheDoublingOver() {
        scheduler.onNakSent(10, NOW);
        scheduler.onNakSent(10, NOW);
        scheduler.onRepaired(3, false, NOW);
        scheduler.onNakSent(10, NOW);

        assertThat(scheduler.deadlineNs() - NOW).isEqualTo(100_000);
    }

    @Test
    void cancelClearsTheDeadlineAndTheDoubling() {
        scheduler.onNakSent(10, NOW);
        scheduler.onNakSent(10, NOW);
        scheduler.cancel();

        assertThat(scheduler.deadlineNs()).isEqualTo(NakScheduler.NO_DEADLINE);
        scheduler.onNakSent(11, NOW);
        assertThat(scheduler.deadlineNs() - NOW).isEqualTo(100_000);
    }

    @Test
    void onlyARetransmitOfWhatTheLatestNakNewlyAskedForIsASample() {
        scheduler.onNakSent(10, NOW);
        scheduler.onRepaired(4, false, NOW + 1_000);
        assertThat(scheduler.repairEstimateNs()).isEqualTo(50_000);

        scheduler.onRepaired(11, true, NOW + 2_000);
        assertThat(scheduler.repairEstimateNs()).isEqualTo(50_000);

        scheduler.onRepaired(5, true, NOW + 30_000);
        assertThat(scheduler.repairEstimateNs()).isEqualTo(30_000);

        scheduler.onRepaired(6, true, NOW + 90_000);
        assertThat(scheduler.repairEstimateNs()).isEqualTo(30_000);
    }

    @Test
    void aNakThatOnlyRepeatsOldRangesTakesNoSample() {
        scheduler.onNakSent(10, NOW);
        scheduler.onNakSent(10, NOW + 100_000);
        scheduler.onRepaired(4, true, NOW + 130_000);

        assertThat(scheduler.repairEstimateNs()).isEqualTo(50_000);
    }

    @Test
    void aNakWithNewRangesSamplesOnlyThose() {
        scheduler.onNakSent(10, NOW);
        scheduler.onNakSent(20, NOW + 100_000);
        scheduler.onRepaired(10, true, NOW + 110_000);
        assertThat(scheduler.repairEstimateNs()).isEqualTo(50_000);

        scheduler.onRepaired(11, true, NOW + 140_000);
        assertThat(scheduler.repairEstimateNs()).isEqualTo(40_000);
    }

    @Test
    void aRepairAfterARetryTookAtLeastTheTimeSinceTheRetryWhichCountsWhenAboveTheEstimate() {
        scheduler.onNakSent(10, NOW);
        scheduler.onNakSent(10, NOW + 100_000);
        scheduler.onRepaired(4, true, NOW + 250_000);
        assertThat(scheduler.repairEstimateNs()).isEqualTo(150_000);

        scheduler.onRepaired(5, true, NOW + 900_000);
        assertThat(scheduler.repairEstimateNs()).as("only the first repair after a retry").isEqualTo(150_000);

        scheduler.onNakSent(20, NOW + 1_000_000);
        scheduler.onNakSent(20, NOW + 1_010_000);
        scheduler.onRepaired(11, true, NOW + 1_030_000);
        assertThat(scheduler.repairEstimateNs()).as("a bound below the estimate tells nothing").isEqualTo(150_000);
    }

    @Test
    void aRepairCountsForAtMostTwiceTheRetryIntervalSoOneStallCannotLiftTheEstimateToTheCap() {
        scheduler.onNakSent(10, NOW);
        scheduler.onRepaired(4, true, NOW + 700_000);
        assertThat(scheduler.repairEstimateNs()).as("twice the first retry interval of 100 us").isEqualTo(200_000);

        scheduler.onNakSent(20, NOW + 1_000_000);
        scheduler.onRepaired(11, true, NOW + 1_500_000);
        assertThat(scheduler.repairEstimateNs()).as("within twice the 600 us retry interval now: counted whole")
            .isEqualTo(200_000 + (500_000 - 200_000) / 8);
    }

    @Test
    void aNakHeardIsTimedAsTwiceTheWaitForItsRepairUnlessBothCameInOneRound() {
        scheduler.onSuppressed(10, NOW, 2);
        scheduler.onRepaired(5, true, NOW);
        assertThat(scheduler.repairEstimateNs()).isEqualTo(50_000);

        scheduler.onSuppressed(20, NOW + 1_000, 2);
        scheduler.onRepaired(15, true, NOW + 31_000);
        assertThat(scheduler.repairEstimateNs()).isEqualTo(60_000);
    }

    @Test
    void aRetryWaitsTwoEstimatesWhenRepairsComeSteadilyAndLongerWhenTheyVary() {
        final NakScheduler steady = new NakScheduler(TIMING, new SplittableRandom(1));
        final NakScheduler varying = new NakScheduler(TIMING, new SplittableRandom(1));
        long now = NOW;
        for (int i = 0; i < 40; i++) {
            steady.onNakSent(i, now);
            steady.onRepaired(i, true, now + 100_000);
            varying.onNakSent(i, now);
            varying.onRepaired(i, true, now + (i % 2 == 0 ? 40_000 : 160_000));
            now += 1_000_000;
        }

        assertThat(steady.repairEstimateNs()).isEqualTo(100_000);
        assertThat(steady.retryIntervalNs()).isEqualTo(200_000);
        assertThat(varying.repairEstimateNs()).isBetween(80_000L, 120_000L);
        assertThat(varying.retryIntervalNs()).isGreaterThan(varying.repairEstimateNs() + 4 * 45_000);
    }

    @Test
    void aSecondGapDoesNotMoveAPendingFirstNak() {
        scheduler.onGapFound(NOW, 1);
        final long deadline = scheduler.deadlineNs();
        for (int i = 1; i <= 100; i++) {
            scheduler.onGapFound(NOW + i, 1);
        }

        assertThat(scheduler.deadlineNs()).isEqualTo(deadline);
    }

    @Test
    void aGapFoundWhileARetryIsArmedIsAskedForSooner() {
        scheduler.onNakSent(10, NOW);
        scheduler.onNakSent(10, NOW);
        scheduler.onNakSent(10, NOW);

        scheduler.onGapFound(NOW + 1_000, 1);

        assertThat(scheduler.deadlineNs()).isBetween(NOW + 1_000, NOW + 51_000);
    }

    @Test
    void suppressionWaitsARetryIntervalAndARandomDelayAndNeverBringsTheDeadlineForward() {
        scheduler.onGapFound(NOW, 1);
        scheduler.onSuppressed(10, NOW + 1, 2);
        final long postponed = scheduler.deadlineNs();
        assertThat(postponed).isBetween(NOW + 1 + 100_000, NOW + 1 + 100_000 + GROUP_OF_TWO_WINDOW);

        scheduler.onSuppressed(10, NOW + 2, 2);
        assertThat(scheduler.deadlineNs()).isEqualTo(postponed + 1);

        scheduler.onNakSent(10, NOW + 3);
        scheduler.onNakSent(10, NOW + 3);
        final long farRetry = scheduler.deadlineNs();
        scheduler.onRepaired(9, false, NOW + 4);
        scheduler.onSuppressed(10, NOW + 5, 2);
        assertThat(scheduler.deadlineNs()).isEqualTo(farRetry);
    }

    @Test
    void theNaksOfOneRoundNeverGrowTheBackOff() {
        scheduler.onGapFound(NOW, 1);
        long now = NOW;
        for (int i = 0; i < 15; i++) {
            now += 3_000;
            scheduler.onSuppressed(10, now, 16);
        }
        assertThat(scheduler.deadlineNs() - now).isBetween(100_000L - 45_000, 100_000L + GROUP_OF_16_WINDOW);

        now = scheduler.deadlineNs();
        scheduler.onNakSent(10, now);

        assertThat(scheduler.deadlineNs() - now).isEqualTo(200_000);
    }

    @Test
    void roundsThatGoUnansweredDoubleTheWaitOfEveryReceiverThatHearsThem() {
        scheduler.onGapFound(NOW, 1);
        final long[] waits = new long[5];
        long heard = NOW;
        for (int round = 0; round < waits.length; round++) {
            scheduler.onSuppressed(10, heard, 2);
            waits[round] = scheduler.deadlineNs() - heard;
            heard = scheduler.deadlineNs() - 1;
        }

        assertThat(waits[0]).isBetween(100_000L, 100_000L + GROUP_OF_TWO_WINDOW);
        assertThat(waits[1]).isBetween(200_000L, 200_000L + GROUP_OF_TWO_WINDOW);
        assertThat(waits[2]).isBetween(400_000L, 400_000L + GROUP_OF_TWO_WINDOW);
        assertThat(waits[4]).isBetween(800_000L, 800_000L + GROUP_OF_TWO_WINDOW);
    }

    @Test
    void aFirstNakAloneIsUniformOverTheWindowAsBefore() {
        final long[] delays = firstDelays(1, 2_000);

        assertThat(Arrays.stream(delays).min().orElseThrow()).isGreaterThanOrEqualTo(0);
        assertThat(Arrays.stream(delays).max().orElseThrow()).isLessThanOrEqualTo(50_000);
        assertThat(mean(delays)).isBetween(23_000.0, 27_000.0);
    }

    @Test
    void inAGroupTheWindowWidensWithTheLogOfItsSizeAndLaterTimesAreLikelier() {
        final long window = GROUP_OF_16_WINDOW;
        final long[] delays = firstDelays(16, 2_000);

        assertThat(Arrays.stream(delays).min().orElseThrow()).isGreaterThanOrEqualTo(0);
        assertThat(Arrays.stream(delays).max().orElseThrow()).isLessThanOrEqualTo(window);
        assertThat(Arrays.stream(delays).filter(delay -> delay < window / 10).count())
            .as("density rises 16-fold: about 2%% fall in the first tenth, not 10%%").isBetween(20L, 70L);
        assertThat(mean(delays)).isGreaterThan(0.6 * window);
    }

    @Test
    void aForgedCrowdCannotPushTheFirstNakPastTheRetryCap() {
        final NakTiming slow = new NakTiming(20_000, 500_000, 100_000, 800_000);
        long latest = 0;
        for (int seed = 0; seed < 500; seed++) {
            final NakScheduler other = new NakScheduler(slow, new SplittableRandom(seed));
            other.onGapFound(NOW, GroupSizeEstimator.MAX_GROUP_SIZE);
            latest = Math.max(latest, other.deadlineNs() - NOW);
        }

        assertThat(latest).isBetween(700_000L, 800_000L);
    }

    private static long[] firstDelays(int groupSize, int seeds) {
        final long[] delays = new long[seeds];
        for (int seed = 0; seed < seeds; seed++) {
            final NakScheduler other = new NakScheduler(TIMING, new SplittableRandom(seed));
            other.onGapFound(NOW, groupSize);
            delays[seed] = other.deadlineNs() - NOW;
        }
        return delays;
    }

    private static double mean(long[] values) {
        return Arrays.stream(values).average().orElseThrow();
    }

    @Test
    void aSuppressedRangeCountsAsAskedFor() {
        scheduler.onSuppressed(10, NOW, 2);
        scheduler.onNakSent(10, NOW + 100_000);
        scheduler.onRepaired(5, true, NOW + 110_000);

        assertThat(scheduler.repairEstimateNs()).isEqualTo(50_000);
    }

    @Test
    void aRefusedSendIsTriedAgainAfterARetryInterval() {
        scheduler.onGapFound(NOW, 1);
        scheduler.onSendFailed(NOW + 10);

        assertThat(scheduler.deadlineNs()).isEqualTo(NOW + 10 + 100_000);
    }
}
