package org.nakcast.rtt;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.nakcast.config.NodeConfig;

/**
 * The ping side of a run: for each path in turn (the baseline, the peers, then nakcast's phases) it
 * connects, warms up, measures into a {@link LatencyLog} and ends the phase, so the pong side moves
 * on too.
 */
final class PingSession {
    private static final long HLOG_INTERVAL_NS = TimeUnit.SECONDS.toNanos(1);

    private PingSession() {
    }

    /**
     * Runs every phase on the caller's thread.
     *
     * @return one result per path, in order
     * @throws IllegalStateException if an echo does not come in time
     */
    static List<RttResult> run(LinkOptions links, RunOptions options, NodeConfig config, PrintWriter err) {
        createDirectories(options.output);
        LatencyLog.warmIntervalCode();
        final List<RttResult> results = new ArrayList<>();
        for (RttPath path : links.phases()) {
            final String label = path.label();
            final EchoWatch echoes = new EchoWatch();
            try (RttLink link = links.open(path, true, echoes, config)) {
                final Pinger pinger =
                    new Pinger(link, label, echoes, links.newIdleStrategy(), links.size, options.timeoutNs());
                err.printf("ping %s: waiting for pong%n", label);
                pinger.connect();
                err.printf("ping %s: warming up, %d round trips of %d bytes, %s%n", label, options.warmup,
                    links.size, options.mode());
                try (LatencyLog warmup = new LatencyLog(null, HLOG_INTERVAL_NS)) {
                    pinger.run(options.warmup, 0, options.intervalNs(), warmup);
                }
                err.printf("ping %s: measuring %s%n", label, options.duration > 0
                    ? "for " + options.duration + " s" : options.count + " round trips");
                final Path hlog = options.file(label, ".hlog");
                // start-up's, the paths before and this warm-up's garbage goes now: a collection
                // counted in this path's row is one its own measured round trips caused
                System.gc();
                final long collectionsBefore = collections();
                final long roundTrips;
                final LatencyLog log = new LatencyLog(hlog, HLOG_INTERVAL_NS);
                try {
                    roundTrips = pinger.run(options.measuredCount(), options.durationNs(), options.intervalNs(), log);
                } finally {
                    log.close();
                }
                final long collections = collections() - collectionsBefore;
                pinger.finish();
                printWireCounts(err, "ping", label, link);
                results.add(new RttResult(path, log.total(), roundTrips, collections, hlog, link.naksSent()));
            }
        }
        return results;
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
}
