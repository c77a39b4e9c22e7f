package org.nakcast.transport.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.nakcast.transport.RawPublication;

/** Publishes messages that carry their number (0, 1, 2, ...) in their first 8 bytes. */
final class NumberedMessages {
    private NumberedMessages() {
    }

    /** Offers {@code count} messages of {@code length} bytes, backing off while back-pressured. */
    static void publish(RawPublication publication, long count, int length) {
        publishFrom(publication, 0, count, length);
    }

    /** Offers {@code count} messages numbered from {@code first}. */
    static void publishFrom(RawPublication publication, long first, long count, int length) {
        final IdleStrategy backOff = new BackoffIdleStrategy();
        final UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(length));
        for (long number = first; number < first + count; number++) {
            message.putLong(0, number);
            long result;
            while ((result = publication.offer(message, 0, length)) == RawPublication.BACK_PRESSURED) {
                backOff.idle();
            }
            backOff.reset();
            assertThat(result).as("offer of message %d", number).isEqualTo(RawPublication.OK);
        }
    }
}
