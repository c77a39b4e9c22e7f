package org.nakcast.cli;

import java.io.PrintWriter;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import org.agrona.DirectBuffer;
import org.nakcast.transport.status.CounterTypeIds;
import org.nakcast.transport.status.LineCounter;
import org.nakcast.transport.status.StreamCounters;

/**
 * The two lines of each stream a node hears on two lines, gathered from its counters as {@code stat}
 * reads them and printed as one small table per stream, so that which line is first, which lags and
 * which is down reads at a glance:
 *
 * <pre>
 *   lines of topic 'prices' (1), session 42: gaps both lines missed 3
 *     line     first copies    first  second copies   missed alone         lag  state
 *     md-a          980,000    98.0%         20,000              3        0 ns  up
 *     md-b           20,000     2.0%        980,000          1,200     12.3 us  DOWN
 * </pre>
 *
 * <p>{@code first} is the line's share of the first copies of both lines. A stream's table is shown
 * when any of its line counters' labels holds the filter's text; it shows every figure, 0 or not.
 */
final class LineTables {
    private static final LineCounter[] KINDS = LineCounter.values();
    private static final String UNKNOWN = "-";
    private static final String HEADING_LINE = "line";

    private final Map<Long, Stream> streams = new LinkedHashMap<>();

    /** One stream's lines: names and figures ({@code -1} for a counter the file does not hold). */
    private static final class Stream {
        final int topicId;
        final int sessionId;
        String topicName;
        final String[] names = new String[2];
        final long[][] figures = {filled(), filled()};
        long gapsBothMissed = -1;
        boolean wanted;

        Stream(int topicId, int sessionId) {
            this.topicId = topicId;
            this.sessionId = sessionId;
        }

        private static long[] filled() {
            final long[] figures = new long[KINDS.length];
            Arrays.fill(figures, -1);
            return figures;
        }
    }

    /**
     * Takes the counter if it is one of a stream's line counters.
     *
     * @param wanted the filter's text in lower case, or null for none
     * @return whether it was one (the caller prints it no further)
     */
    boolean take(int typeId, DirectBuffer key, String label, long value, String wanted) {
        final LineCounter kind = LineCounter.ofTypeId(typeId);
        if (kind == null && typeId != CounterTypeIds.GAPS_BOTH_LINES_MISSED) {
            return false;
        }
        final int topicId = key.getInt(StreamCounters.KEY_TOPIC_ID_OFFSET);
        final int sessionId = key.getInt(StreamCounters.KEY_SESSION_ID_OFFSET);
        final Stream stream = streams.computeIfAbsent(((long) topicId << Integer.SIZE) | (sessionId & 0xFFFF_FFFFL),
            id -> new Stream(topicId, sessionId));
        if (stream.topicName == null) {
            stream.topicName = StreamCounters.topicName(label, topicId, sessionId);
        }
        stream.wanted |= wanted == null || label.toLowerCase(Locale.ROOT).contains(wanted);
        if (kind == null) {
            stream.gapsBothMissed = value;
            return true;
        }
        final int line = key.getInt(StreamCounters.KEY_LINE_OFFSET);
        if (line == 0 || line == 1) {
            stream.figures[line][kind.ordinal()] = value;
            if (stream.names[line] == null) {
                stream.names[line] = StreamCounters.lineName(label, kind);
            }
        }
        return true;
    }

    /** Prints the table of each stream taken whose counters the filter wanted, and forgets them all. */
    void print(PrintWriter out) {
        for (Stream stream : streams.values()) {
            if (stream.wanted) {
                print(stream, out);
            }
        }
        streams.clear();
    }

    private static void print(Stream stream, PrintWriter out) {
        out.printf("  lines of topic '%s' (%d), session %d: gaps both lines missed %s%n",
            stream.topicName == null ? Integer.toString(stream.topicId) : stream.topicName, stream.topicId,
            stream.sessionId, count(stream.gapsBothMissed));
        final String[] names = new String[2];
        int width = HEADING_LINE.length();
        for (int line = 0; line < 2; line++) {
            names[line] = stream.names[line] == null ? "line " + line : stream.names[line];
            width = Math.max(width, names[line].length());
        }
        final String row = "    %-" + width + "s  %13s  %7s  %13s  %13s  %10s  %s%n";
        out.printf(row, HEADING_LINE, "first copies", "first", "second copies", "missed alone", "lag", "state");
        final long firsts = firstCopies(stream, 0) + firstCopies(stream, 1);
        for (int line = 0; line < 2; line++) {
            final long[] figures = stream.figures[line];
            final long first = figures[LineCounter.FIRST_COPIES.ordinal()];
            out.printf(row, names[line], count(first),
                first < 0 || firsts == 0 ? UNKNOWN : String.format(Locale.ROOT, "%.1f%%", 100.0 * first / firsts),
                count(figures[LineCounter.SECOND_COPIES.ordinal()]), count(figures[LineCounter.MISSED_ALONE.ordinal()]),
                duration(figures[LineCounter.LAG_NS.ordinal()]), state(figures[LineCounter.DOWN.ordinal()]));
        }
    }

    private static long firstCopies(Stream stream, int line) {
        return Math.max(0, stream.figures[line][LineCounter.FIRST_COPIES.ordinal()]);
    }

    private static String count(long value) {
        return value < 0 ? UNKNOWN : String.format(Locale.ROOT, "%,d", value);
    }

    private static String state(long down) {
        return down < 0 ? UNKNOWN : down == 0 ? "up" : "DOWN";
    }

    /** A lag in the unit that suits it: {@code 850 ns}, {@code 12.3 us}, {@code 4.0 ms}, {@code 1.2 s}. */
    static String duration(long ns) {
        if (ns < 0) {
            return UNKNOWN;
        }
        if (ns < 1_000) {
            return ns + " ns";
        }
        if (ns < 1_000_000) {
            return String.format(Locale.ROOT, "%.1f us", ns / 1e3);
        }
        if (ns < 1_000_000_000) {
            return String.format(Locale.ROOT, "%.1f ms", ns / 1e6);
        }
        return String.format(Locale.ROOT, "%.1f s", ns / 1e9);
    }
}
