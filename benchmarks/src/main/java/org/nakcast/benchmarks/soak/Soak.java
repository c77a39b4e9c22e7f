package org.nakcast.benchmarks.soak;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

import org.nakcast.benchmarks.child.ChildJvm;
import org.nakcast.benchmarks.child.ChildProtocol;
import org.nakcast.benchmarks.child.Figures;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ops/soak}: one publisher host and three subscriber hosts on a simulated LAN
 * ({@code ops/lan}), for a while, with trouble on purpose:
 *
 * <pre>
 *   host 1  publisher      restarted (stopped, started again: a new session) at half time
 *   host 2  subscriber     runs throughout
 *   host 3  subscriber     runs throughout; its kernel drops a share of the UDP it receives (iptables)
 *   host 4  subscriber     killed (SIGKILL) at a third of the time, started again soon after
 * </pre>
 *
 * At the end each surviving subscriber reports what it got of every publisher session and the
 * run is judged ({@link SoakVerdict}): a table per host, the publishers' figures, and a JSON line.
 * Exit status 0 when every host got what it owed, 1 when not, 2 when the run could not be made.
 */
@Command(name = "ops/soak", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
    description = "Soak on a simulated LAN: 1 publisher host (restarted once), 3 subscriber hosts (one with "
        + "kernel loss, one killed and restarted); a report of what each got, and a JSON line.")
public final class Soak implements Callable<Integer> {
    private static final int PUBLISHER_HOST = 1;
    private static final int STEADY_HOST = 2;
    private static final int LOSSY_HOST = 3;
    private static final int RESTARTED_HOST = 4;
    private static final String TOPIC = "soak";
    private static final int MESSAGE_LENGTH = 70;
    private static final long START_TIMEOUT_SECONDS = 60;
    private static final long REPORT_TIMEOUT_SECONDS = 60;
    private static final long DRAIN_MS = 2_000;
    private static final double SHORT_SECONDS = 40;

    @Option(names = "--minutes", paramLabel = "M", defaultValue = "10",
        description = "How long the publisher publishes, in minutes; default ${DEFAULT-VALUE}.")
    double minutes;

    @Option(names = "--short", description = "A " + (int) SHORT_SECONDS + " s run (what the system test runs).")
    boolean shortRun;

    @Option(names = "--rate", paramLabel = "MSGS", defaultValue = "20000",
        description = "Messages per second the publisher sends (70 bytes each); default ${DEFAULT-VALUE}.")
    long rate;

    @Option(names = "--loss", paramLabel = "F", defaultValue = "0.02",
        description = "Share of UDP datagrams host " + LOSSY_HOST + "'s kernel drops; default ${DEFAULT-VALUE}.")
    double loss;

    @Option(names = "--lan", paramLabel = "SCRIPT", defaultValue = "ops/lan",
        description = "The simulated-LAN script; default ${DEFAULT-VALUE}.")
    Path lanScript;

    private final PrintStream out;
    private final PrintStream log;

    Soak(PrintStream out, PrintStream log) {
        this.out = out;
        this.log = log;
    }

    /**
     * Runs a soak and exits with its status.
     *
     * @param args the options; {@code --help} lists them
     */
    public static void main(String[] args) {
        System.exit(run(System.out, System.err, args));
    }

    /** Runs a soak with these options; returns the exit status. */
    static int run(PrintStream out, PrintStream log, String... args) {
        return new CommandLine(new Soak(out, log)).setOut(new java.io.PrintWriter(out, true))
            .setErr(new java.io.PrintWriter(log, true)).execute(args);
    }

    @Override
    public Integer call() throws Exception {
        if (rate < 1 || loss < 0 || loss >= 1 || seconds() < 6) {
            log.println("ops/soak: --rate must be positive, --loss in [0, 1), the run at least 6 s");
            return 64;
        }
        final Path configs = Files.createTempDirectory("nakcast-soak");
        try (SimulatedLan lan = SimulatedLan.up(lanScript, RESTARTED_HOST)) {
            if (loss > 0) {
                lan.loss(LOSSY_HOST, loss);
            }
            return report(soak(lan, configs));
        } catch (IllegalStateException | ChildJvm.ChildFailedException ex) {
            log.println("ops/soak: the run could not be made: " + ex.getMessage());
            return 2;
        } finally {
            SoakConfig.delete(configs);
        }
    }

    private double seconds() {
        return shortRun ? SHORT_SECONDS : minutes * 60;
    }

