package org.nakcast.transport.receive;

import java.util.SplittableRandom;

/**
 * When a stream's next NAK is due: a random delay for newly found gaps, widened with the number of
 * receivers, a doubling retry interval while they stay unrepaired, and the repair-time
 * measurements that both follow (see {@link NakTiming}). Knows nothing of which sequences are
 * missing; the stream tells it what happened. Pure: time is passed in, randomness comes from a seeded source.
 *
 * <p>One deadline serves all gaps: a NAK lists every gap the stream has, so a new gap found while
 * a retry is armed is asked for together with the older ones, at whichever time comes first.
 *
 * <p>Repair time is measured Karn's way: only a datagram that the latest NAK, sent or heard, asked
 * for for the first time gives a sample, so a repair is never matched to the wrong NAK; a repair
 * that came after a retry gives only a lower bound, taken when it is above the estimate.
 */
final class NakScheduler {
    /** The deadline when no NAK is due: no gap, or the stream was dropped. */
    static final long NO_DEADLINE = Long.MAX_VALUE;
    private static final long NO_RETRY = Long.MIN_VALUE;

    private final NakTiming timing;
    private final RepairTimeEstimator estimator;
    private final SplittableRandom random;

    private long deadlineNs = NO_DEADLINE;
    private boolean firstNakPending;
    private int retries;
    private long askedUpTo = -1;
    private long lastNakHighest = -1;
    private boolean inRound;
    private long roundStartNs;
    private long roundWaitNs;
    private long roundJitterNs;
    private boolean sampling;
    private long sampleFrom;
    private long sampleTo;
    private long sampleSentNs;
    private boolean sampleHeard;
    private long retriedAtNs = NO_RETRY;

    /**
     * @param timing the bounds
     * @param random the source of the random delays, seeded by the caller
     */
    NakScheduler(NakTiming timing, SplittableRandom random) {
        this.timing = timing;
        this.estimator = new RepairTimeEstimator(timing.initialRepairEstimateNs(), timing.retryMaxNs());
        this.random = random;
    }

    /** When the next NAK is due, or {@link #NO_DEADLINE}. */
    long deadlineNs() {
        return deadlineNs;
    }

    /** Whether a NAK is due at {@code nowNs}. */
    boolean isDue(long nowNs) {
        return nowNs >= deadlineNs;
    }

    /** The current repair time estimate. */
    long repairEstimateNs() {
        return estimator.estimateNs();
    }

    /**
     * A gap was found: a NAK goes out after a random delay, unless one is due sooner. The delay
     * follows {@link NakTiming}: uniform in the random window when this receiver knows of no other,
     * and over a window widened by ln({@code groupSize}) with the later times more likely when it
     * does, so that of the receivers that found the same gap about one asks first and silences the
     * rest.
     *
     * @param groupSize how many receivers listen to the stream, this one included; at least 1
     */
    void onGapFound(long nowNs, int groupSize) {
        if (!firstNakPending) {
            firstNakPending = true;
            deadlineNs = Math.min(deadlineNs, nowNs + firstNakDelayNs(groupSize));
        }
    }

    /**
     * A random first-NAK delay. Alone: uniform in [0, window]. In a group of N: a truncated
     * exponential over [0, T], T = window x (1 + ln N), whose density rises N-fold from 0 to T; as
     * u runs uniformly over [0, 1), T x ln(1 + u (N - 1)) / ln N runs over that distribution. Few
     * of the N receivers draw an early time, and the earliest is heard by the rest before their
     * own times come; T never exceeds max(window, {@code retryMaxNs}).
     */
    private long firstNakDelayNs(int groupSize) {
        final long window = Math.max(timing.delayFloorNs(), estimator.estimateNs());
        if (groupSize <= 1) {
            return random.nextLong(window + 1);
        }
        final double logGroup = Math.log(groupSize);
        final double widened = Math.min(window * (1 + logGroup), Math.max(window, timing.retryMaxNs()));
        return (long) (widened * Math.log1p(random.nextDouble() * (groupSize - 1)) / logGroup);
    }

