package org.nakcast.simulator;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The invariants a run broke: the first few in words, each starting with its invariant's label,
 * and how many of each in all.
 */
final class Violations {
    private static final int KEPT = 20;

    private final List<String> first = new ArrayList<>();
    private final Map<Invariant, Long> perInvariant = new EnumMap<>(Invariant.class);
    private long count;

    void add(long nowNs, Invariant invariant, String what) {
        count++;
        perInvariant.merge(invariant, 1L, Long::sum);
        if (first.size() < KEPT) {
            first.add("t=%.6f s: [%s] %s".formatted(nowNs / 1e9, invariant.label(), what));
        }
    }

    long count() {
        return count;
    }

    List<String> first() {
        return first;
    }

    /** How many violations of each invariant. */
    Map<Invariant, Long> perInvariant() {
        return perInvariant;
    }
}
