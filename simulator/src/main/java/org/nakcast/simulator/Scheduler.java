package org.nakcast.simulator;

import java.util.Arrays;

/**
 * The simulation's only clock and its only source of order: actions run one at a time, earliest
 * first, ties in the order they were scheduled. Nothing else in a simulation reads a real clock.
 *
 * <p>A binary heap of two longs per entry in one array: the time, and the order the action was
 * scheduled in with, in its low bits, the slot where the action waits. Sifting moves longs within
 * one array only: a busy seed keeps thousands of datagrams in flight, and the heap is where a run
 * spends much of its time.
 */
final class Scheduler {
    private static final int SLOT_BITS = 21;
    private static final long SLOT_MASK = (1L << SLOT_BITS) - 1;
    private static final int INITIAL_CAPACITY = 1 << 10;

    /** Entry i's time at 2i, its order and slot at 2i + 1. */
    private long[] heap = new long[2 * INITIAL_CAPACITY];
    private Runnable[] actions = new Runnable[INITIAL_CAPACITY];
    private int[] freeSlots = new int[INITIAL_CAPACITY];
    private int freeCount;
    private int slotsUsed;
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
        final int slot = takeSlot();
        actions[slot] = action;
        if (2 * size == heap.length) {
            heap = Arrays.copyOf(heap, 2 * heap.length);
        }
        final long time = Math.max(timeNs, nowNs);
        final long key = (order++ << SLOT_BITS) | slot;
        int child = size++;
        while (child > 0) {
            final int parent = (child - 1) >>> 1;
            if (!precedes(time, key, heap[2 * parent], heap[2 * parent + 1])) {
                break;
            }
            heap[2 * child] = heap[2 * parent];
            heap[2 * child + 1] = heap[2 * parent + 1];
            child = parent;
        }
        heap[2 * child] = time;
        heap[2 * child + 1] = key;
    }

    /** Runs actions in time order until none is left before {@code endNs}; the clock then reads {@code endNs}. */
    void runUntil(long endNs) {
        while (size > 0 && heap[0] <= endNs) {
            nowNs = heap[0];
            final int slot = (int) (heap[1] & SLOT_MASK);
            final Runnable action = actions[slot];
            actions[slot] = null;
            freeSlots[freeCount++] = slot;
            removeFirst();
            events++;
            action.run();
        }
        nowNs = Math.max(nowNs, endNs);
    }

    private int takeSlot() {
        if (freeCount > 0) {
            return freeSlots[--freeCount];
        }
        if (slotsUsed == actions.length) {
            if (slotsUsed > SLOT_MASK) {
                throw new IllegalStateException("more than " + SLOT_MASK + " actions waiting");
            }
            actions = Arrays.copyOf(actions, 2 * slotsUsed);
            freeSlots = Arrays.copyOf(freeSlots, 2 * slotsUsed);
        }
        return slotsUsed++;
    }

    private void removeFirst() {
        final int last = --size;
        final long time = heap[2 * last];
        final long key = heap[2 * last + 1];
        int parent = 0;
        while (true) {
            int child = 2 * parent + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && precedes(heap[2 * child + 2], heap[2 * child + 3], heap[2 * child],
                heap[2 * child + 1])) {
                child++;
            }
            if (!precedes(heap[2 * child], heap[2 * child + 1], time, key)) {
                break;
            }
            heap[2 * parent] = heap[2 * child];
            heap[2 * parent + 1] = heap[2 * child + 1];
            parent = child;
        }
        if (size > 0) {
            heap[2 * parent] = time;
            heap[2 * parent + 1] = key;
        }
    }

    /** Whether the entry ({@code time}, {@code key}) runs before ({@code otherTime}, {@code otherKey}). */
    private static boolean precedes(long time, long key, long otherTime, long otherKey) {
        return time < otherTime || time == otherTime && key < otherKey;
    }
}
