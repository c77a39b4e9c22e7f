package org.nakcast.transport;

/**
 * Where a delivered message came from: its topic, its publisher's session and its position in
 * that publisher's stream. One instance is reused for every message; read it during the call.
 */
public final class MessageHeader {
    /** The {@link #sequence()} of a message fetched from a recorder: no datagram of the stream brought it. */
    public static final long RECOVERED = -1;

    private int topicId;
    private int sessionId;
    private long messageIndex;
    private long sequence;

    /** An empty header; the receiving side fills one with {@link #set} before each delivery. */
    public MessageHeader() {
        // filled by set(..)
    }

    /**
     * Sets all fields; used by the receiving side before each delivery.
     *
     * @param sequence the datagram that completed the message
     * @return this
     */
    public MessageHeader set(int topicId, int sessionId, long messageIndex, long sequence) {
        this.topicId = topicId;
        this.sessionId = sessionId;
        this.messageIndex = messageIndex;
        this.sequence = sequence;
        return this;
    }

    /** The topic's numeric id. */
    public int topicId() {
        return topicId;
    }

    /** The publisher session the message came from. */
    public int sessionId() {
        return sessionId;
    }

    /** The message's index in its publisher's stream: 0 for the session's first message. */
    public long messageIndex() {
        return messageIndex;
    }

    /**
     * The sequence of the datagram that completed the message (its only one, unless it was
     * fragmented), or {@link #RECOVERED} for a message fetched from a recorder.
     */
    public long sequence() {
        return sequence;
    }
}
