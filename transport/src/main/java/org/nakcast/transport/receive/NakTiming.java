package org.nakcast.transport.receive;

/**
 * When a receiver sends its NAKs. The timing follows a measured estimate of the repair time (from
 * sending a NAK to the arrival of the first datagram it asked for), so that on a LAN a gap is
 * repaired within tens of microseconds; the bounds here only keep that estimate in a sane range.
 *
 * <p>A fixed delay is the trap to avoid: with a 10 ms NAK back-off, every loss stalls delivery for
 * 10 ms behind the gap, which cost Aeron 87% of its multicast throughput at 1% loss on our
 * machines. Every bound below is therefore in microseconds, and only the cap is in milliseconds.
 * On a LAN the estimate stays near the round trip; the cap matters only where repairs really are
 * slow (a publisher's host short of CPU), and there the estimate must be free to follow them.
 *
 * <ul>
 *   <li>The first NAK for a newly found gap waits a random delay in a window
 *       W = max({@code delayFloorNs}, estimate). The randomness spreads the receivers that lost
 *       the same datagram, so the first NAK on the group silences the rest (suppression); W must
 *       be at least the time a NAK takes to reach the other receivers, which is about half a
 *       repair time. A receiver that knows of no other draws uniformly in [0, W]. In a group of N
 *       receivers (as heard on the control port, see {@link GroupSizeEstimator}) uniform delays
 *       would let about N/2 x (NAK transit / W) of them ask before the first NAK is heard, so, as
 *       NORM does, the window widens to W x (1 + ln N), capped at max(W, {@code retryMaxNs}), and
 *       the delay follows a truncated exponential whose density rises N-fold across it: about one
 *       receiver draws an early time, whatever N.</li>
 *   <li>A NAK not answered is repeated after max({@code retryMinNs}, 2 x estimate, estimate + 4 x
 *       its mean deviation), doubling on each repeat up to {@code retryMaxNs}. NAKs heard from
 *       other receivers for everything this one misses postpone its NAK by that interval plus a
 *       random group delay; they double it only once per round that went unanswered, not once
 *       per NAK heard.</li>
 *   <li>The estimate is measured Karn's way: a repair of what the latest NAK asked for first is
 *       a sample, from sending it, or twice the wait from hearing another receiver's (the NAK took
 *       about as long to arrive as the repair takes to come back), so a receiver whose NAKs the
 *       others suppress measures too. A repair that came after a retry answers no NAK that can be
 *       told apart, but took at least as long as it took after the retry: that lower bound is a
 *       sample when it is above the estimate. Without it a receiver whose first guess is below the
 *       real repair time would ask again before every repair could come, and never measure one;
 *       since it only ever raises the estimate towards the truth, a receiver whose repairs are lost
 *       (its socket buffer overflowing) does not learn to wait longer. A sample counts for at
 *       most twice the retry interval in force, so one stalled repair cannot lift the estimate to
 *       the cap at once. Any repair starts the doubling over.</li>
 * </ul>
 *
 * @param delayFloorNs the smallest random window for a first NAK; default 20 us: the order of
 *     a NAK's one-way trip on a LAN, so suppression still works before anything was measured
 * @param initialRepairEstimateNs the repair time assumed before the first measurement; default
 *     50 us, a LAN round trip with a publisher that answers at once. The first measurement
 *     replaces it
 * @param retryMinNs the shortest wait before a NAK is repeated; default 100 us: long enough for a
 *     busy publisher to answer, short enough that a lost NAK costs little
 * @param retryMaxNs the longest wait before a NAK is repeated, and the largest repair time the
 *     estimate may take; default 50 ms: above what a publisher whose host is short of CPU takes to
 *     answer (5 to 50 ms measured, 17 processes on two cores), so the group waits for repairs on
 *     their way instead of asking again for each; it bounds the stall after a lost repair and the
 *     NAK rate a stalled publisher sees from one receiver (20 per second per stream)
 */
public record NakTiming(long delayFloorNs, long initialRepairEstimateNs, long retryMinNs, long retryMaxNs) {
    /** The default timing; see the parameters for why. */
    public static final NakTiming DEFAULTS = new NakTiming(20_000, 50_000, 100_000, 50_000_000);

    /** Checks the bounds. */
    public NakTiming {
        requireNonNegative("delayFloorNs", delayFloorNs);
        requireNonNegative("initialRepairEstimateNs", initialRepairEstimateNs);
        if (retryMinNs <= 0) {
            throw new IllegalArgumentException("retryMinNs must be positive: " + retryMinNs);
        }
        if (retryMaxNs < retryMinNs) {
            throw new IllegalArgumentException(
                "retryMaxNs (" + retryMaxNs + ") must not be below retryMinNs (" + retryMinNs + ")");
        }
        if (initialRepairEstimateNs > retryMaxNs) {
            throw new IllegalArgumentException("initialRepairEstimateNs (" + initialRepairEstimateNs
                + ") must not be above retryMaxNs (" + retryMaxNs + ")");
        }
    }

    private static void requireNonNegative(String name, long value) {
        if (value < 0) {
            throw new IllegalArgumentException(name + " must not be negative: " + value);
        }
    }
}
