package org.nakcast.transport.system;

import java.util.ArrayList;
import java.util.List;

import org.agrona.DirectBuffer;
import org.nakcast.transport.MessageHandler;
import org.nakcast.transport.MessageHeader;

/**
 * Checks that the messages of one publisher arrive exactly once and in order: each message
 * starts with its number, 0, 1, 2, ...
 */
final class SequenceChecker implements MessageHandler {
    private final List<String> errors = new ArrayList<>();
    private volatile long count;
    private long expected;

    @Override
    public void onMessage(DirectBuffer buffer, int offset, int length, MessageHeader header) {
        final long number = buffer.getLong(offset);
        if (number != expected && errors.size() < 10) {
            errors.add("expected message " + expected + " but got " + number);
        }
        if (header.messageIndex() != number && errors.size() < 10) {
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

    void awaitCount(long target, long timeoutMillis) throws InterruptedException {
        final long deadline = System.currentTimeMillis() + timeoutMillis;
        while (count < target && System.currentTimeMillis() < deadline) {
            Thread.sleep(5);
        }
    }
}
