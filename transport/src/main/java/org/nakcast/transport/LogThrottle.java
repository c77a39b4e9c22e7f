package org.nakcast.transport;

/**
 * How many lines of one kind a node writes to its log: at most {@code perSecond} a second; the
 * others are counted, and the next line written says how many were left out. A lossy network can
 * raise thousands of loss events a second, each counted and handed to the subscriptions; logging
 * each would slow the very receiving thread that is behind.
 */
final class LogThrottle {
    private static final long SECOND_NS = 1_000_000_000L;

    private final int perSecond;
    private long windowStartNs = Long.MIN_VALUE;
    private int written;
    private long leftOut;

    /** @param perSecond the most lines a second */
    LogThrottle(int perSecond) {
        this.perSecond = perSecond;
    }

    /**
     * Whether a line may be written at {@code nowNs}.
     *
     * @return -1 if not (it is counted as left out); otherwise how many lines were left out since the
     *     last one written (to say so)
     */
    long admit(long nowNs) {
        if (windowStartNs == Long.MIN_VALUE || nowNs - windowStartNs >= SECOND_NS) {
            windowStartNs = nowNs;
            written = 0;
        }
        if (written == perSecond) {
            leftOut++;
            return -1;
        }
        written++;
        final long before = leftOut;
        leftOut = 0;
        return before;
    }
}
