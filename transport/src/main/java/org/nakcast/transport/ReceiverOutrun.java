package org.nakcast.transport;

/**
 * A receiver asked a publisher for datagrams its history no longer holds: the publisher answered
 * UNRECOVERABLE, and the receiver reports the loss to its application. The publisher's side of a
 * receiver that could not keep up, with the numbers.
 *
 * @param topicId the topic
 * @param sessionId the publisher's session
 * @param receiverId the receiver that asked
 * @param fromSequence the first datagram it asked for that is gone
 * @param toSequence the last datagram gone (the one before the oldest held)
 * @param oldestHeld the oldest datagram the history still holds
 * @param newestSent the newest datagram sent
 */
public record ReceiverOutrun(
    int topicId, int sessionId, int receiverId, long fromSequence, long toSequence, long oldestHeld, long newestSent) {

    /** The event in words, for logs and operators. */
    public String describe() {
        return ("topic %d, publisher session %d: receiver %08x asked for datagrams from %d, which history no longer "
            + "holds (it holds %d..%d): %,d datagrams lost to it").formatted(topicId, sessionId, receiverId,
            fromSequence, oldestHeld, newestSent, toSequence - fromSequence + 1);
    }
}
