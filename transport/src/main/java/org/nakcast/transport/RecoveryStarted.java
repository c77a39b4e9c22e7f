package org.nakcast.transport;

/**
 * Messages of a publisher stream its publisher no longer holds are being fetched from the topic's
 * recorders: they are delivered in order as they come, and the live messages after them wait (held,
 * within the reorder window) until they have. No event follows a recovery that gets them all; what
 * no recorder holds is a {@link LossEvent} naming each recorder's answer.
 *
 * @param topicId the topic
 * @param sessionId the publisher session
 * @param fromSequence the first datagram its publisher no longer held
 * @param toSequence the last one
 * @param firstMessage the first message fetched
 * @param lastMessage the last message fetched (inclusive)
 */
public record RecoveryStarted(int topicId, int sessionId, long fromSequence, long toSequence, long firstMessage,
    long lastMessage) {

    /** The event in words, for logs and operators. */
    public String describe() {
        return ("topic %d, publisher session %d: %,d messages (%,d..%,d) in datagrams %d..%d, which its publisher no"
            + " longer holds, are fetched from the topic's recorders; live messages wait for them").formatted(
            topicId, sessionId, lastMessage - firstMessage + 1, firstMessage, lastMessage, fromSequence, toSequence);
    }
}
