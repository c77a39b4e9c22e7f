package org.nakcast.transport.publish;

import org.nakcast.transport.media.DatagramSource;

/**
 * What a publisher stream may spend on repairs (RETRANSMIT and UNRECOVERABLE): a token bucket
 * refilled at the repair rate and, for a stream that is not paced, by a share of every byte of new
 * data it sends, so the budget keeps pace with a stream faster than the rate alone covers
 * (loopback, 10 GbE). Repairs draw on it on top of the send rate that everything shares, and wait
 * when it is spent while new data goes on: NAKs, however many and whoever sends them, take no more
 * than the budget.
 *
 * <pre>
 *   time     --- repair rate ---------+
 *                                     +--> bucket (at most the burst) --> RETRANSMIT, UNRECOVERABLE
 *   new data --- percent of its bytes +
 * </pre>
 *
 * <p>With half the bytes of new data (what a node gives an unpaced stream), repairs take at most a
 * third of what the stream sends beyond the repair rate.
 *
 * <p>What NAKs may queue is bounded per source too: each host's {@link RepairShares share} is half
 * of this budget while repairs are short, so one host (a receiver far behind, or a stranger asking
 * for the whole history again and again) never takes the repairs the others ask for. Time is
 * passed in; not thread-safe.
 */
final class RepairBudget {
    private static final int PERCENT = 100;

    private final SendRateLimiter bucket;
    private final int percentOfData;
    private final RepairShares shares;

    /**
     * @param bytesPerSecond what time earns; more than 0
     * @param burstBytes the most the bucket holds: the largest burst of repairs
     * @param percentOfData what each byte of new data sent earns, in percent; 0 for nothing
     */
    RepairBudget(long bytesPerSecond, long burstBytes, int percentOfData) {
        this.bucket = new SendRateLimiter(bytesPerSecond, burstBytes);
        this.percentOfData = percentOfData;
        this.shares = new RepairShares(bytesPerSecond, burstBytes, percentOfData);
    }

    /**
     * Takes from {@code source}'s share what queueing {@code count} repairs of {@code bytesEach}
     * costs, or, while repairs are short, as many of them as the share still pays for; what is sent
     * is taken from the budget itself when it goes ({@link #take}).
     *
     * @param repairsWait whether repairs already wait in the stream's queue
     * @return how many of the {@code count} repairs may be queued, from 0 to {@code count}
     */
    long shareFor(DatagramSource source, long count, int bytesEach, boolean repairsWait, long nowNs) {
        return shares.take(source, count, bytesEach, repairsWait, nowNs);
    }

    /** Whether a repair of {@code bytes} may go now, taking nothing. */
    boolean hasRoomFor(int bytes, long nowNs) {
        return bucket.hasRoomFor(bytes, nowNs);
    }

    /** Takes what a repair sent; {@link #hasRoomFor} found it there. */
    void take(int bytes) {
        bucket.take(bytes);
    }

    /** New data of {@code bytes} went out: it earns its share. */
    void onDataSent(int bytes) {
        shares.onDataSent(bytes);
        if (percentOfData > 0) {
            bucket.earn((long) bytes * percentOfData / PERCENT);
        }
    }
}
