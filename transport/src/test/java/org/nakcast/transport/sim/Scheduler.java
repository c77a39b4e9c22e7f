package org.nakcast.transport.sim;

import java.util.Arrays;

/**
 * The simulation's only clock and its only source of order: actions run one at a time, earliest
 * first, ties in the order they were scheduled. Nothing else in a simulation reads a real clock.
 *
 * <p>A binary heap over plain arrays, each entry's time and order side by side in one: a busy seed
 * keeps thousands of datagrams in flight, and the heap is where a run spends much of its time.
 */
final class Scheduler {
    private static final int INITIAL_CAPACITY = 1 << 10;

    /** Entry i's time at 2i, its order at 2i + 1. */
    private long[] keys = new long[2 * INITIAL_CAPACITY];
    private Runnable[] actions = new Runnable[INITIAL_CAPACITY];
    private int size;
    private long nowNs;
    private long order;
    private long events;

    /** The simulated time. */
    long nowNs() {
        return nowNs;
    }

    /** How many actions have run. */
    long events() {
        return events;
    }

    /** Runs {@code action} at {@code timeNs}, or now if that has passed. */
    void at(long timeNs, Runnable action) {
        if (size == actions.length) {
            keys = Arrays.copyOf(keys, 4 * size);
            actions = Arrays.copyOf(actions, 2 * size);
        }
        final long time = Math.max(timeNs, nowNs);
        final long ordinal = order++;
        int child = size++;
        while (child > 0) {
            final int parent = (child - 1) >>> 1;
            if (!before(time, ordinal, parent)) {
                break;
            }
            move(parent, child);
            child = parent;
        }
        set(child, time, ordinal, action);
    }

    /** Runs actions in time order until none is left before {@code endNs}; the clock then reads {@code endNs}. */
    void runUntil(long endNs) {
        while (size > 0 && keys[0] <= endNs) {
            nowNs = keys[0];
            final Runnable action = actions[0];
            removeFirst();
            events++;
            action.run();
        }
        nowNs = Math.max(nowNs, endNs);
    }

    private void removeFirst() {
        final int last = --size;
        final long time = keys[2 * last];
        final long ordinal = keys[2 * last + 1];
        final Runnable action = actions[last];
        actions[last] = null;
        int parent = 0;
        while (true) {
            int child = 2 * parent + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && before(keys[2 * child + 2], keys[2 * child + 3], child)) {
                child++;
            }
            if (!precedes(keys[2 * child], keys[2 * child + 1], time, ordinal)) {
                break;
            }
            move(child, parent);
            parent = child;
        }
        if (size > 0) {
            set(parent, time, ordinal, action);
        }
    }

    /** Whether an action at ({@code time}, {@code ordinal}) runs before the one in slot {@code slot}. */
    private boolean before(long time, long ordinal, int slot) {
        return precedes(time, ordinal, keys[2 * slot], keys[2 * slot + 1]);
    }

    private static boolean precedes(long time, long ordinal, long otherTime, long otherOrdinal) {
        return time < otherTime || time == otherTime && ordinal < otherOrdinal;
    }

    private void move(int from, int to) {
        set(to, keys[2 * from], keys[2 * from + 1], actions[from]);
    }

    private void set(int slot, long time, long ordinal, Runnable action) {
        keys[2 * slot] = time;
        keys[2 * slot + 1] = ordinal;
        actions[slot] = action;
    }
}
