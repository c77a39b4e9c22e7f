package org.nakcast.transport.publish;

/**
 * The datagram sequences a publisher was asked to resend and has not resent yet: a set of
 * disjoint ranges kept in ascending order, merged where they touch or overlap, so a sequence is
 * queued at most once however many NAKs ask for it, and the lowest always goes first. Repairs
 * wait here for the repair budget, the rate limiter and the socket.
 *
 * <pre>
 *   add [4, 6], then [12, 15], then [7, 9]:   [4, 9] [12, 15]
 *   forgetBelow(8):                           [8, 9] [12, 15]
 *   doneUpTo(12):                             [13, 15]
 * </pre>
 *
 * <p>Bounded: when it holds {@code capacity} ranges, a range that merges with none is refused and
 * the receiver's next NAK asks again. Sequences are at least 0 and below {@link Long#MAX_VALUE}.
 * Allocation-free.
 */
final class RetransmitQueue {
    private final long[] from;
    private final long[] to;
    private int size;

    /** A queue of at most {@code capacity} ranges. */
    RetransmitQueue(int capacity) {
        this.from = new long[capacity];
        this.to = new long[capacity];
    }

    /**
     * Adds the sequences {@code rangeFrom..rangeTo}, merging them with every range they touch or
     * overlap.
     *
     * @return false if they merge with no range and the queue is full
     */
    boolean add(long rangeFrom, long rangeTo) {
        final int first = firstEndingAtOrAfter(rangeFrom - 1);
        int last = first;
        while (last < size && from[last] <= rangeTo + 1) {
            last++;
        }
        if (first == last) {
            if (size == from.length) {
                return false;
            }
            shift(first, first + 1);
            from[first] = rangeFrom;
            to[first] = rangeTo;
            return true;
        }
        from[first] = Math.min(from[first], rangeFrom);
        to[first] = Math.max(to[last - 1], rangeTo);
        shift(last, first + 1);
        return true;
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** The lowest sequence queued; only when not empty. */
    long first() {
        return from[0];
    }

    /** Takes every sequence up to and including {@code sequence} out of the queue. */
    void doneUpTo(long sequence) {
        forgetBelow(sequence + 1);
    }

    /** Takes every sequence below {@code oldest} out of the queue, wherever it lies. */
    void forgetBelow(long oldest) {
        final int firstKept = firstEndingAtOrAfter(oldest);
        shift(firstKept, 0);
        if (size > 0 && from[0] < oldest) {
            from[0] = oldest;
        }
    }

    /** The index of the first range whose last sequence is at least {@code sequence}; {@code size} if none. */
    private int firstEndingAtOrAfter(long sequence) {
        int low = 0;
        int high = size;
        while (low < high) {
            final int middle = (low + high) >>> 1;
            if (to[middle] < sequence) {
                low = middle + 1;
            } else {
                high = middle;
            }
        }
        return low;
    }

    /** Moves the ranges from index {@code source} on to start at index {@code target}. */
    private void shift(int source, int target) {
        final int moved = size - source;
        System.arraycopy(from, source, from, target, moved);
        System.arraycopy(to, source, to, target, moved);
        size += target - source;
    }
}
