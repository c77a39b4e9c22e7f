package org.nakcast.rtt;

import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code latency-rtt pong}: echoes every ping until the ping side is done. */
@Command(name = "pong", sortOptions = false, mixinStandardHelpOptions = true,
    description = {
        "Echoes every message of --ping-topic back on --pong-topic, byte for byte, until the ping side ends its "
            + "run (then exits 0), or until interrupted. Start it before `ping`, with the same --config, topics, "
            + "--size, --baseline, --peer, --media and --auth (with --baseline raw-udp it echoes over bare UDP first, "
            + "then over each --peer, then over nakcast on each --media, each without and then with --auth)."},
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
        "0:the ping side ended its run",
        "1:interrupted before the ping side was done",
        "2:bad command line",
        "3:could not start: config, topic, option value or socket (the message says which)"})
final class PongCommand implements Callable<Integer> {
    private static final long SHUTDOWN_WAIT_MS = 1000;

    @Spec
    CommandSpec spec;

    @Mixin
    LinkOptions links;

    @Override
    public Integer call() throws InterruptedException {
        links.check(false);
        final PongSession session = new PongSession(links, links.loadConfig(), spec.commandLine().getErr());
        final Thread main = Thread.currentThread();
        // On an interrupt (SIGINT, SIGTERM): stop echoing and give the node a moment to close. Never
        // join without a limit: after a normal end the main thread itself is in System.exit, running this hook.
        final Thread hook = new Thread(() -> {
            if (!session.completed()) {
                session.stop();
                try {
                    main.join(SHUTDOWN_WAIT_MS);
                } catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                }
            }
        }, "latency-rtt-pong-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        session.run();
        return session.completed() ? 0 : LatencyRtt.FAILED;
    }
}
