package org.nakcast.cli;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.concurrent.Callable;

import org.nakcast.config.ConfigException;
import org.nakcast.transport.TransportException;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The {@code nakcast} command: {@code pub} and {@code sub}, the multicast equivalent of {@code nc};
 * {@code stat} and {@code errors}, which read the counters files of the nodes on this host;
 * {@code check-host}, which checks this host's settings against a config; {@code record}, which
 * records the topics a config marks to disk, {@code recordings}, which lists what a recording
 * directory holds, {@code replay}, which asks a recorder for a range of a recorded session, and
 * {@code keygen}, which writes a key file for a transport's authenticated datagrams.
 * {@code pub} sends numbered messages on a topic's raw byte path, {@code sub} receives them and
 * checks that each arrived exactly once and in order, so two hosts (or two namespaces) can tell
 * whether nakcast works between them, and how fast. Both print progress to stderr and end with one
 * JSON object on stdout. They send on whatever network the caller runs them in.
 *
 * <pre>
 *   ops/nakcast sub --expect 100000 &amp;
 *   ops/nakcast pub --count 100000
 * </pre>
 */
@Command(name = "nakcast", mixinStandardHelpOptions = true, version = "nakcast 0.1.0",
    subcommands = {PubCommand.class, SubCommand.class, StatCommand.class, ErrorsCommand.class,
        CheckHostCommand.class, RecordCommand.class, RecordingsCommand.class, ReplayCommand.class,
        KeygenCommand.class},
    description = {
        "Publishes and checks numbered messages over nakcast: the multicast equivalent of nc. "
            + "Start `sub` first, then `pub` with the same config and topic.",
        "",
        "Run it inside a network namespace or on a real LAN host; sends multicast on the NIC the config names. "
            + "Without --config both use the embedded default: interface lo, TTL 0."},
    footer = {"", "Example, two terminals on one host or two hosts of one LAN, same config:",
        "  nakcast sub --config lan.yaml --expect 1000000",
        "  nakcast pub --config lan.yaml --count 1000000 --rate 200000"})
public final class Nakcast implements Callable<Integer> {
    /** Exit code when the config, topic or a socket is wrong. */
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
     * Runs {@code nakcast pub|sub ...} and exits with its code.
     *
     * @param args the command line
     */
    public static void main(String[] args) {
        System.exit(run(System.out, System.err, args));
    }

    /**
     * Runs {@code nakcast pub|sub ...} in this JVM.
     *
     * @param out where the result line (and help) go
     * @param err where progress and errors go
     * @param args the command line
     * @return the exit code: 0 success, 1 the command failed, 2 a bad command line, 3 could not start
     */
    public static int run(PrintStream out, PrintStream err, String... args) {
        return commandLine(out, err).execute(args);
    }

    /** The command line, writing to {@code out} and {@code err}; for tests that read the help. */
    static CommandLine commandLine(PrintStream out, PrintStream err) {
        final CommandLine commandLine = new CommandLine(new Nakcast());
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        commandLine.setExecutionExceptionHandler((ex, failed, parseResult) -> {
            if (ex instanceof ConfigException || ex instanceof TransportException
                || ex instanceof IllegalArgumentException) {
                failed.getErr().println("nakcast " + failed.getCommandName() + ": cannot start: " + ex.getMessage());
                return CANNOT_START;
            }
            throw ex;
        });
        return commandLine;
    }
}