    /** A NAK asking for sequences up to {@code highestAsked} went out: wait for the repair, then retry. */
    void onNakSent(long highestAsked, long nowNs) {
        lastNakHighest = highestAsked;
        retriedAtNs = highestAsked <= askedUpTo ? nowNs : NO_RETRY;
        startSample(highestAsked, nowNs, false);
        startRound(nowNs, 0);
        deadlineNs = nowNs + roundWaitNs;
    }

    /** The network did not take the NAK: try again after a retry interval. */
    void onSendFailed(long nowNs) {
        startRound(nowNs, 0);
        deadlineNs = nowNs + roundWaitNs;
    }

    /**
     * Other receivers asked for everything this stream misses (up to {@code highestAsked}): act as
     * if this stream had asked, and wait before asking itself. The NAKs of one round (the first
     * NAKs for a loss, or one round of retries) count once, however many receivers sent them: the
     * back-off doubles only when a NAK comes a half round or more after the round began, that is
     * when the round went unanswered, so the whole group backs off from a publisher that does not
     * answer, while a receiver that only missed its own copy of the repair asks again after one
     * retry interval. The wait is the round's retry interval plus a random delay drawn as for a
     * first NAK in a group of {@code groupSize}: of the receivers waiting, about one asks first.
     */
    void onSuppressed(long highestAsked, long nowNs, int groupSize) {
        startSample(highestAsked, nowNs, true);
        firstNakPending = false;
        if (!inRound || nowNs - roundStartNs >= roundWaitNs / 2) {
            startRound(nowNs, firstNakDelayNs(groupSize));
        }
        deadlineNs = Math.max(deadlineNs, nowNs + roundWaitNs + roundJitterNs);
    }

    /**
     * A NAK asking for sequences up to {@code highestAsked} was sent, or heard from another receiver,
     * at {@code nowNs}: if it asks for some for the first time, their first repair times it. A
     * receiver whose NAKs the others mostly suppress learns the repair time from theirs: the NAK
     * took about as long to reach it as the repair takes to come back, so twice what it waits for
     * the repair after hearing the NAK stands for the whole. A repair read in the same round as the
     * NAK it answers (both waited in the sockets) tells nothing of the time and gives no sample.
     */
    private void startSample(long highestAsked, long nowNs, boolean heard) {
        sampling = highestAsked > askedUpTo;
        if (sampling) {
            sampleFrom = askedUpTo + 1;
            sampleTo = highestAsked;
            sampleSentNs = nowNs;
            sampleHeard = heard;
            askedUpTo = highestAsked;
        }
    }

    /** A round of NAKs began at {@code nowNs}: wait the next retry interval, and {@code jitterNs} more. */
    private void startRound(long nowNs, long jitterNs) {
        inRound = true;
        roundStartNs = nowNs;
        roundWaitNs = nextRetryIntervalNs();
        roundJitterNs = jitterNs;
    }

    /**
     * A datagram that was missing arrived; a retransmit is timed (see {@link #timeRepair}), and the
     * doubling starts over. While repairs keep arriving the retry waits: a long range comes back at
     * the publisher's pace, and asking again for what is still on its way only brings it twice. The
     * retry goes out after one retry interval without progress.
     */
    void onRepaired(long sequence, boolean retransmit, long nowNs) {
        if (retransmit) {
            timeRepair(sequence, nowNs);
        }
        startOver();
        if (deadlineNs != NO_DEADLINE && !firstNakPending) {
            deadlineNs = Math.max(deadlineNs, nowNs + retryIntervalNs());
        }
    }

