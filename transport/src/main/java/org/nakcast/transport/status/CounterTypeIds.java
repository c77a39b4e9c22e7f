package org.nakcast.transport.status;

/**
 * Every type id of a node's counters file, in one table, so that no two kinds of counter share
 * one and a reading tool tells each kind by its id alone:
 *
 * <pre>
 *   type id     kind                                   key
 *   1 .. 99     the system counters, each a SystemCounter's own
 *   100         malformed datagrams of one cause       the cause's ordinal (DatagramCheck)
 *   200         publisher position                     topic id, session id
 *   201         receiver position                      topic id, session id
 *   202         receiver lag (datagrams)               topic id, session id
 *   203 .. 207  per line of a stream (LineCounter)     topic id, session id, line index
 *   208         gaps both lines missed                 topic id, session id
 * </pre>
 */
public final class CounterTypeIds {
    /** The highest type id a {@link SystemCounter} may have. */
    public static final int LAST_SYSTEM = 99;
    /** Malformed datagrams of one cause; the cause's ordinal is in the key. */
    public static final int MALFORMED_BY_CAUSE = 100;
    /** A publisher's position: the sequence below which every datagram has been sent. */
    public static final int PUBLISHER_POSITION = 200;
    /** A receiver's position: the sequence of the next datagram it delivers. */
    public static final int RECEIVER_POSITION = 201;
    /** A receiver's lag: datagrams known to exist that it has not delivered yet. */
    public static final int RECEIVER_LAG = 202;
    /** {@link LineCounter#FIRST_COPIES}. */
    public static final int LINE_FIRST_COPIES = 203;
    /** {@link LineCounter#SECOND_COPIES}. */
    public static final int LINE_SECOND_COPIES = 204;
    /** {@link LineCounter#MISSED_ALONE}. */
    public static final int LINE_MISSED_ALONE = 205;
    /** {@link LineCounter#LAG_NS}. */
    public static final int LINE_LAG_NS = 206;
    /** {@link LineCounter#DOWN}. */
    public static final int LINE_DOWN = 207;
    /**
     * The gaps both lines of a stream missed: on a stream heard on two lines, the gaps it found and
     * NAKed (counted in {@link SystemCounter#GAPS} as well), as gaps, not datagrams.
     */
    public static final int GAPS_BOTH_LINES_MISSED = 208;

    private CounterTypeIds() {
    }
}
