package org.nakcast.transport;

/**
 * A publisher with flow control {@code min} stopped waiting for a receiver: no STATUS from it for
 * longer than the topic's {@code flow-control-timeout} ({@link Cause#SILENT}), or its position
 * unmoved that long while it was a full window behind what the publisher had sent, so that the
 * publisher could send nothing more ({@link Cause#STUCK}). The publisher goes on at the pace of the
 * others; the dropped receiver, if it is still there, repairs from history or meets its loss policy.
 *
 * @param topicId the topic
 * @param sessionId the publisher's session
 * @param receiverId the receiver dropped
 * @param cause silent or stuck
 * @param datagramsBehind how far its last STATUS was behind what the publisher had sent
 * @param forNs how long nothing had been heard from it (silent), or its position had not moved (stuck)
 * @param historyDatagrams how many datagrams the publisher's history holds
 */
public record ReceiverDropped(int topicId, int sessionId, int receiverId, Cause cause, long datagramsBehind,
    long forNs, int historyDatagrams) {

    /** Why a receiver was dropped. */
    public enum Cause {
        /** No STATUS from it for the timeout. */
        SILENT,
        /**
         * Its STATUS kept coming but its position did not move for the timeout while the publisher
         * waited for it; its address brings in no new receiver for a while (a stranger reporting
         * made-up receivers at a standstill holds the publisher for one timeout, not longer).
         */
        STUCK
    }

    /** The event in words, for logs and operators. */
    public String describe() {
        return ("topic %d, publisher session %d: receiver %08x dropped from flow control: %s %d ms, "
            + "%,d datagrams behind, history holds %,d").formatted(topicId, sessionId, receiverId,
            cause == Cause.SILENT ? "silent" : "stuck (heard, not moving)", forNs / 1_000_000, datagramsBehind,
            historyDatagrams);
    }
}
