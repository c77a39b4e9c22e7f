package org.nakcast.rtt;

import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.nakcast.config.NodeConfig;

/**
 * The pong side of a run: for each turn (the baseline, the peers, then nakcast's phases; with
 * {@code --rounds}, that order and its reverse taking turns) it opens the path's link and echoes until
 * the ping side ends the turn. Runs on one thread; {@link #stop()}
 * from another ends it early.
 */
final class PongSession implements Runnable {
    private final LinkOptions links;
    private final NodeConfig config;
    private final PrintWriter err;
    private final Map<String, Long> naksSent = new ConcurrentHashMap<>();
    private volatile Ponger current;
    private volatile boolean stopped;
    private volatile boolean completed;

    PongSession(LinkOptions links, NodeConfig config, PrintWriter err) {
        this.links = links;
        this.config = config;
        this.err = err;
    }

    /** Serves every phase; returns when the last one ended or on {@link #stop()}. */
    @Override
    public void run() {
        final List<RttPath> phases = links.phases();
        final List<RttPath> schedule = links.schedule(phases);
        for (int index = 0; index < schedule.size(); index++) {
            final RttPath path = schedule.get(index);
            final String name = links.turnName(path, index / phases.size());
            final EchoBuffer echo = new EchoBuffer();
            try (RttLink link = links.open(path, false, echo, config)) {
                final Ponger ponger = new Ponger(link, echo, links.newIdleStrategy());
                current = ponger;
                if (stopped) {
                    return;
                }
                err.printf("pong %s: echoing%n", name);
                if (!ponger.serve()) {
                    return;
                }
                err.printf("pong %s: the ping side ended this phase%n", name);
                PingSession.printWireCounts(err, "pong", name, link);
                naksSent.merge(path.label(), link.naksSent(), RttResult::sumOfNaks);
            }
        }
        completed = true;
    }

    /** Whether every phase ended with the ping side's END. */
    boolean completed() {
        return completed;
    }

    /**
     * The NAKs this side sent over a path's turns that ended; {@link RttLink#NOT_COUNTED} for a path that
     * does not count them, or a phase that did not end.
     */
    long naksSent(String label) {
        return naksSent.getOrDefault(label, RttLink.NOT_COUNTED);
    }

    /** Ends {@link #run()} soon; from any thread. */
    void stop() {
        stopped = true;
        final Ponger ponger = current;
        if (ponger != null) {
            ponger.stop();
        }
    }
}
