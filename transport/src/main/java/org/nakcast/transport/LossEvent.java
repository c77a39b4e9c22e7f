package org.nakcast.transport;

/**
 * Messages of a stream that could not be recovered: the publisher no longer held them when this
 * receiver asked. Raised once per lost range; never a silent skip.
 *
 * @param topicId the topic
 * @param sessionId the publisher session
 * @param fromSequence first datagram sequence lost
 * @param toSequence last datagram sequence lost (inclusive)
 * @param lostMessages how many whole messages the range held, counting a message cut by the gap
 * @param streamDropped true if the topic's loss policy dropped the stream; false if delivery goes
 *     on after the gap
 */
public record LossEvent(
    int topicId, int sessionId, long fromSequence, long toSequence, long lostMessages, boolean streamDropped) {
    /**
     * The event in words, for logs and operators, e.g. {@code topic 1, publisher session 77:
     * 35 messages lost in datagrams 10..44; delivery goes on after the gap (loss policy continue)}.
     */
    public String describe() {
        return "topic %d, publisher session %d: %d messages lost in datagrams %d..%d; %s".formatted(
            topicId, sessionId, lostMessages, fromSequence, toSequence,
            streamDropped
                ? "stream dropped, no more messages from it (loss policy drop)"
                : "delivery goes on after the gap (loss policy continue)");
    }
}
