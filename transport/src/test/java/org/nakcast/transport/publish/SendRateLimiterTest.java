package org.nakcast.transport.publish;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SendRateLimiterTest {

    @Test
    void unpacedNeverRefuses() {
        final SendRateLimiter limiter = SendRateLimiter.unpaced();

        for (int i = 0; i < 1_000; i++) {
            assertThat(limiter.tryAcquire(65_000, 0)).isTrue();
        }
    }

    @Test
    void allowsABurstThenTheAverageRate() {
        final SendRateLimiter limiter = new SendRateLimiter(1_000_000, 10_000);
        long nowNs = 5_000_000_000L;

        int burst = 0;
        while (limiter.tryAcquire(1_000, nowNs)) {
            burst++;
        }
        assertThat(burst).isEqualTo(10);

        int sentInOneSecond = 0;
        for (int step = 0; step < 1_000; step++) {
            nowNs += 1_000_000;
            while (limiter.tryAcquire(1_000, nowNs)) {
                sentInOneSecond++;
            }
        }
        assertThat(sentInOneSecond).isBetween(990, 1_000);
    }

    @Test
    void idleTimeEarnsNoMoreThanTheBurst() {
        final SendRateLimiter limiter = new SendRateLimiter(1_000_000, 4_000);
        assertThat(limiter.tryAcquire(4_000, 0)).isTrue();

        final long muchLater = 3_600_000_000_000L;
        assertThat(limiter.tryAcquire(4_000, muchLater)).isTrue();
        assertThat(limiter.tryAcquire(1, muchLater)).isFalse();
    }

    @Test
    void hasRoomForTakesNothingUntilTakeDoes() {
        final SendRateLimiter limiter = new SendRateLimiter(1_000, 2_000);

        assertThat(limiter.hasRoomFor(2_000, 0)).isTrue();
        assertThat(limiter.hasRoomFor(2_000, 0)).isTrue();
        limiter.take(1_500);
        assertThat(limiter.hasRoomFor(501, 0)).isFalse();
        assertThat(limiter.tryAcquire(500, 0)).isTrue();
        assertThat(limiter.hasRoomFor(1_000, 1_000_000_000L)).isTrue();
        assertThat(limiter.hasRoomFor(1_001, 1_000_000_000L)).isFalse();
    }
}
