package org.nakcast.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

import org.nakcast.config.LateJoinPolicy;
import org.nakcast.config.NodeConfig;
import org.nakcast.config.TopicConfig;
import org.nakcast.transport.Delivery;
import org.nakcast.transport.Node;
import org.nakcast.transport.status.SystemCounter;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code nakcast sub}: receives the numbered messages of {@code nakcast pub} and checks them. */
@Command(name = "sub", sortOptions = false, mixinStandardHelpOptions = true,
    description = {
        "Receives the messages of `nakcast pub` on a topic and checks that every one of 0..N-1 arrives exactly "
            + "once and in order. Start it before pub: a subscriber that was there before the publisher began is "
            + "owed every message from the first; one started later begins at the live edge, or with --from-start "
            + "at the session's first message, what the publisher no longer holds coming from the topic's recorders.",
        "",
        "Run it inside a network namespace or on a real LAN host; it joins the multicast group (and sends its "
            + "NAKs) on the NIC the config names.",
        "",
        "Progress goes to stderr once a second: received, lost (messages in loss events), duplicates, out of "
            + "order, gaps (loss events), messages per second. The last line of stdout is one JSON object: "
            + "expected, received, missing, lost, gaps, duplicates, outOfOrder, outOfRange, tooShort, "
            + "otherSessions, streamDropped, recoveries and recovered (runs and messages that came from the "
            + "recorders) and recoverySeconds (first message to the last that came from them), publishersGone (each "
            + "publisher stream that ended: session, cause "
            + "SILENT, RESTARTED or ENDED, silentMs, newSession), resumes (times the checked session was heard again "
            + "after falling silent), lineEvents (on a topic of two lines, each line that went "
            + "down or came up again: line, state, forMs), seconds and msgsPerSecond (first to last message), ok, "
            + "reason.",
        "",
        "It stops waiting as soon as the checked publisher restarted under a new session or ended its stream: "
            + "messages still missing then fail the check with that reason. A publisher silent past the topic's "
            + "publisher-timeout (paused, say) is reported and waited for until --timeout without a new message: "
            + "the transport resumes its stream where it left off when it is heard again.",
        "",
        "Messages lost because the publisher no longer held them are laid at the topic's flow control, and the "
            + "reason says which: under max the publisher does not wait for receivers and outran this one (use min, "
            + "the default, or pace it); under min it stopped waiting for this one, silent past flow-control-timeout."},
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
        "0:every message arrived exactly once and in order",
        "1:the check failed; the reason is on stderr and in the JSON",
        "2:bad command line",
        "3:could not start: config, topic or socket (the message says which)"})
final class SubCommand implements Callable<Integer> {
    private static final long POLL_MS = 5;

    @Spec
    CommandSpec spec;

    @Mixin
    TopicOptions topicOptions;