    /** The run itself; returns what each side reported. */
    private Outcome soak(SimulatedLan lan, Path configs) throws IOException, InterruptedException {
        final long runMs = (long) (seconds() * 1000);
        final List<ChildJvm> subscribers = new ArrayList<>();
        final List<Figures> publishers = new ArrayList<>();
        try {
            for (int host = STEADY_HOST; host <= RESTARTED_HOST; host++) {
                subscribers.add(startSubscriber(lan, configs, host));
            }
            ChildJvm publisher = startPublisher(lan, configs);
            final long startMs = System.currentTimeMillis();
            progress(startMs, "publisher 1 publishing at " + rate + " msgs/s for " + (long) seconds() + " s; host "
                + LOSSY_HOST + " drops " + loss + " of what it receives");

            sleepUntil(startMs + runMs / 3);
            subscribers.get(RESTARTED_HOST - STEADY_HOST).close();
            progress(startMs, "host " + RESTARTED_HOST + "'s subscriber killed (SIGKILL)");
            sleepUntil(startMs + runMs / 3 + Math.max(1_000, runMs / 20));
            subscribers.set(RESTARTED_HOST - STEADY_HOST, startSubscriber(lan, configs, RESTARTED_HOST));
            progress(startMs, "host " + RESTARTED_HOST + "'s subscriber started again (late join: now)");

            sleepUntil(startMs + runMs / 2);
            publishers.add(stop(publisher, "publisher 1"));
            publisher = startPublisher(lan, configs);
            progress(startMs, "publisher restarted: a new session");

            sleepUntil(startMs + runMs);
            publishers.add(stop(publisher, "publisher 2"));
            progress(startMs, "publisher stopped; subscribers drain for " + DRAIN_MS + " ms");
            Thread.sleep(DRAIN_MS);
            final List<Figures> reports = new ArrayList<>();
            for (ChildJvm subscriber : subscribers) {
                subscriber.tell(ChildProtocol.STOP);
                reports.add(Figures.parse(subscriber.await(ChildProtocol.RESULT, REPORT_TIMEOUT_SECONDS)));
                subscriber.awaitExit(REPORT_TIMEOUT_SECONDS);
            }
            return new Outcome(publishers, reports);
        } finally {
            subscribers.forEach(ChildJvm::close);
        }
    }

    private ChildJvm startSubscriber(SimulatedLan lan, Path configs, int host) throws IOException,
        InterruptedException {
        final Path config = SoakConfig.write(configs, "soak-subscriber-" + host, TOPIC);
        final ChildJvm subscriber = ChildJvm.startThrough(lan.on(host), "subscriber-" + host,
            SoakSubscriberMain.class, List.of(config.toString(), TOPIC), log);
        subscriber.await(ChildProtocol.READY, START_TIMEOUT_SECONDS);
        return subscriber;
    }

    private ChildJvm startPublisher(SimulatedLan lan, Path configs) throws IOException, InterruptedException {
        final Path config = SoakConfig.write(configs, "soak-publisher", TOPIC);
        final ChildJvm publisher = ChildJvm.startThrough(lan.on(PUBLISHER_HOST), "publisher",
            SoakPublisherMain.class, List.of(config.toString(), TOPIC, Long.toString(rate),
                Integer.toString(MESSAGE_LENGTH)), log);
        publisher.await(ChildProtocol.READY, START_TIMEOUT_SECONDS);
        return publisher;
    }

    private static Figures stop(ChildJvm publisher, String name) throws IOException, InterruptedException {
        try (publisher) {
            publisher.tell(ChildProtocol.STOP);
            final Figures figures = Figures.parse(publisher.await(ChildProtocol.RESULT,
                SoakPublisherMain.REPAIR_SECONDS + REPORT_TIMEOUT_SECONDS));
            publisher.awaitExit(REPORT_TIMEOUT_SECONDS);
            return figures;
        }
    }

    private int report(Outcome outcome) {
        final List<SoakVerdict.PublisherSession> sessions = outcome.publishers.stream()
            .map(figures -> new SoakVerdict.PublisherSession((int) figures.longValue("session"),
                figures.longValue("sent")))
            .toList();
        final List<SoakVerdict.HostSubscriber> hosts = new ArrayList<>();
        for (int i = 0; i < outcome.subscribers.size(); i++) {
            final int host = STEADY_HOST + i;
            hosts.add(new SoakVerdict.HostSubscriber(host, host == RESTARTED_HOST,
                SoakFigures.sessions(outcome.subscribers.get(i))));
        }
        final List<SoakVerdict.HostOutcome> verdict = SoakVerdict.judge(sessions, hosts);
        final boolean ok = verdict.stream().allMatch(SoakVerdict.HostOutcome::ok);
        SoakReport.print(out, seconds(), rate, loss, outcome.publishers, verdict, outcome.subscribers, ok);
        return ok ? 0 : 1;
    }

    private static void sleepUntil(long epochMs) throws InterruptedException {
        final long waitMs = epochMs - System.currentTimeMillis();
        if (waitMs > 0) {
            TimeUnit.MILLISECONDS.sleep(waitMs);
        }
    }

    private void progress(long startMs, String what) {
        log.printf(Locale.ROOT, "[%6.1f s] %s%n", (System.currentTimeMillis() - startMs) / 1000.0, what);
    }

    /** What the publishers and the surviving subscribers (hosts 2, 3, 4 in order) reported. */
    private record Outcome(List<Figures> publishers, List<Figures> subscribers) {
    }
}
