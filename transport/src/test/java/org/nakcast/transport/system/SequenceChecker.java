package org.nakcast.transport.system;

import java.util.ArrayList;
import java.util.List;

import org.agrona.DirectBuffer;
import org.nakcast.transport.MessageHandler;
import org.nakcast.transport.MessageHeader;

/**
 * Checks that the messages of one publisher arrive exactly once and in order: each message
 * starts with its number, 0, 1, 2, ... A message that comes again or out of order is an error;
 * numbers jumped over are kept as skipped ranges, so a test can compare them with loss events.
 */
final class SequenceChecker implements MessageHandler<DirectBuffer> {
    private static final int MAX_RECORDED = 10;

    private final List<String> errors = new ArrayList<>();
    private final List<long[]> skipped = new ArrayList<>();
    private volatile long count;
    private long expected;

    @Override
    public synchronized void onMessage(DirectBuffer message, MessageHeader header) {
        final long number = message.getLong(0);
        if (number < expected && errors.size() < MAX_RECORDED) {
            errors.add("expected message " + expected + " but got " + number + " again or out of order");
        }
        if (number > expected && skipped.size() < MAX_RECORDED) {
            skipped.add(new long[] {expected, number - 1});
        }
        if (header.messageIndex() != number && errors.size() < MAX_RECORDED) {
            errors.add("message " + number + " came with index " + header.messageIndex());
        }
        expected = number + 1;
        count = count + 1;
    }

    long count() {
        return count;
    }

    synchronized List<String> errors() {
        return new ArrayList<>(errors);
    }

    /** The inclusive ranges of message numbers jumped over, oldest first. */
    synchronized List<long[]> skippedRanges() {
        return new ArrayList<>(skipped);
    }

    /** Waits until {@code target} messages arrived or the deadline (epoch milliseconds) passed. */
    void awaitCount(long target, long deadlineMs) throws InterruptedException {
        while (count < target && System.currentTimeMillis() < deadlineMs) {
            Thread.sleep(5);
        }
    }
}
