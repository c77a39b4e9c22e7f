package org.nakcast.transport.receive;

import org.agrona.concurrent.status.AtomicCounter;
import org.nakcast.transport.status.LineCounter;
import org.nakcast.transport.status.StreamCounters;

/**
 * A receiving stream's tallies per line, for a stream heard on two lines, published in the node's
 * counters file for {@code nakcast stat}: per line each {@link LineCounter} (first copies, second
 * copies, datagrams missed alone, lag, down), and the gaps both lines missed. They are copied from
 * the stream's {@link LineArbiter} on every poll, so the data path only adds to plain fields.
 */
final class LineCounters {
    private static final LineCounter[] KINDS = LineCounter.values();

    private final StreamCounters counters;
    /** Per line, one counter per kind, in {@link LineCounter} order. */
    private final AtomicCounter[][] byLine = new AtomicCounter[2][KINDS.length];
    private final AtomicCounter gapsBothMissed;

    /** @param lineNames the stream's two lines' names (its topic's transports), in line order */
    LineCounters(StreamCounters counters, String[] lineNames, String topicName, int topicId, int sessionId) {
        this.counters = counters;
        for (int line = 0; line < 2; line++) {
            for (LineCounter kind : KINDS) {
                byLine[line][kind.ordinal()] =
                    counters.line(kind, lineNames[line], line, topicName, topicId, sessionId);
            }
        }
        this.gapsBothMissed = counters.gapsBothLinesMissed(topicName, topicId, sessionId);
    }

    /** Publishes the arbiter's tallies. */
    void update(LineArbiter lines) {
        for (int line = 0; line < 2; line++) {
            final AtomicCounter[] of = byLine[line];
            of[LineCounter.FIRST_COPIES.ordinal()].setOrdered(lines.firstCopies(line));
            of[LineCounter.SECOND_COPIES.ordinal()].setOrdered(lines.secondCopies(line));
            of[LineCounter.MISSED_ALONE.ordinal()].setOrdered(lines.missedAlone(line));
            of[LineCounter.LAG_NS.ordinal()].setOrdered(lines.lagNs(line));
            of[LineCounter.DOWN.ordinal()].setOrdered(lines.isDown(line) ? 1 : 0);
        }
        gapsBothMissed.setOrdered(lines.gapsBothMissed());
    }

    /** Gives every counter back; the stream has ended. */
    void free() {
        for (AtomicCounter[] of : byLine) {
            for (AtomicCounter counter : of) {
                counters.free(counter);
            }
        }
        counters.free(gapsBothMissed);
    }
}
