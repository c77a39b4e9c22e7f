package org.nakcast.simulator;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;

/**
 * The totals of many seeds' runs: a table for people, and one JSON line for tools. For each fault
 * kind it gives how many seeds drew it and what was injected, counted where it happened (a copy
 * lost, a pause begun, a datagram forged), whichever kinds the seed drew.
 */
final class SimulationReport {
    /** What {@link SimulationResult#injectedByKind()} counts of each kind, in words. */
    private static final Map<FaultKind, String> UNITS = new EnumMap<>(Map.ofEntries(
        Map.entry(FaultKind.LOSS, "copies lost at random"),
        Map.entry(FaultKind.BURST, "copies lost in bursts"),
        Map.entry(FaultKind.TRAIN_LOSS, "copies lost in GRO trains"),
        Map.entry(FaultKind.SHARED_LOSS, "datagrams lost before fanning out"),
        Map.entry(FaultKind.DUPLICATION, "copies delivered twice"),
        Map.entry(FaultKind.REORDER, "copies overtaken by one sent after"),
        Map.entry(FaultKind.OVERFLOW, "datagrams dropped by full socket queues"),
        Map.entry(FaultKind.PARTITION, "copies cut by partitions"),
        Map.entry(FaultKind.STALL, "copies held by stalled links"),
        Map.entry(FaultKind.SEND_REFUSAL, "sends refused"),
        Map.entry(FaultKind.PUBLISHER_PAUSE, "pauses"),
        Map.entry(FaultKind.SUBSCRIBER_PAUSE, "pauses"),
        Map.entry(FaultKind.PUBLISHER_RESTART, "crashes, each started again"),
        Map.entry(FaultKind.SUBSCRIBER_RESTART, "crashes, each started again"),
        Map.entry(FaultKind.LATE_JOIN, "subscribers started late"),
        Map.entry(FaultKind.STOPPED_POLLING, "pollers stopped for a while"),
        Map.entry(FaultKind.THROWING_HANDLER, "exceptions thrown by handlers"),
        Map.entry(FaultKind.STRANGER, "datagrams forged"),
        Map.entry(FaultKind.SHARED_PUBLISHER_ID, "publisher ids shared by two processes"),
        Map.entry(FaultKind.PUBLICATION_CLOSE, "publications closed once they had offered everything"),
        Map.entry(FaultKind.REDUNDANT_LINES, "lines a stream called down (nothing lost by it)"),
        Map.entry(FaultKind.SUBSCRIPTION_CLOSE, "subscriptions closed by their application"),
        Map.entry(FaultKind.NODE_CLOSE, "nodes closed by their application"),
        Map.entry(FaultKind.RECORDER, "recordings read back and checked"),
        Map.entry(FaultKind.DISK, "segments a full disk refused, and stalls of a slow one"),
        Map.entry(FaultKind.AUTHENTICATION, "datagrams sockets dropped by their trailer (forged, replayed)")));

    private final Map<FaultKind, Long> seedsPerKind = new EnumMap<>(FaultKind.class);
    private final Map<FaultKind, Long> injectedPerKind = new EnumMap<>(FaultKind.class);
    private long seeds;
    private long longPublisherPauses;
    private long longSubscriberPauses;
    private long strays;
    private long copiesTaken;
    private final StreamWatch.Reached reached = new StreamWatch.Reached();
    private long published;
    private long delivered;
    private long lossEvents;
    private long lostMessages;
    private long naksSent;
    private long retransmits;
    private long quietRetransmits;
    private long quietNeededAgain;
    private long sharedLosses;
    private long violations;
    private final Map<Invariant, Long> violationsPerInvariant = new EnumMap<>(Invariant.class);
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
        result.injectedByKind().forEach((kind, count) -> injectedPerKind.merge(kind, count, Long::sum));
        longPublisherPauses += result.longPublisherPauses();
        longSubscriberPauses += result.longSubscriberPauses();
        strays += result.strays();
        copiesTaken += result.copiesTaken();
        reached.add(result.reached());
        published += result.published();
        delivered += result.delivered();
        lossEvents += result.lossEvents();
        lostMessages += result.lostMessages();
        naksSent += result.naksSent();
        retransmits += result.retransmits();
        if (!result.injected().contains(FaultKind.STRANGER)) {
            quietRetransmits += result.retransmits();
            quietNeededAgain += result.neededAgain();
        }
        sharedLosses += result.sharedLosses();
        violations += result.violations();
        result.violationsPerInvariant().forEach((invariant, count) -> violationsPerInvariant.merge(invariant, count,
            Long::sum));
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

    synchronized long violations() {
        return violations;
    }

