package org.nakcast.transport;

/**
 * A publisher with flow control {@code min} stopped waiting for a receiver: no STATUS from it for
 * longer than the topic's {@code flow-control-timeout}. The publisher goes on at the pace of the
 * others; the dropped receiver, if it is still there, repairs from history or meets its loss policy.
 *
 * @param topicId the topic
 * @param sessionId the publisher's session
 * @param receiverId the receiver dropped
 * @param datagramsBehind how far its last STATUS was behind what the publisher had sent
 * @param silentNs how long nothing had been heard from it
 * @param historyDatagrams how many datagrams the publisher's history holds
 */
public record ReceiverDropped(
    int topicId, int sessionId, int receiverId, long datagramsBehind, long silentNs, int historyDatagrams) {

    /** The event in words, for logs and operators. */
    public String describe() {
        return ("topic %d, publisher session %d: receiver %08x dropped from flow control: silent %d ms, "
            + "%,d datagrams behind, history holds %,d").formatted(
            topicId, sessionId, receiverId, silentNs / 1_000_000, datagramsBehind, historyDatagrams);
    }
}