    @Option(names = "--expect", required = true, paramLabel = "N",
        description = "how many messages to expect, numbered 0..N-1 (at most 2147483647)")
    long expect;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "10",
        description = {"once messages flow, give up after this long without a new one; default ${DEFAULT-VALUE}"})
    double timeout;

    @Option(names = "--start-timeout", paramLabel = "SECONDS", defaultValue = "60",
        description = {"give up if the first message has not come after this long (time to start pub, "
            + "perhaps on another host); default ${DEFAULT-VALUE}"})
    double startTimeout;

    @Option(names = "--from-start",
        description = {"want the whole session even when started after it began (late-join: session-start): what "
            + "the publisher no longer holds comes from the recorders the topic names (recorders:), and is a loss "
            + "without them"})
    boolean fromStart;

    @Option(names = "--linger", paramLabel = "SECONDS", defaultValue = "0.5",
        description = {"once every message is in, keep listening this long for duplicates or messages beyond N; "
            + "default ${DEFAULT-VALUE}"})
    double linger;

    @Override
    public Integer call() throws InterruptedException {
        if (expect < 1 || expect > Integer.MAX_VALUE) {
            throw new ParameterException(spec.commandLine(), "--expect must be in 1..2147483647, was " + expect);
        }
        if (timeout <= 0 || startTimeout <= 0 || linger < 0) {
            throw new ParameterException(spec.commandLine(),
                "--timeout and --start-timeout must be positive, --linger not negative");
        }
        final PrintWriter out = spec.commandLine().getOut();
        final PrintWriter err = spec.commandLine().getErr();
        final NodeConfig loaded = topicOptions.loadConfig();
        final String topicName = topicOptions.topicName(loaded);
        final NodeConfig config = fromStart ? fromTheSessionStart(loaded, topicName) : loaded;
        final TopicConfig topic = config.topic(topicName);
        final StreamCheck check = new StreamCheck(expect, topic);
        final boolean timedOut;
        final long wrongSource;
        final long refusedStreamDatagrams;
        final AuthRefusals authRefusals;
        try (Node node = Node.launch(config)) {
            node.newByteSubscription(topicName, check, check, Delivery.ON_RECEIVING_THREAD);
            err.printf("sub: listening on topic '%s' (id %d, flow control %s, loss policy %s) of node %s; "
                    + "expecting %d messages%n", topicName, topic.id(),
                topic.flowControl().name().toLowerCase(Locale.ROOT), topic.lossPolicy().name().toLowerCase(Locale.ROOT),
                config.node().name(), expect);
            final Progress progress = new Progress(err, check::received, perSecond -> String.format(
                "sub %s: received %d/%d, lost %d, duplicates %d, out of order %d, gaps %d, %d msgs/s",
                topicName, check.received(), expect, check.lost(), check.duplicates(), check.outOfOrder(),
                check.gaps(), perSecond));
            try {
                timedOut = !awaitEnd(check);
            } finally {
                progress.close();
            }
            wrongSource = node.counters().get(SystemCounter.WRONG_SOURCE).get();
            authRefusals = AuthRefusals.of(node.counters());
            refusedStreamDatagrams = node.counters().get(SystemCounter.PUBLISHER_STREAMS_REFUSED).get();
        }
        final List<String> problems = check.problems(timedOut, check.received() > 0 ? timeout : startTimeout);
        final boolean ok = problems.isEmpty();
        final String reason = ok ? "all " + expect + " messages arrived exactly once and in order"
            : String.join("; ", problems);
        check.lossDescriptions().forEach(description -> err.println("sub: loss: " + description));
        check.publisherGoneDescriptions().forEach(description -> err.println("sub: publisher gone: " + description));
        if (check.recoveries() > 0) {
            err.println("sub: " + check.recovered() + " messages its publisher no longer held came from the recorders ("
                + check.recoveries() + " recoveries), then the live stream");
        }
        if (check.resumes() > 0) {
            err.println("sub: the publisher was heard again " + check.resumes() + " times after falling silent, and"
                + " its stream went on where it left off");
        }
        check.lineEventDescriptions().forEach(description -> err.println("sub: line event: " + description));
        if (wrongSource > 0) {
            err.println("sub: dropped " + wrongSource + " datagrams in a session's name from another address or port"
                + " than its publisher's (datagrams from a wrong source): another host sends in its name");
        }
        if (authRefusals.total() > 0) {
            err.println("sub: " + authRefusals.describe());
        }
        err.println("sub: " + (ok ? "OK: " : "FAILED: ") + reason);
        final JsonResult result = new JsonResult().put("command", "sub").put("topic", topicName);
        check.putFigures(result);
        result.put("wrongSource", wrongSource).put("authRefused", authRefusals.total())
            .put("refusedStreamDatagrams", refusedStreamDatagrams);
        out.println(result.put("ok", ok).put("reason", reason));
        return ok ? 0 : 1;
    }

    /** The config with {@code topicName} wanting every session whole: {@code late-join: session-start}. */
    private static NodeConfig fromTheSessionStart(NodeConfig config, String topicName) {
        return new NodeConfig(config.node(), config.transports(), config.topics().stream()
            .map(topic -> topic.name().equals(topicName) ? topic.withLateJoin(LateJoinPolicy.SESSION_START) : topic)
            .toList(), config.recorder()).conclude();
    }

    /**
     * Waits until every message is in (then lingers), the stream ends (dropped, or its publisher
     * gone), or no new message came for the timeout (the start timeout before the first).
     *
     * @return false if it timed out
     */
    private boolean awaitEnd(StreamCheck check) throws InterruptedException {
        final long startNs = System.nanoTime();
        while (!check.complete() && !check.ended()) {
            final long lastNs = check.lastNs();
            final boolean started = check.received() > 0;
            final long waitedNs = System.nanoTime() - (started ? lastNs : startNs);
            if (waitedNs > (long) ((started ? timeout : startTimeout) * 1e9)) {
                return false;
            }
            Thread.sleep(POLL_MS);
        }
        if (check.complete()) {
            TimeUnit.NANOSECONDS.sleep((long) (linger * 1e9));
        }
        return true;
    }
}
