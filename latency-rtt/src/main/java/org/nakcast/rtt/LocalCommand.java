package org.nakcast.rtt;

import java.util.List;
import java.util.concurrent.Callable;

import org.nakcast.config.NodeConfig;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code latency-rtt local}: pong and ping in this one process, for a quick look. */
@Command(name = "local", sortOptions = false, mixinStandardHelpOptions = true,
    description = {
        "Runs pong and ping in this process: pong on a thread of its own with its own node, ping on the main "
            + "thread with another node; they talk over the config's groups on its interface (by default lo). "
            + "Takes ping's options and reports as ping does; both sides use the same --idle, so spin wants two "
            + "free cores."},
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
        "0:measured and reported",
        "1:an echo did not come within --timeout",
        "2:bad command line",
        "3:could not start: config, topic, option value, socket or output directory (the message says which)"})
final class LocalCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    LinkOptions links;

    @Mixin
    RunOptions run;

    @Override
    public Integer call() throws InterruptedException {
        links.check();
        run.check();
        final NodeConfig config = links.loadConfig();
        final PongSession pong = new PongSession(links, config, spec.commandLine().getErr());
        final Thread pongThread = new Thread(pong, "latency-rtt-pong");
        pongThread.setDaemon(true);
        pongThread.start();
        final List<RttResult> results;
        try {
            results = PingSession.run(links, run, config, spec.commandLine().getErr());
        } finally {
            pong.stop();
            pongThread.join();
        }
        PingCommand.report(links, run, results, spec.commandLine().getOut(), spec.commandLine().getErr());
        return 0;
    }
}
