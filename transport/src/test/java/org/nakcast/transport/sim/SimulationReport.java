package org.nakcast.transport.sim;

import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;

/** The totals of many seeds' runs: a table for people, and one JSON line for tools. */
final class SimulationReport {
    private final Map<FaultKind, Long> seedsPerKind = new EnumMap<>(FaultKind.class);
    private long seeds;
    private long published;
    private long delivered;
    private long lossEvents;
    private long lostMessages;
    private long naksSent;
    private long retransmits;
    private long sharedLosses;
    private long violations;
    private long failingSeeds;
    private long simulatedNs;
    private long firstFailingSeed = Long.MIN_VALUE;
    private long sharedLossOnlySeeds;
    private long sharedLossOnlyNaks;
    private long sharedLossOnlyLosses;
    private int sharedLossOnlyMostSubscribers;

    synchronized void add(SimulationResult result) {
        seeds++;
        for (FaultKind kind : result.injected()) {
            seedsPerKind.merge(kind, 1L, Long::sum);
        }
        published += result.published();
        delivered += result.delivered();
        lossEvents += result.lossEvents();
        lostMessages += result.lostMessages();
        naksSent += result.naksSent();
        retransmits += result.retransmits();
        sharedLosses += result.sharedLosses();
        violations += result.violations();
        simulatedNs += result.simulatedNs();
        if (result.injected().equals(EnumSet.of(FaultKind.SHARED_LOSS)) && result.subscribers() >= 8) {
            sharedLossOnlySeeds++;
            sharedLossOnlyNaks += result.naksSent();
            sharedLossOnlyLosses += result.sharedLosses();
            sharedLossOnlyMostSubscribers = Math.max(sharedLossOnlyMostSubscribers, result.subscribers());
        }
        if (result.violations() > 0) {
            failingSeeds++;
            if (firstFailingSeed == Long.MIN_VALUE) {
                firstFailingSeed = result.seed();
            }
        }
    }

    long violations() {
        return violations;
    }

    /** The table. */
    synchronized List<String> table(double wallSeconds) {
        final StringJoiner kinds = new StringJoiner("\n");
        for (FaultKind kind : FaultKind.values()) {
            kinds.add("  %-20s %,12d".formatted(kind.label(), seedsPerKind.getOrDefault(kind, 0L)));
        }
        return List.of(
            "seeds                %,12d".formatted(seeds),
            "faults injected (seeds using each kind):",
            kinds.toString(),
            "messages published   %,12d".formatted(published),
            "messages delivered   %,12d   (over every subscription)".formatted(delivered),
            "loss events          %,12d   (%,d messages given up, each justified)".formatted(lossEvents, lostMessages),
            "NAK datagrams sent   %,12d".formatted(naksSent),
            "retransmits          %,12d".formatted(retransmits),
            sharedLossOnlySeeds == 0
                ? "NAKs per shared loss            -   (no seed with shared loss alone and 8 or more subscribers)"
                : "NAKs per shared loss %12s   (seeds with shared loss alone and 8 to %d subscribers: %d)".formatted(
                    nakPerSharedLoss(), sharedLossOnlyMostSubscribers, sharedLossOnlySeeds),
            "simulated time       %12.1f s".formatted(simulatedNs / 1e9),
            "wall time            %12.1f s".formatted(wallSeconds),
            "violations           %,12d   (%,d failing seeds%s)".formatted(violations, failingSeeds,
                failingSeeds > 0 ? ", first: " + firstFailingSeed : ""));
    }

    /** NAK datagrams per shared loss over the seeds with shared loss alone and a big group, or "-". */
    private String nakPerSharedLoss() {
        return sharedLossOnlyLosses == 0 ? "-"
            : String.format(Locale.ROOT, "%.2f", (double) sharedLossOnlyNaks / sharedLossOnlyLosses);
    }

    /** The JSON line. */
    synchronized String json(double wallSeconds) {
        final StringJoiner kinds = new StringJoiner(",", "{", "}");
        for (FaultKind kind : FaultKind.values()) {
            kinds.add("\"%s\":%d".formatted(kind.label(), seedsPerKind.getOrDefault(kind, 0L)));
        }
        return String.format(Locale.ROOT, "{\"seeds\":%d,\"faults\":%s,\"published\":%d,\"delivered\":%d,"
                + "\"lossEvents\":%d,\"lostMessages\":%d,\"naksSent\":%d,\"retransmits\":%d,\"sharedLosses\":%d,"
                + "\"naksPerSharedLoss\":%s,\"violations\":%d,\"failingSeeds\":%d,\"firstFailingSeed\":%s,"
                + "\"simulatedSeconds\":%.3f,\"wallSeconds\":%.3f}",
            seeds, kinds, published, delivered, lossEvents, lostMessages, naksSent, retransmits, sharedLosses,
            sharedLossOnlyLosses == 0 ? "null" : nakPerSharedLoss(), violations, failingSeeds,
            failingSeeds > 0 ? Long.toString(firstFailingSeed) : "null", simulatedNs / 1e9, wallSeconds);
    }
}
