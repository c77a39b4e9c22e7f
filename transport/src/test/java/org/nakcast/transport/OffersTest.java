package org.nakcast.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import org.agrona.concurrent.IdleStrategy;
import org.junit.jupiter.api.Test;

/**
 * {@link Offers} waits while an attempt is back-pressured or not connected, and stops at the first
 * other answer: taken, a refusal for good (an exception naming it), or no receiver for longer than
 * the timeout (false).
 */
class OffersTest {
    private final CountingIdle idle = new CountingIdle();

    @Test
    void waitsOutBackPressureAndNoReceiverUntilTaken() {
        final LongSupplier attempt = answers(OfferResult.NOT_CONNECTED, OfferResult.BACK_PRESSURED,
            OfferResult.NOT_CONNECTED, 7);

        Offers.offer(attempt, idle);

        assertThat(idle.idles).as("one idle between attempts").isEqualTo(3);
        assertThat(idle.resets).as("reset once taken").isOne();
    }

    @Test
    void aRefusalForGoodIsAnExceptionThatNamesIt() {
        assertThatIllegalStateException()
            .isThrownBy(() -> Offers.offer(answers(OfferResult.BACK_PRESSURED, OfferResult.CLOSED), idle))
            .withMessage("offer refused: publication closed");
    }

    @Test
    void givesUpWhenNoReceiverCameWithinTheTimeout() {
        final long timeoutNs = TimeUnit.MILLISECONDS.toNanos(20);
        final long startNs = System.nanoTime();

        assertThat(Offers.offer(() -> OfferResult.NOT_CONNECTED, idle, timeoutNs)).isFalse();

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
