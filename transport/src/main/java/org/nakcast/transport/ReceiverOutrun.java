package org.nakcast.transport;

/**
 * A receiver asked a publisher for datagrams its history no longer holds: the publisher answered
 * UNRECOVERABLE, and the receiver reports the loss to its application. The publisher's side of a
 * receiver that could not keep up, with the numbers.
 *
 * <p>A stream raises at most one a second: the requests that came meanwhile are folded into the
 * next one and counted in {@code suppressed}, so a receiver (or a stranger) asking again and again
 * cannot flood the log.
 *
 * @param topicId the topic
 * @param sessionId the publisher's session
 * @param receiverId the receiver that asked (the latest, when requests were folded)
 * @param fromSequence the first datagram it asked for that is gone
 * @param toSequence the last datagram gone (the one before the oldest held)
 * @param oldestHeld the oldest datagram the history still holds
 * @param newestSent the newest datagram sent
 * @param suppressed further requests for datagrams gone, from any receiver, since the stream's last
 *     event, that were not raised on their own
 */
public record ReceiverOutrun(int topicId, int sessionId, int receiverId, long fromSequence, long toSequence,
    long oldestHeld, long newestSent, long suppressed) {

    /** The event in words, for logs and operators. */
    public String describe() {
        final String text = ("topic %d, publisher session %d: receiver %08x asked for datagrams from %d, which history"
            + " no longer holds (it holds %d..%d): %,d datagrams lost to it").formatted(topicId, sessionId, receiverId,
            fromSequence, oldestHeld, newestSent, toSequence - fromSequence + 1);
        return suppressed == 0 ? text
            : text + " (and %,d more such requests since the last report)".formatted(suppressed);
    }
}