    /** The table. */
    synchronized List<String> table(double wallSeconds) {
        final List<String> lines = new ArrayList<>();
        lines.add("seeds                %,12d".formatted(seeds));
        lines.add("faults                      seeds     injected");
        for (FaultKind kind : FaultKind.values()) {
            lines.add("  %-20s %,10d %,12d   %s".formatted(kind.label(), seedsPerKind.getOrDefault(kind, 0L),
                injectedPerKind.getOrDefault(kind, 0L), unitOf(kind)));
        }
        lines.add("messages published   %,12d".formatted(published));
        lines.add("messages delivered   %,12d   (over every subscription)".formatted(delivered));
        lines.add("loss events          %,12d   (%,d messages given up, each justified)".formatted(lossEvents,
            lostMessages));
        lines.add("streams resumed      %,12d   (after their publisher was given up as silent; %,d losses after)"
            .formatted(reached.resumes, reached.lossesAfterResume));
        lines.add("starts held          %,12d   (decided after the session was first heard)".formatted(
            reached.heldStarts));
        lines.add("recoveries           %,12d   (%,d messages fetched from recorders; %,d losses naming them; %,d"
            .formatted(reached.recoveries, reached.recoveryMessages, reached.recoveryLosses, reached.positionResumes)
            + " restarts resumed at stored positions)");
        lines.add("NAK datagrams sent   %,12d".formatted(naksSent));
        lines.add("retransmits          %,12d   (%s per datagram needed again, seeds without a stranger)"
            .formatted(retransmits, ratio(quietRetransmits, quietNeededAgain)));
        lines.add(sharedLossOnlySeeds == 0
            ? "NAKs per shared loss            -   (no seed with shared loss alone and 8 or more subscribers)"
            : "NAKs per shared loss %12s   (seeds with shared loss alone and 8 to %d subscribers: %d)".formatted(
                ratio(sharedLossOnlyNaks, sharedLossOnlyLosses), sharedLossOnlyMostSubscribers, sharedLossOnlySeeds));
        lines.add("simulated time       %12.1f s".formatted(simulatedNs / 1e9));
        lines.add("wall time            %12.1f s".formatted(wallSeconds));
        lines.add("violations           %,12d   (%,d failing seeds%s)".formatted(violations, failingSeeds,
            failingSeeds > 0 ? ", first: " + firstFailingSeed : ""));
        violationsPerInvariant.forEach((invariant, count) -> lines.add("  %-20s %,10d".formatted(invariant.label(),
            count)));
        return lines;
    }

    private String unitOf(FaultKind kind) {
        final String unit = UNITS.get(kind);
        return switch (kind) {
            case PUBLISHER_PAUSE -> unit + " (%,d longer than every timeout)".formatted(longPublisherPauses);
            case SUBSCRIBER_PAUSE -> unit + " (%,d longer than every timeout)".formatted(longSubscriberPauses);
            case STRANGER -> unit + " (%,d stray datagrams handed to a process, %,d copies of signed ones taken)"
                .formatted(strays, copiesTaken);
            default -> unit;
        };
    }

    /** {@code a / b} with two decimals, or "-" when {@code b} is 0. */
    private static String ratio(long a, long b) {
        return b == 0 ? "-" : String.format(Locale.ROOT, "%.2f", (double) a / b);
    }

    /** The JSON line. */
    synchronized String json(double wallSeconds) {
        final StringJoiner kinds = new StringJoiner(",", "{", "}");
        for (FaultKind kind : FaultKind.values()) {
            kinds.add("\"%s\":{\"seeds\":%d,\"injected\":%d}".formatted(kind.label(),
                seedsPerKind.getOrDefault(kind, 0L), injectedPerKind.getOrDefault(kind, 0L)));
        }
        final String sharedRatio = ratio(sharedLossOnlyNaks, sharedLossOnlyLosses);
        final String repairRatio = ratio(quietRetransmits, quietNeededAgain);
        return String.format(Locale.ROOT, "{\"seeds\":%d,\"faults\":%s,\"longPublisherPauses\":%d,"
                + "\"longSubscriberPauses\":%d,\"strays\":%d,\"copiesTaken\":%d,"
                + "\"resumes\":%d,\"lossesAfterResume\":%d,\"heldStarts\":%d,"
                + "\"recoveries\":%d,\"recoveryMessages\":%d,\"recoveryLosses\":%d,\"positionResumes\":%d,"
                + "\"published\":%d,\"delivered\":%d,\"lossEvents\":%d,\"lostMessages\":%d,"
                + "\"naksSent\":%d,\"retransmits\":%d,\"retransmitsPerNeededAgain\":%s,\"sharedLosses\":%d,"
                + "\"naksPerSharedLoss\":%s,\"violations\":%d,\"failingSeeds\":%d,\"firstFailingSeed\":%s,"
                + "\"simulatedSeconds\":%.3f,\"wallSeconds\":%.3f}",
            seeds, kinds, longPublisherPauses, longSubscriberPauses, strays, copiesTaken, reached.resumes,
            reached.lossesAfterResume, reached.heldStarts, reached.recoveries, reached.recoveryMessages,
            reached.recoveryLosses, reached.positionResumes, published, delivered, lossEvents,
            lostMessages, naksSent, retransmits, repairRatio.equals("-") ? "null" : repairRatio, sharedLosses,
            sharedRatio.equals("-") ? "null" : sharedRatio, violations, failingSeeds,
            failingSeeds > 0 ? Long.toString(firstFailingSeed) : "null", simulatedNs / 1e9, wallSeconds);
    }
}
