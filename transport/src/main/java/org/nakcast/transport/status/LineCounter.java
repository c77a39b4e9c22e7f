package org.nakcast.transport.status;

/**
 * The counters a receiver keeps per line of a publisher stream heard on two lines (a topic with
 * {@code transports: [a, b]}), each with a type id and the words its label carries after the line's
 * name: {@code line md-a first copies: topic 'prices' (1), session 42}. {@link StreamCounters#line}
 * hands them out; the key holds the stream and the line's index (see {@link StreamCounters}).
 */
public enum LineCounter {
    /** DATA whose first copy came on this line: the datagrams this line delivered. */
    FIRST_COPIES(CounterTypeIds.LINE_FIRST_COPIES, "first copies"),
    /**
     * DATA this line brought after the stream already had it (from the other line, or a repair): the
     * duplicates from this line. With both lines healthy, one line's first copies are roughly the
     * other's second copies.
     */
    SECOND_COPIES(CounterTypeIds.LINE_SECOND_COPIES, "second copies"),
    /**
     * Datagrams this line went past without bringing them while the other line brought them: the
     * gaps this line alone had, in datagrams, which cost no NAK. Counted when the line brings a later
     * datagram (its own jump past them, if the stream already has them then) or when the other line's
     * first copy of one arrives after that jump; counted from the line's first datagram of the stream
     * on. A datagram a line brings out of its own order, after the other line's copy, counts here too.
     */
    MISSED_ALONE(CounterTypeIds.LINE_MISSED_ALONE, "missed alone (datagrams)"),
    /**
     * How long this line's second copies come after the other line's first copies, in nanoseconds: a
     * moving mean (gain 1/8) over its recent second copies. It stays where it was while the line
     * brings no second copies (while it is first, or down).
     */
    LAG_NS(CounterTypeIds.LINE_LAG_NS, "lag (ns)"),
    /**
     * 1 while the line is down (it brought nothing new for the topic's line timeout while the other
     * went on), else 0.
     */
    DOWN(CounterTypeIds.LINE_DOWN, "down");

    private static final LineCounter[] ALL = values();

    private final int typeId;
    private final String label;

    LineCounter(int typeId, String label) {
        this.typeId = typeId;
        this.label = label;
    }

    /** The counter's type id in the counters file. */
    public int typeId() {
        return typeId;
    }

    /** What the counter's label says after the line's name. */
    public String label() {
        return label;
    }

    /** The line counter of type id {@code typeId}, or null if it is not one. */
    public static LineCounter ofTypeId(int typeId) {
        for (LineCounter counter : ALL) {
            if (counter.typeId == typeId) {
                return counter;
            }
        }
        return null;
    }
}
