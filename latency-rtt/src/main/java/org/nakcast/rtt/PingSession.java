package org.nakcast.rtt;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.nakcast.config.NodeConfig;

/**
 * The ping side of a run: for each turn in turn (the baseline, the peers, then nakcast's phases; with
 * {@code --rounds}, that order and its reverse taking turns) it connects, warms up, measures into its
 * path's {@link LatencyLog} and ends the turn, so the pong side moves on too. A path's log is open from
 * its first turn to its last, so its interval log shows when it measured and its total holds every turn.
 */
final class PingSession {
    private static final long HLOG_INTERVAL_NS = TimeUnit.SECONDS.toNanos(1);

    private PingSession() {
    }

    /**
     * Runs every turn on the caller's thread.
     *
     * @return one result per path, in the order of {@link LinkOptions#phases()}
     * @throws IllegalStateException if an echo does not come in time
     */
    static List<RttResult> run(LinkOptions links, RunOptions options, NodeConfig config, PrintWriter err) {
        createDirectories(options.output);
        LatencyLog.warmIntervalCode();
        final List<RttPath> phases = links.phases();
        final List<RttPath> schedule = links.schedule(phases);
        final Map<RttPath, PathTurns> turns = new HashMap<>();
        try {
            for (int index = 0; index < schedule.size(); index++) {
                final RttPath path = schedule.get(index);
                final int round = index / phases.size();
                final PathTurns pathTurns =
                    turns.computeIfAbsent(path, measured -> new PathTurns(options.file(measured.label(), ".hlog")));
                measureTurn(links, options, config, err, path, round, pathTurns);
                if (round == links.rounds - 1) {
                    pathTurns.close();
                }
            }
        } finally {
            turns.values().forEach(PathTurns::close);
        }
        return phases.stream().map(path -> turns.get(path).result(path)).toList();
    }

    /** One turn of one path: connect, warm up, measure this turn's share, end the turn. */
    private static void measureTurn(LinkOptions links, RunOptions options, NodeConfig config, PrintWriter err,
        RttPath path, int round, PathTurns turns) {
        final String name = links.turnName(path, round);
        final EchoWatch echoes = new EchoWatch();
        try (RttLink link = links.open(path, true, echoes, config)) {
            final Pinger pinger =
                new Pinger(link, path.label(), echoes, links.newIdleStrategy(), links.size, options.timeoutNs());
            err.printf("ping %s: waiting for pong%n", name);
            pinger.connect();
            err.printf("ping %s: warming up, %d round trips of %d bytes, %s%n", name, options.warmup, links.size,
                options.mode());
            try (LatencyLog warmup = new LatencyLog(null, HLOG_INTERVAL_NS)) {
                pinger.run(options.warmup, 0, options.intervalNs(), warmup);
            }
            final long count = options.measuredCount(round, links.rounds);
            final long durationNs = options.durationNs(links.rounds);
            err.printf("ping %s: measuring %s%n", name, durationNs > 0
                ? "for " + durationNs / 1e9 + " s" : count + " round trips");
            // start-up's, the turns before and this warm-up's garbage goes now: a collection
            // counted in this path's row is one its own measured round trips caused
            System.gc();
            final long collectionsBefore = collections();
            final long roundTrips = pinger.run(count, durationNs, options.intervalNs(), turns.log);
            turns.add(roundTrips, collections() - collectionsBefore, link.naksSent());
            pinger.finish();
            printWireCounts(err, "ping", name, link);
        }
    }

    /** Prints what one side's link did on the wire in the phase, if its path counts it. */
    static void printWireCounts(PrintWriter err, String side, String label, RttLink link) {
        final String counts = link.wireCounts();
        if (!counts.isEmpty()) {
            err.printf("%s %s: %s%n", side, label, counts);
        }
    }

    /** Garbage collections so far, all collectors. */
    static long collections() {
        long sum = 0;
        for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
            sum += Math.max(0, collector.getCollectionCount());
        }
        return sum;
    }

    private static void createDirectories(Path directory) {
        try {
            Files.createDirectories(directory);
        } catch (IOException ex) {
            throw new UncheckedIOException("cannot create --output " + directory + ": " + ex.getMessage(), ex);
        }
    }

    /** One path's measurement over its turns: its interval log, open from its first turn to its last, and the sums. */
    private static final class PathTurns {
        private final Path hlog;
        private final LatencyLog log;
        private long roundTrips;
        private long collections;
        private long naksSent;
        private boolean closed;

        PathTurns(Path hlog) {
            this.hlog = hlog;
            this.log = new LatencyLog(hlog, HLOG_INTERVAL_NS);
        }

        void add(long turnRoundTrips, long turnCollections, long turnNaksSent) {
            roundTrips += turnRoundTrips;
            collections += turnCollections;
            naksSent = RttResult.sumOfNaks(naksSent, turnNaksSent);
        }

        /** Writes the last interval and closes the log, once. */
        void close() {
            if (!closed) {
                closed = true;
                log.close();
            }
        }

        /** Every turn's round trips; once closed. */
        RttResult result(RttPath path) {
            return new RttResult(path, log.total(), roundTrips, collections, hlog, naksSent);
        }
    }
}
