package org.nakcast.transport.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.nakcast.transport.BytePublication;

/** Publishes messages that carry their number (0, 1, 2, ...) in their first 8 bytes. */
final class NumberedMessages {
    private NumberedMessages() {
    }

    /**
     * Offers {@code count} messages of {@code length} bytes, backing off while back-pressured or
     * while a flow-control {@code min} topic waits for its first receiver.
     */
    static void publish(BytePublication publication, long count, int length) {
        publishFrom(publication, 0, count, length);
    }

    /** Offers {@code count} messages numbered from {@code first}. */
    static void publishFrom(BytePublication publication, long first, long count, int length) {
        offerNumbered(publication, length, first, count, () -> false);
    }

    /**
     * Offers messages of {@code length} bytes, at least {@code minimum} of them and on while
     * {@code keepGoing} says so, backing off while back-pressured.
     *
     * @return how many were offered
     */
    static long publishWhile(BytePublication publication, int length, long minimum, BooleanSupplier keepGoing) {
        return offerNumbered(publication, length, 0, minimum, keepGoing);
    }

    private static long offerNumbered(
        BytePublication publication, int length, long first, long minimum, BooleanSupplier keepGoing) {
        final IdleStrategy backOff = new BackoffIdleStrategy();
        final UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(length));
        final LongSupplier offer = () -> publication.offer(message, 0, length);
        long number = first;
        for (; number < first + minimum || keepGoing.getAsBoolean(); number++) {
            message.putLong(0, number);
            assertThat(UntilTaken.offer(offer, backOff)).as("offer of message %d", number).isPositive();
        }
        return number - first;
    }
}
