package org.nakcast.transport.publish;

/**
 * The datagram sequences a publisher was asked to resend and has not resent yet: a set of
 * disjoint ranges kept in ascending order, merged where they touch or overlap, so a sequence is
 * queued at most once however many NAKs ask for it. Repairs wait here for the repair budget, the
 * rate limiter and the socket.
 *
 * <p>The publisher takes them as a sweep that goes round ({@link #nextFrom}): the lowest sequence
 * at or after where it stopped, then from the lowest again. A NAK that asks again for what the
 * sweep has passed (a stranger asking for the whole history every millisecond) waits for the next
 * round instead of sending the sweep back to the start, so every sequence queued is resent within
 * one round, and no flood of NAKs can hold back the repairs other receivers asked for.
 *
 * <pre>
 *   add [4, 6], then [12, 15], then [7, 9]:   [4, 9] [12, 15]
 *   forgetBelow(8):                           [8, 9] [12, 15]
 *   nextFrom(13) = 13, remove(13):            [8, 9] [12] [14, 15]
 *   nextFrom(16) = 8: the sweep goes round
 * </pre>
 *
 * <p>Bounded: when it holds {@code capacity} ranges, a range that merges with none is refused (and
 * a range the sweep would split loses its part below the sweep); the receivers' next NAKs ask
 * again. Sequences are at least 0 and below {@link Long#MAX_VALUE}. Allocation-free.
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

    /**
     * The lowest sequence queued at or after {@code cursor}, or the lowest queued if none is: the
     * next sequence of a sweep that stopped just before {@code cursor}. Only when not empty.
     */
    long nextFrom(long cursor) {
        final int index = firstEndingAtOrAfter(cursor);
        return index == size ? from[0] : Math.max(from[index], cursor);
    }

    /** Takes {@code sequence}, which is queued, out of the queue. */
    void remove(long sequence) {
        final int index = firstEndingAtOrAfter(sequence);
        if (from[index] == sequence && to[index] == sequence) {
            shift(index + 1, index);
        } else if (from[index] == sequence) {
            from[index]++;
        } else if (to[index] == sequence) {
            to[index]--;
        } else if (size == from.length) {
            from[index] = sequence + 1;
        } else {
            shift(index + 1, index + 2);
            from[index + 1] = sequence + 1;
            to[index + 1] = to[index];
            to[index] = sequence - 1;
        }
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
