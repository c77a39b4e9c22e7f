package org.nakcast.benchmarks.soak;

import org.nakcast.benchmarks.child.Figures;

/**
 * What one subscriber saw of one publisher session: messages numbered 0, 1, 2, ... by their
 * publisher (the number in their first eight bytes). It keeps where the session started for this
 * subscriber, the next number due, and every way the stream broke the contract: a number seen
 * twice, a jump no loss event covered, messages reported lost. Allocation-free per message.
 */
final class SessionTally {
    /** What {@link #first()} answers before the first message. */
    static final long NOTHING_YET = -1;

    private long first = NOTHING_YET;
    private long next;
    private long received;
    private long duplicates;
    private long skippedSilently;
    private long lost;
    private long lossNotYetSeen;

    /** A message of this session, carrying {@code number}. */
    void onMessage(long number) {
        if (first == NOTHING_YET) {
            first = number;
        } else if (number < next) {
            duplicates++;
            return;
        } else if (number > next) {
            final long skipped = number - next;
            final long covered = Math.min(skipped, lossNotYetSeen);
            lossNotYetSeen -= covered;
            skippedSilently += skipped - covered;
        }
        next = number + 1;
        received++;
    }

    /** A loss event of this session: {@code messages} will never come. */
    void onLoss(long messages) {
        lost += messages;
        lossNotYetSeen += messages;
    }

    /** The number of the first message this subscriber got, or {@link #NOTHING_YET}. */
    long first() {
        return first;
    }

    /** The number after the last one received. */
    long next() {
        return next;
    }

    /** Messages received, each counted once. */
    long received() {
        return received;
    }

    /** Messages received a second time. */
    long duplicates() {
        return duplicates;
    }

    /** Messages jumped over without a loss event saying so: silent loss. */
    long skippedSilently() {
        return skippedSilently;
    }

    /** Messages loss events reported lost. */
    long lost() {
        return lost;
    }

    /** Puts this tally's figures under {@code prefix}. */
    void putInto(Figures figures, String prefix) {
        figures.put(prefix + "first", first).put(prefix + "next", next).put(prefix + "received", received)
            .put(prefix + "duplicates", duplicates).put(prefix + "skippedSilently", skippedSilently)
            .put(prefix + "lost", lost);
    }

    /** Reads a tally {@link #putInto} wrote. */
    static SessionTally from(Figures figures, String prefix) {
        final SessionTally tally = new SessionTally();
        tally.first = figures.longValue(prefix + "first");
        tally.next = figures.longValue(prefix + "next");
        tally.received = figures.longValue(prefix + "received");
        tally.duplicates = figures.longValue(prefix + "duplicates");
        tally.skippedSilently = figures.longValue(prefix + "skippedSilently");
        tally.lost = figures.longValue(prefix + "lost");
        return tally;
    }
}
