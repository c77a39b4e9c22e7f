package org.nakcast.transport.system;

import org.agrona.DirectBuffer;
import org.nakcast.transport.MessageHandler;
import org.nakcast.transport.MessageHeader;

/**
 * For a subscriber that joins a numbered stream late: records the first number it sees and checks
 * that every later message follows the one before, with the matching message index.
 */
final class FromFirstSeen implements MessageHandler<DirectBuffer> {
    private volatile long first = -1;
    private volatile long last = -1;
    private volatile long count;
    private volatile long errors;

    @Override
    public void onMessage(DirectBuffer message, MessageHeader header) {
        final long number = message.getLong(0);
        if (first < 0) {
            first = number;
        } else if (number != last + 1 || header.messageIndex() != number) {
            errors++;
        }
        last = number;
        count++;
    }

    long first() {
        return first;
    }

    long last() {
        return last;
    }

    long count() {
        return count;
    }

    long errors() {
        return errors;
    }

    /** Waits until message {@code number} arrived, or 20 seconds passed. */
    void awaitLast(long number) throws InterruptedException {
        final long deadlineMs = System.currentTimeMillis() + 20_000;
        while (last < number && System.currentTimeMillis() < deadlineMs) {
            Thread.sleep(5);
        }
    }
}
