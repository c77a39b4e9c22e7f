package org.nakcast.transport.sim;

import java.util.ArrayList;
import java.util.List;

/** The invariants a run broke: the first few in words, and how many in all. */
final class Violations {
    private static final int KEPT = 20;

    private final List<String> first = new ArrayList<>();
    private long count;

    void add(long nowNs, String what) {
        count++;
        if (first.size() < KEPT) {
            first.add("t=%.6f s: %s".formatted(nowNs / 1e9, what));
        }
    }

    long count() {
        return count;
    }

    List<String> first() {
        return first;
    }
}
