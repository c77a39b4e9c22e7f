package org.nakcast.transport.publish;

/**
 * A token bucket on bytes: at most {@code bytesPerSecond} on average, with bursts up to
 * {@code burstBytes}; time is passed in. A publisher stream has two: its send rate, which
 * everything it sends draws on (so repairs can never push it past its configured rate; a rate of
 * 0 means unpaced), and the bucket of its {@link RepairBudget}, which only RETRANSMIT and
 * UNRECOVERABLE draw on as well (so NAKs can never take more than that from new data).
 */
final class SendRateLimiter {
    private static final double NANOS_PER_SECOND = 1e9;

    private final long bytesPerSecond;
    private final long burstBytes;
    private long tokens;
    private long lastRefillNs;
    private boolean started;

    /**
     * @param bytesPerSecond average rate; 0 for no limit
     * @param burstBytes the most that may go out at once after an idle spell
     */
    SendRateLimiter(long bytesPerSecond, long burstBytes) {
        this.bytesPerSecond = bytesPerSecond;
        this.burstBytes = burstBytes;
        this.tokens = burstBytes;
    }

    /** A limiter that never limits. */
    static SendRateLimiter unpaced() {
        return new SendRateLimiter(0, 0);
    }

    /**
     * Takes {@code bytes} from the bucket if they are there.
     *
     * @return true if the send may go now
     */
    boolean tryAcquire(int bytes, long nowNs) {
        if (!hasRoomFor(bytes, nowNs)) {
            return false;
        }
        take(bytes);
        return true;
    }

    /**
     * Whether {@code bytes} are in the bucket now, taking nothing: for a send that must also pass
     * another limiter before it may go.
     */
    boolean hasRoomFor(int bytes, long nowNs) {
        if (bytesPerSecond == 0) {
            return true;
        }
        refill(nowNs);
        return tokens >= bytes;
    }

    /** Takes {@code bytes} that {@link #hasRoomFor} found in the bucket (and nothing took since). */
    void take(int bytes) {
        if (bytesPerSecond != 0) {
            tokens -= bytes;
        }
    }

    /** Adds {@code bytes} to the bucket besides what time earns, up to the burst. */
    void earn(long bytes) {
        tokens = Math.min(burstBytes, tokens + bytes);
    }

    private void refill(long nowNs) {
        if (!started) {
            started = true;
            lastRefillNs = nowNs;
            return;
        }
        final long elapsedNs = nowNs - lastRefillNs;
        if (elapsedNs <= 0) {
            return;
        }
        final long earned = (long) ((double) elapsedNs * bytesPerSecond / NANOS_PER_SECOND);
        if (earned > 0) {
            tokens = Math.min(burstBytes, tokens + earned);
            lastRefillNs = nowNs;
        }
    }
}
