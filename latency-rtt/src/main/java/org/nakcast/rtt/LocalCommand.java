package org.nakcast.rtt;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import org.nakcast.config.NodeConfig;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
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

    @Option(names = "--loss", paramLabel = "FRACTION", defaultValue = "0",
        description = {"fraction of nakcast's datagrams the kernel drops on receipt, on each transport the two topics "
            + "travel on independently (with --lines 2 on each line: 0.01 loses 1%% on each and about 0.01%% on both): "
            + "one iptables rule per transport in this network namespace, matching its group and its data and "
            + "control ports, so the baseline and the peers lose nothing. Needs root in the namespace "
            + "(ops/latency-rtt runs as root); default ${DEFAULT-VALUE}"})
    double loss;

    @Override
    public Integer call() throws InterruptedException {
        links.check(true);
        run.check(links.rounds);
        if (!(loss >= 0 && loss < 1)) {
            throw new IllegalArgumentException("--loss must be at least 0 and below 1 (was " + loss + ")");
        }
        final NodeConfig config = links.loadConfig();
        final List<RttResult> measured;
        final PrintWriter err = spec.commandLine().getErr();
        try (KernelLoss kernelLoss = KernelLoss.perTransport(loss, links.topicTransports(config))) {
            measured = measure(config, err);
            if (loss > 0) {
                err.printf(Locale.ROOT, "local: the kernel dropped %d datagrams (%.2f%% on each of %d transports)%n",
                    kernelLoss.dropped(), loss * 100, links.topicTransports(config).size());
            }
        }
        PingCommand.report(links, run, loss, measured, spec.commandLine().getOut(), err);
        return 0;
    }

    /** Runs pong on a thread and ping on this one; each result with both sides' NAKs. */
    private List<RttResult> measure(NodeConfig config, PrintWriter err) throws InterruptedException {
        final PongSession pong = new PongSession(links, config, err);
        final Thread pongThread = new Thread(pong, "latency-rtt-pong");
        pongThread.setDaemon(true);
        pongThread.start();
        final List<RttResult> results;
        try {
            results = PingSession.run(links, run, config, err);
        } finally {
            pong.stop();
            pongThread.join();
        }
        return results.stream().map(result -> result.plusNaks(pong.naksSent(result.link()))).toList();
    }
}