    /**
     * Times a repair. One of what the latest NAK (sent or heard) asked for first is a sample (Karn's
     * rule: it answers that NAK and no other). The first one after this stream asked again (a NAK
     * with nothing new) answers the first NAK or a later one, which cannot be told; but however it
     * was, the repair took at least as long as it took after that retry, so that lower bound is a
     * sample when it is above the estimate, and nothing otherwise. Without it a receiver whose first
     * estimate is below the real repair time (a publisher short of CPU answers in milliseconds) would
     * ask again before every repair could come, and never measure one; with it, the estimate only
     * ever grows towards the truth from such repairs, so a receiver that loses repairs (its own
     * socket buffer overflowing) does not learn to wait longer for them.
     */
    private void timeRepair(long sequence, long nowNs) {
        if (sampling && sequence >= sampleFrom && sequence <= sampleTo) {
            if (!sampleHeard) {
                sample(nowNs - sampleSentNs);
            } else if (nowNs > sampleSentNs) {
                sample(2 * (nowNs - sampleSentNs));
            }
            sampling = false;
        } else if (retriedAtNs != NO_RETRY && sequence <= askedUpTo) {
            if (nowNs - retriedAtNs > estimator.estimateNs()) {
                sample(nowNs - retriedAtNs);
            }
            retriedAtNs = NO_RETRY;
        }
    }

    /**
     * The stream delivered everything below {@code expected} while more is missing. If that is all
     * this receiver's last NAK asked for (a NAK asks for at most
     * {@link org.nakcast.transport.protocol.NakFlyweight#MAX_DATAGRAMS_ASKED} datagrams), what is
     * missing beyond is asked for like a gap just found, after a first NAK's random delay, not after a
     * retry interval: the publisher answered in full, so there is nothing to wait for, and the
     * receivers of a group that got the same repair do not all ask at once.
     *
     * @param groupSize how many receivers listen to the stream, this one included; at least 1
     */
    void onDeliveredUpTo(long expected, long nowNs, int groupSize) {
        if (lastNakHighest >= 0 && expected > lastNakHighest && deadlineNs != NO_DEADLINE) {
            lastNakHighest = -1;
            firstNakPending = true;
            deadlineNs = Math.min(deadlineNs, nowNs + firstNakDelayNs(groupSize));
        }
    }

    /**
     * Feeds a repair time to the estimate, counting it for at most twice the retry interval in
     * force: a publisher that stalled once (a pause, a partition) cannot lift the estimate to the
     * cap with one repair and leave the receiver slow to ask for long after, while repairs that
     * really are slow still raise it by half or more with each sample until retries stop.
     */
    private void sample(long repairNs) {
        estimator.sample(Math.min(repairNs, 2 * retryIntervalNs()));
    }

    /** The stream moved past missing datagrams without them (they were unrecoverable): the back-off starts over. */
    void onSkipped() {
        sampling = false;
        startOver();
    }

    /** Nothing is missing any more: no NAK is due, the back-off starts over. */
    void cancel() {
        deadlineNs = NO_DEADLINE;
        lastNakHighest = -1;
        firstNakPending = false;
        sampling = false;
        retriedAtNs = NO_RETRY;
        startOver();
    }

    private void startOver() {
        retries = 0;
        inRound = false;
    }

    /**
     * The wait before a NAK is repeated, before any doubling: max({@code retryMinNs}, 2 x the
     * repair estimate, the estimate + 4 x its deviation). A NAK's repair that has not come after
     * this long is taken as lost; where repairs come late now and then (a busy host), the deviation
     * keeps a group from asking again for what is still on its way.
     */
    long retryIntervalNs() {
        final long estimate = estimator.estimateNs();
        return Math.max(timing.retryMinNs(), Math.max(2 * estimate, estimate + 4 * estimator.deviationNs()));
    }

    private long nextRetryIntervalNs() {
        firstNakPending = false;
        final long base = retryIntervalNs();
        final long cap = timing.retryMaxNs();
        final long interval = base > (cap >> retries) ? cap : base << retries;
        if (interval < cap) {
            retries++;
        }
        return interval;
    }
}
