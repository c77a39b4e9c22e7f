package org.nakcast.rtt;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

import org.nakcast.config.NodeConfig;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code latency-rtt ping}: sends pings, waits for each echo, records and reports the round trips. */
@Command(name = "ping", sortOptions = false, mixinStandardHelpOptions = true,
    description = {
        "Sends pings on --ping-topic, waits for each echo on --pong-topic and records the round trip. Start "
            + "`pong` first, with the same --config, topics, --size, --baseline, --peer, --media and --auth. With "
            + "--baseline raw-udp the bare UDP ping-pong runs first, then each --peer, then nakcast on each --media "
            + "(nio first), each without and then with --auth.",
        "",
        "Writes PREFIX-<path>.hlog (interval log, 1 s intervals, nanoseconds), PREFIX-<path>.hgrm (percentile "
            + "distribution, microseconds) and PREFIX.png (percentile plot, every path on one chart) into --output. "
            + "Prints the percentiles (p50, p90, p99, p99.9, p99.99, max, in microseconds); the last line of "
            + "stdout is one JSON object: size, mode, idle, lines, loss, then the last nakcast phase's count, "
            + "p50Us .. p9999Us, maxUs, gcCount, naksSent (NAKs over the phase, warm-up included) and media; with a "
            + "baseline the same figures prefixed `baseline` and ratioP50 .. ratioP9999, ratioMax (nakcast / "
            + "raw-udp); with peers, `peers`: an object per peer with the same figures and ratios (nakcast / peer); "
            + "nakcast's other phases, an object each named for what sets it apart from the last: `nio` (with "
            + "--media nio,native: the ratios are native / nio), `unauthenticated` (--auth), `nioUnauthenticated`."},
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
        "0:measured and reported",
        "1:an echo did not come within --timeout (is pong running, with the same options?)",
        "2:bad command line",
        "3:could not start: config, topic, option value, socket or output directory (the message says which)"})
final class PingCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    LinkOptions links;

    @Mixin
    RunOptions run;

    @Override
    public Integer call() {
        links.check(false);
        run.check(links.rounds);
        final NodeConfig config = links.loadConfig();
        final List<RttResult> results = PingSession.run(links, run, config, spec.commandLine().getErr());
        report(links, run, 0, results, spec.commandLine().getOut(), spec.commandLine().getErr());
        return 0;
    }

    /**
     * Writes the files, prints the table, then the JSON line last.
     *
     * @param loss the kernel's loss on each of nakcast's transports ({@code local --loss}), 0 for none
     */
    static void report(LinkOptions links, RunOptions run, double loss, List<RttResult> results, PrintWriter out,
        PrintWriter err) {
        final RttReport report = new RttReport(links.size, run.mode(), links.idle, links.lines, loss, links.rounds,
            results);
        final Path png = ReportFiles.write(report, run, "latency-rtt: " + links.size + "-byte round trips, "
            + run.mode() + ", idle " + links.idle);
        err.printf("ping: wrote %s and the .hgrm and .hlog files beside it%n", png);
        out.print(report.table());
        out.println("plot: " + png);
        out.println(report.json(png.toString()));
        out.flush();
    }
}
