package org.nakcast.rtt;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.concurrent.Callable;

import org.nakcast.config.ConfigException;
import org.nakcast.transport.TransportException;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The {@code latency-rtt} tool: what a round trip over nakcast costs, percentile by percentile.
 * {@code pong} echoes, {@code ping} sends, waits for each echo and records the round trip into
 * HdrHistogram; {@code local} runs both in one process for a quick look. With
 * {@code --baseline raw-udp} the same ping-pong also runs over two bare UDP sockets, so the report
 * shows what nakcast adds to the floor of this network; with {@code --peer NAME} it runs over
 * another messaging system too, one found on the class path ({@link RttPath}).
 *
 * <pre>
 *   hostA$ latency-rtt pong --config lan.yaml --baseline raw-udp
 *   hostB$ latency-rtt ping --config lan.yaml --baseline raw-udp
 *   latency-rtt local --baseline raw-udp --idle spin
 * </pre>
 */
@Command(name = "latency-rtt", mixinStandardHelpOptions = true, version = "latency-rtt 0.1.0",
    subcommands = {PingCommand.class, PongCommand.class, LocalCommand.class},
    description = {
        "Measures round trips over nakcast: ping sends a message, pong echoes it, ping records the round trip "
            + "(HdrHistogram, 1 ns to 10 s, 3 significant digits). Start pong first, then ping, with the same "
            + "--config, topics, --size, --baseline, --peer, --media and --auth; or run `local` for both in one "
            + "process.",
        "",
        "Each side is one thread that drives its own node (threading invoker) and waits with --idle: with spin, "
            + "give each side a core.",
        "",
        "Runs in the caller's network namespace and sends multicast on the NIC the config names; without "
            + "--config the embedded default: interface lo, TTL 0."},
    footer = {"", "Examples:",
        "  latency-rtt local --baseline raw-udp --idle spin",
        "  latency-rtt local --baseline raw-udp --peer aeron --idle spin    (with the peers' jar: ops/latency-peers)",
        "  latency-rtt local --media nio,native    nakcast on nio, then on native (JDK 22+), and the ratio",
        "  hostA$ latency-rtt pong --config lan.yaml",
        "  hostB$ latency-rtt ping --config lan.yaml --rate 10000 --duration 30"})
public final class LatencyRtt implements Callable<Integer> {
    /** Exit code when an echo did not come in time. */
    public static final int FAILED = 1;
    /** Exit code when the config, a topic, an option value or a socket is wrong. */
    public static final int CANNOT_START = 3;

    @Spec
    CommandSpec spec;

    /** Without a subcommand: prints the usage to stderr, and answers a bad command line. */
    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return spec.exitCodeOnInvalidInput();
    }

    /**
     * Runs {@code latency-rtt ping|pong|local ...} and exits with its code.
     *
     * @param args the command line
     */
    public static void main(String[] args) {
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
        System.exit(run(System.out, System.err, args));
    }

    /**
     * Runs {@code latency-rtt ping|pong|local ...} in this JVM.
     *
     * @param out where the report (and help) go; its last line is the JSON result
     * @param err where progress and errors go
     * @param args the command line
     * @return the exit code: 0 success, 1 an echo did not come, 2 a bad command line, 3 could not start
     */
    public static int run(PrintStream out, PrintStream err, String... args) {
        return commandLine(out, err).execute(args);
    }

    /** The command line, writing to {@code out} and {@code err}. */
    static CommandLine commandLine(PrintStream out, PrintStream err) {
        final CommandLine commandLine = new CommandLine(new LatencyRtt());
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        commandLine.setExecutionExceptionHandler((ex, failed, parseResult) -> {
            final String prefix = "latency-rtt " + failed.getCommandName() + ": ";
            if (ex instanceof ConfigException || ex instanceof TransportException
                || ex instanceof IllegalArgumentException || ex instanceof UncheckedIOException) {
                failed.getErr().println(prefix + "cannot start: " + ex.getMessage());
                return CANNOT_START;
            }
            if (ex instanceof IllegalStateException) {
                failed.getErr().println(prefix + "FAILED: " + ex.getMessage());
                return FAILED;
            }
            throw ex;
        });
        return commandLine;
    }
}
