package org.nakcast.transport.publish;

/**
 * Ranges of datagram sequences a publisher was asked to resend and has not resent yet, oldest
 * first. Repairs go out before new data, but they too wait for the rate limiter and the socket;
 * this holds them meanwhile. Bounded: when full, a new range is refused and the receiver's next
 * NAK asks again.
 */
final class RetransmitQueue {
    private final long[] from;
    private final long[] to;
    private int head;
    private int size;

    /** A queue of at most {@code capacity} ranges. */
    RetransmitQueue(int capacity) {
        this.from = new long[capacity];
        this.to = new long[capacity];
    }

    /**
     * Adds a range, merging it into the newest one where they touch or overlap.
     *
     * @return false if the queue is full
     */
    boolean add(long rangeFrom, long rangeTo) {
        if (size > 0) {
            final int last = (head + size - 1) % from.length;
            if (rangeFrom <= to[last] + 1 && rangeTo >= from[last] - 1) {
                from[last] = Math.min(from[last], rangeFrom);
                to[last] = Math.max(to[last], rangeTo);
                return true;
            }
        }
        if (size == from.length) {
            return false;
        }
        final int tail = (head + size) % from.length;
        from[tail] = rangeFrom;
        to[tail] = rangeTo;
        size++;
        return true;
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** First sequence of the oldest range. */
    long nextFrom() {
        return from[head];
    }

    /** Last sequence of the oldest range. */
    long nextTo() {
        return to[head];
    }

    /** Marks the oldest range done up to and including {@code sequence}. */
    void doneUpTo(long sequence) {
        if (sequence >= to[head]) {
            head = (head + 1) % from.length;
            size--;
        } else {
            from[head] = sequence + 1;
        }
    }

    /** Drops every range below {@code oldest} in part or whole: history no longer holds it. */
    void forgetBelow(long oldest) {
        while (size > 0 && to[head] < oldest) {
            head = (head + 1) % from.length;
            size--;
        }
        if (size > 0 && from[head] < oldest) {
            from[head] = oldest;
        }
    }
}
