package org.nakcast.benchmarks.throughput;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;

import org.nakcast.config.NodeConfig;
import org.nakcast.config.TopicConfig;

/**
 * A forger on its own, for drills against a running publisher and subscriber
 * ({@code ops/fault-drills forged-*}): hears the topic's session, follows it for FOLLOW_MS, then
 * sends the row's forgery COPIES times, 200 ms apart (NAKs: each copy after following the session
 * for {@value #REFRESH_MS} ms more, so they ask for what its history holds now), and says what it
 * sent. Exit 1 if no session of the topic was heard within 10 seconds.
 *
 * <pre>
 *   SessionForgerMain CONFIG|- TOPIC end|unrecoverable|data|status|naks COPIES FOLLOW_MS
 * </pre>
 */
public final class SessionForgerMain {
    private static final long WAIT_MS = 10_000;
    private static final long COPY_INTERVAL_MS = 200;
    private static final long REFRESH_MS = 20;

    private SessionForgerMain() {
    }

    /** Runs the forger. */
    public static void main(String[] args) throws IOException, InterruptedException {
        if (args.length != 5) {
            System.err.println(
                "usage: SessionForgerMain CONFIG|- TOPIC end|unrecoverable|data|status|naks|sessions COPIES FOLLOW_MS");
            System.exit(64);
        }
        final NodeConfig config =
            args[0].equals("-") ? NodeConfig.embeddedDefault() : NodeConfig.load(Path.of(args[0]));
        final TopicConfig topic = config.topic(args[1]);
        final SessionForger.Row row = SessionForger.Row.of(args[2]);
        final int copies = Integer.parseInt(args[3]);
        final SessionForger forger = new SessionForger(config.lines(topic).get(0), topic.id());
        if (row.followsASession() && !forger.follow(WAIT_MS, Long.parseLong(args[4]))) {
            System.err.println("forger: heard no session of topic '" + topic.name() + "' in " + WAIT_MS + " ms");
            System.exit(1);
        }
        long sent = 0;
        for (int copy = 0; copy < copies; copy++) {
            if (row == SessionForger.Row.NAKS && copy > 0) {
                forger.follow(WAIT_MS, REFRESH_MS);
            }
            sent += forger.send(row);
            Thread.sleep(COPY_INTERVAL_MS);
        }
        System.err.println("forger: sent " + sent + " forged " + row.name().toLowerCase(Locale.ROOT)
            + " datagrams " + (row.followsASession() ? "in the name of session " + forger.sessionId()
                + " of topic '" + topic.name() + "' (its highest sequence heard: " + forger.highestSequence() + ")"
                : "of " + SessionForger.MADE_UP_SESSIONS + " sessions it made up on topic '" + topic.name() + "'")
            + ", from a socket of its own");
    }
}
