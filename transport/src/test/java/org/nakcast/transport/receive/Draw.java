package org.nakcast.transport.receive;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Supplier;

/**
 * The values of one case of a randomized property, drawn from a {@link SplittableRandom} seeded
 * with the property's seed plus the case number (from 1, like JUnit's invocation index), so a
 * failing case is rerun by its number alone. The first {@value #EDGE_CASES} cases draw edge values
 * only: the n-th draw of case c takes edge c + n of its kind (the bounds of a range, each choice,
 * each alternative, the shortest and the longest list), so every edge turns up at every place a
 * property draws one. Later cases draw at random and still take an edge one draw in
 * {@value #EDGE_ODDS}.
 */
final class Draw {
    /** At least as many as the most choices any draw offers, so each place meets all of them. */
    static final int EDGE_CASES = 10;
    static final int EDGE_ODDS = 8;

    private final SplittableRandom random;
    private final boolean edgesOnly;
    private final int caseNumber;
    private int draws;

    Draw(long seed, int caseNumber) {
        this.random = new SplittableRandom(seed + caseNumber);
        this.edgesOnly = caseNumber <= EDGE_CASES;
        this.caseNumber = caseNumber;
    }

    /** Between {@code min} and {@code max}, both included. */
    int between(int min, int max) {
        return (int) between((long) min, max);
    }

    /** Between {@code min} and {@code max}, both included. */
    long between(long min, long max) {
        final int edge = edge(2);
        return edge == 0 ? min : edge == 1 ? max : random.nextLong(min, max + 1);
    }

    boolean bool() {
        return between(0, 1) == 1;
    }

    int oneOf(int... choices) {
        return choices[choice(choices.length)];
    }

    /** The index of one alternative, each as likely as its weight. */
    int weighted(int... weights) {
        final int edge = edge(weights.length);
        if (edge >= 0) {
            return edge;
        }
        int total = 0;
        for (int weight : weights) {
            total += weight;
        }
        int at = random.nextInt(total);
        int alternative = 0;
        while (at >= weights[alternative]) {
            at -= weights[alternative++];
        }
        return alternative;
    }

    <T> List<T> list(int minSize, int maxSize, Supplier<T> element) {
        final int size = between(minSize, maxSize);
        final List<T> list = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            list.add(element.get());
        }
        return list;
    }

    /** A seed for whatever else the case runs at random: no edges here. */
    long seed() {
        return random.nextLong();
    }

    private int choice(int count) {
        final int edge = edge(count);
        return edge >= 0 ? edge : random.nextInt(count);
    }

    /** Which of {@code count} edges to take, or -1 to draw at random. */
    private int edge(int count) {
        if (edgesOnly) {
            return (caseNumber + draws++) % count;
        }
        return random.nextInt(EDGE_ODDS) == 0 ? random.nextInt(count) : -1;
    }
}
