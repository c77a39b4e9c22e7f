package org.nakcast.transport.publish;

/**
 * A token bucket on bytes: at most {@code bytesPerSecond} on average, with bursts up to
 * {@code burstBytes}. New data and retransmits draw from the same bucket, so repairs can never
 * push a publisher past its configured rate. A rate of 0 means unpaced.
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
        if (bytesPerSecond == 0) {
            return true;
        }
        refill(nowNs);
        if (tokens < bytes) {
            return false;
        }
        tokens -= bytes;
        return true;
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
