package org.nakcast.transport.sim;

import java.util.Comparator;
import java.util.PriorityQueue;

/**
 * The simulation's only clock and its only source of order: actions run one at a time, earliest
 * first, ties in the order they were scheduled. Nothing else in a simulation reads a real clock.
 */
final class Scheduler {
    private record Event(long timeNs, long order, Runnable action) {
    }

    private final PriorityQueue<Event> queue =
        new PriorityQueue<>(Comparator.comparingLong(Event::timeNs).thenComparingLong(Event::order));
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
        queue.add(new Event(Math.max(timeNs, nowNs), order++, action));
    }

    /** Runs actions in time order until none is left before {@code endNs}; the clock then reads {@code endNs}. */
    void runUntil(long endNs) {
        while (!queue.isEmpty() && queue.peek().timeNs() <= endNs) {
            final Event event = queue.poll();
            nowNs = event.timeNs();
            events++;
            event.action().run();
        }
        nowNs = Math.max(nowNs, endNs);
    }
}
