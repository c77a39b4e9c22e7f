package org.nakcast.transport;

import java.util.List;

/**
 * Messages of a stream that one subscription will never get, and why. Raised once per lost run,
 * in order with the messages around it; never a silent skip. The messages given up are exactly
 * those numbered {@code firstMessage} to {@code firstMessage + lostMessages - 1}.
 *
 * @param topicId the topic
 * @param sessionId the publisher session
 * @param fromSequence first datagram sequence of the loss
 * @param toSequence last datagram sequence of the loss (inclusive)
 * @param firstMessage the index of the first message lost (the next one delivered, if any, is
 *     {@code firstMessage + lostMessages})
 * @param lostMessages how many whole messages were lost, counting a message cut by the gap; 0 when no
 *     message owed was: the stream knew no message index yet (a late start whose first datagrams its
 *     publisher no longer held), or every message of the range came before the one a stream resumed
 *     at wants ({@link Node#resumeAt}); {@code firstMessage} is then the next one delivered
 * @param cause why they were lost
 * @param streamDropped true if the topic's loss policy dropped the stream; false if delivery goes
 *     on after the gap
 * @param recordersAsked for messages the publisher no longer held on a topic with recorders: each
 *     recorder asked for them, with its answer (e.g. {@code 10.0.0.7:40480: messages 5..9 not
 *     recorded, sent while the recorder was down}); empty when no recorder was asked
 */
public record LossEvent(int topicId, int sessionId, long fromSequence, long toSequence, long firstMessage,
    long lostMessages, Cause cause, boolean streamDropped, List<String> recordersAsked) {

    /** Copies the recorders' answers. */
    public LossEvent {
        recordersAsked = List.copyOf(recordersAsked);
    }

    /** A loss no recorder was asked about. */
    public LossEvent(int topicId, int sessionId, long fromSequence, long toSequence, long firstMessage,
        long lostMessages, Cause cause, boolean streamDropped) {
        this(topicId, sessionId, fromSequence, toSequence, firstMessage, lostMessages, cause, streamDropped,
            List.of());
    }

    /** Why messages were lost. */
    public enum Cause {
        /** The publisher no longer held the datagrams when this receiver asked for them (or was gone). */
        UNRECOVERABLE("its publisher no longer holds them"),
        /** A message longer than the largest this receiver reassembles. */
        MESSAGE_TOO_LARGE("longer than the largest message this receiver takes"),
        /** A message cut short by the start of another: its publisher broke the fragment rules. */
        CUT_SHORT("cut short by the next message's first fragment"),
        /**
         * A queued subscription's poller took nothing from its full queue for the topic's
         * {@code delivery-queue-timeout}: it lost what arrived until it caught up, and the other
         * subscriptions went on.
         */
        SUBSCRIPTION_OVERRUN("this subscription's queue stayed full (delivery-queue-timeout)");

        private final String reason;

        Cause(String reason) {
            this.reason = reason;
        }

        /** The cause in words. */
        public String reason() {
            return reason;
        }
    }

    /**
     * The event in words, for logs and operators, e.g. {@code topic 1, publisher session 77:
     * 35 messages (10,002..10,036) lost in datagrams 10..44, its publisher no longer holds them;
     * delivery goes on after the gap (loss policy continue)}.
     */
    public String describe() {
        final String which = lostMessages == 0 ? ""
            : lostMessages == 1 ? " (%,d)".formatted(firstMessage)
            : " (%,d..%,d)".formatted(firstMessage, firstMessage + lostMessages - 1);
        return "topic %d, publisher session %d: %d messages%s lost in datagrams %d..%d, %s%s; %s".formatted(
            topicId, sessionId, lostMessages, which, fromSequence, toSequence, cause.reason(),
            recordersAsked.isEmpty() ? "" : ", nor did a recorder (" + String.join("; ", recordersAsked) + ")",
            streamDropped
                ? "stream dropped, no more messages from it (loss policy drop)"
                : "delivery goes on after the gap (loss policy continue)");
    }
}
