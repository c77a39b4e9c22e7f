package org.nakcast.transport.status;

import org.agrona.collections.IntIntConsumer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;
import org.agrona.concurrent.status.CountersReader;

/**
 * Hands out the counters of single streams (a publisher's position, a receiver's position and lag,
 * and for a stream heard on two lines each line's {@link LineCounter}s and the gaps both lines missed)
 * from the node's counters file, and takes them back when a stream ends, so that a node whose
 * publishers come and go for weeks does not fill the file. The sending and receiving threads both
 * allocate; this class serialises them. Allocation builds a label, so it happens when a stream
 * starts or ends, never per datagram.
 *
 * <p>Each counter's key identifies its stream, so a reader can group them without parsing labels:
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                           topic id                            |
 *  +---------------------------------------------------------------+
 *  |                       publisher session id                    |
 *  +---------------------------------------------------------------+
 *  |             line index (0 or 1; line counters only)           |
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * <p>When the file has no room left, a stream gets a counter that lives only in the node's memory
 * (its value is right, but no other process sees it), and {@link SystemCounter#STREAM_COUNTERS_UNAVAILABLE}
 * says how often that happened.
 */
public final class StreamCounters {
    /** Offset of the topic id in a stream counter's key. */
    public static final int KEY_TOPIC_ID_OFFSET = 0;
    /** Offset of the session id in a stream counter's key. */
    public static final int KEY_SESSION_ID_OFFSET = 4;
    /** Offset of the line's index (0 for the topic's first transport) in a line counter's key. */
    public static final int KEY_LINE_OFFSET = 8;
    /** What a line counter's label starts with, before the line's name. */
    private static final String LINE_START = "line ";
    /** What the label of the gaps both lines missed says before the stream. */
    public static final String GAPS_BOTH_LINES_MISSED_LABEL = "gaps both lines missed";

    /** What comes between what a stream counter counts and its topic's name in its label. */
    private static final String TOPIC_NAME_START = ": topic '";

    private final CountersManager manager;
    private final AtomicCounter unavailable;

    /**
     * @param manager the node's counters, shared with the system counters
     * @param unavailable counts the streams whose counter the file had no room for
     */
    public StreamCounters(CountersManager manager, AtomicCounter unavailable) {
        this.manager = manager;
        this.unavailable = unavailable;
    }

    /** A new publisher position counter for the stream of {@code sessionId} on a topic. */
    public AtomicCounter publisherPosition(String topicName, int topicId, int sessionId) {
        return allocate(CounterTypeIds.PUBLISHER_POSITION, "publisher position", topicName, topicId, sessionId, 0);
    }

    /** A new receiver position counter for the stream of {@code sessionId} on a topic. */
    public AtomicCounter receiverPosition(String topicName, int topicId, int sessionId) {
        return allocate(CounterTypeIds.RECEIVER_POSITION, "receiver position", topicName, topicId, sessionId, 0);
    }

    /** A new receiver lag counter (datagrams) for the stream of {@code sessionId} on a topic. */
    public AtomicCounter receiverLag(String topicName, int topicId, int sessionId) {
        return allocate(CounterTypeIds.RECEIVER_LAG, "receiver lag (datagrams)", topicName, topicId, sessionId, 0);
    }

    /**
     * A new counter of {@code kind} for line {@code line} (its index, 0 or 1) named {@code lineName} of
     * the stream of {@code sessionId} on a topic heard on two lines.
     */
    public AtomicCounter line(LineCounter kind, String lineName, int line, String topicName, int topicId,
        int sessionId) {
        return allocate(kind.typeId(), LINE_START + lineName + " " + kind.label(), topicName, topicId, sessionId,
            line);
    }

    /** A new counter of the gaps both lines missed, for the stream of {@code sessionId} on a topic on two lines. */
    public AtomicCounter gapsBothLinesMissed(String topicName, int topicId, int sessionId) {
        return allocate(CounterTypeIds.GAPS_BOTH_LINES_MISSED, GAPS_BOTH_LINES_MISSED_LABEL, topicName, topicId,
            sessionId, 0);
    }

    /**
     * Calls {@code stream} with the topic id and session id of every stream this node receives now,
     * as its receiver position counters in the file show them (a stream the file had no room for is
     * not among them).
     */
    public synchronized void forEachReceivingStream(IntIntConsumer stream) {
        manager.forEach((counterId, typeId, key, label) -> {
            if (typeId == CounterTypeIds.RECEIVER_POSITION) {
                stream.accept(key.getInt(KEY_TOPIC_ID_OFFSET), key.getInt(KEY_SESSION_ID_OFFSET));
            }
        });
    }

    /** Gives a counter back when its stream ends; its slot goes to the next stream. */
    public synchronized void free(AtomicCounter counter) {
        counter.close();
    }

    private synchronized AtomicCounter allocate(int typeId, String what, String topicName, int topicId, int sessionId,
        int line) {
        if (manager.available() > 0) {
            try {
                return manager.newCounter(label(what, topicName, topicId, sessionId), typeId, key -> {
                    key.putInt(KEY_TOPIC_ID_OFFSET, topicId);
                    key.putInt(KEY_SESSION_ID_OFFSET, sessionId);
                    key.putInt(KEY_LINE_OFFSET, line);
                });
            } catch (IllegalStateException full) {
                // the metadata ran out before the values: same outcome as no counter available
            }
        }
        unavailable.increment();
        return new AtomicCounter(new UnsafeBuffer(new byte[CountersReader.COUNTER_LENGTH]), 0);
    }

    /** The label a reading tool prints, e.g. {@code receiver position: topic 'prices' (1), session 42}. */
    static String label(String what, String topicName, int topicId, int sessionId) {
        return what + TOPIC_NAME_START + topicName + topicNameEnd(topicId, sessionId);
    }

    /**
     * The topic's name, read back from the label of a stream counter whose key holds {@code topicId}
     * and {@code sessionId}: the key has the topic's id only, the label its name too.
     *
     * @return the name, or null if the label does not have this class's form for that stream (a label
     *     cut short because the name was too long for a counter label, or a counter of another kind)
     */
    public static String topicName(String label, int topicId, int sessionId) {
        final int start = label.indexOf(TOPIC_NAME_START);
        final String end = topicNameEnd(topicId, sessionId);
        if (start < 0 || !label.endsWith(end) || label.length() - end.length() < start + TOPIC_NAME_START.length()) {
            return null;
        }
        return label.substring(start + TOPIC_NAME_START.length(), label.length() - end.length());
    }

    /**
     * The line's name, read back from the label of a line counter of {@code kind}.
     *
     * @return the name, or null if the label is not of that form (cut short, or a counter of another kind)
     */
    public static String lineName(String label, LineCounter kind) {
        final int end = label.indexOf(" " + kind.label() + TOPIC_NAME_START, LINE_START.length());
        return label.startsWith(LINE_START) && end > LINE_START.length() ? label.substring(LINE_START.length(), end)
            : null;
    }

    private static String topicNameEnd(int topicId, int sessionId) {
        return "' (" + topicId + "), session " + sessionId;
    }
}
