package org.nakcast.rtt;

import java.io.PrintWriter;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.nakcast.config.NodeConfig;

/**
 * The pong side of a run: for each path in turn (the baseline, the peers, then nakcast's phases) it
 * opens the link and echoes until the ping side ends the phase. Runs on one thread; {@link #stop()}
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
        for (RttPath path : links.phases()) {
            final EchoBuffer echo = new EchoBuffer();
            try (RttLink link = links.open(path, false, echo, config)) {
                final Ponger ponger = new Ponger(link, echo, links.newIdleStrategy());
                current = ponger;
                if (stopped) {
                    return;
                }
                err.printf("pong %s: echoing%n", path.label());
                if (!ponger.serve()) {
                    return;
                }
                err.printf("pong %s: the ping side ended this phase%n", path.label());
                PingSession.printWireCounts(err, "pong", path.label(), link);
                naksSent.put(path.label(), link.naksSent());
            }
        }
        completed = true;
    }

    /** Whether every phase ended with the ping side's END. */
    boolean completed() {
        return completed;
    }

    /**
     * The NAKs this side sent in a phase that ended; {@link RttLink#NOT_COUNTED} for a path that
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
