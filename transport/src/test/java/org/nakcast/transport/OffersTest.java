package org.nakcast.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import org.agrona.concurrent.IdleStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link Offers} waits while an attempt is back-pressured or not connected, and stops at the first
 * other answer (taken, or a refusal for good), or at the timeout with the limit it hit.
 */
class OffersTest {
    private final CountingIdle idle = new CountingIdle();

    @Test
    void waitsOutBackPressureAndNoReceiverUntilTaken() {
        final LongSupplier attempt = answers(OfferResult.NOT_CONNECTED, OfferResult.BACK_PRESSURED,
            OfferResult.NOT_CONNECTED, 7);

        assertThat(Offers.offer(attempt, idle)).isEqualTo(7);

        assertThat(idle.idles).as("one idle between attempts").isEqualTo(3);
        assertThat(idle.resets).as("reset once taken").isOne();
    }

    @Test
    void takenAtOnceNeitherIdlesNorResets() {
        assertThat(Offers.offer(answers(3), idle, 0)).isEqualTo(3);

        assertThat(idle.idles).isZero();
        assertThat(idle.resets).isZero();
    }

    @Test
    void aRefusalForGoodEndsTheWaitAndIsReturned() {
        assertThat(Offers.offer(answers(OfferResult.BACK_PRESSURED, OfferResult.CLOSED), idle))
            .isEqualTo(OfferResult.CLOSED);
        assertThat(Offers.offer(answers(OfferResult.UNENCODABLE), idle)).isEqualTo(OfferResult.UNENCODABLE);
    }

    @ParameterizedTest
    @ValueSource(longs = {OfferResult.NOT_CONNECTED, OfferResult.BACK_PRESSURED})
    void atTheTimeoutItReturnsTheLimitItHit(long limit) {
        final long timeoutNs = TimeUnit.MILLISECONDS.toNanos(20);
        final long startNs = System.nanoTime();

        assertThat(Offers.offer(() -> limit, idle, timeoutNs)).isEqualTo(limit);

        assertThat(System.nanoTime() - startNs).isGreaterThan(timeoutNs);
        assertThat(idle.resets).isOne();
    }

    private static LongSupplier answers(long... results) {
        final Queue<Long> queue = new ArrayDeque<>();
        for (long result : results) {
            queue.add(result);
        }
        return () -> {
            assertThat(queue).as("attempts made after the last answer").isNotEmpty();
            return queue.remove();
        };
    }

    /** Counts what {@link Offers} asks of its idle strategy; idles without waiting. */
    private static final class CountingIdle implements IdleStrategy {
        int idles;
        int resets;

        @Override
        public void idle(int workCount) {
            idles++;
        }

        @Override
        public void idle() {
            idles++;
        }

        @Override
        public void reset() {
            resets++;
        }
    }
}
