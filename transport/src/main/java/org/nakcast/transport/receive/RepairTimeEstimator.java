package org.nakcast.transport.receive;

/**
 * A smoothed estimate of how long a repair takes: from sending a NAK to the arrival of the first
 * datagram it asked for. An exponentially weighted moving average with gain 1/8 (as TCP smooths its
 * round trip), and how far the samples stray from it; the first measurement replaces the configured
 * guess outright. Samples are clamped to [0, max], so one repair held up by a stalled publisher
 * cannot stretch the NAK timing past its cap.
 */
final class RepairTimeEstimator {
    private static final int GAIN_SHIFT = 3;

    private static final int DEVIATION_GAIN_SHIFT = 2;

    private final long maxNs;
    private long estimateNs;
    private long deviationNs;
    private boolean measured;

    /**
     * @param initialEstimateNs the estimate until the first sample
     * @param maxNs the largest sample taken as is
     */
    RepairTimeEstimator(long initialEstimateNs, long maxNs) {
        this.estimateNs = initialEstimateNs;
        this.maxNs = maxNs;
    }

    /** Adds one measured repair time. */
    void sample(long repairNs) {
        final long clamped = Math.max(0, Math.min(repairNs, maxNs));
        if (measured) {
            deviationNs += (Math.abs(clamped - estimateNs) - deviationNs) >> DEVIATION_GAIN_SHIFT;
            estimateNs += (clamped - estimateNs) >> GAIN_SHIFT;
        } else {
            estimateNs = clamped;
            deviationNs = clamped / 2;
            measured = true;
        }
    }

    /**
     * How far repair times stray from the estimate: a smoothed mean deviation with gain 1/4 (TCP's
     * RTTVAR), half the first sample at first, 0 before any.
     */
    long deviationNs() {
        return deviationNs;
    }

    /** The current estimate, in nanoseconds. */
    long estimateNs() {
        return estimateNs;
    }
}
