package org.nakcast.benchmarks.throughput;

import java.nio.file.Path;
import java.time.Duration;

import org.nakcast.config.Durations;
import org.nakcast.config.NodeConfig;
import org.nakcast.config.TopicConfig;

/**
 * A stranger on its own, for drills against a running publisher ({@code ops/fault-drills nak-flood}):
 * learns the session of a topic off the data port, then NAKs its whole history every interval for at
 * most SECONDS, and says how many NAKs it sent when it stops.
 *
 * <pre>
 *   StrangerNaksMain CONFIG|- TOPIC INTERVAL SECONDS     (- for the embedded default config)
 * </pre>
 */
public final class StrangerNaksMain {
    private StrangerNaksMain() {
    }

    /** Runs the stranger. */
    public static void main(String[] args) throws InterruptedException {
        if (args.length != 4) {
            System.err.println("usage: StrangerNaksMain CONFIG|- TOPIC INTERVAL SECONDS");
            System.exit(64);
        }
        final NodeConfig config =
            args[0].equals("-") ? NodeConfig.embeddedDefault() : NodeConfig.load(Path.of(args[0]));
        final TopicConfig topic = config.topic(args[1]);
        final Duration interval = Durations.parse(args[2]);
        final StrangerNaks stranger =
            StrangerNaks.start(config.lines(topic).get(0), topic.id(), interval, System.err);
        // Said when the time is up or when the stranger is stopped early (SIGTERM), whichever comes first.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            stranger.close();
            System.err.println("stranger: sent " + stranger.naksSent() + " forged NAKs for the whole history of topic"
                + " '" + topic.name() + "', one every " + args[2]);
        }));
        Thread.sleep(Long.parseLong(args[3]) * 1_000);
    }
}
