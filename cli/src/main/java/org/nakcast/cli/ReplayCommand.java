package org.nakcast.cli;

import java.io.EOFException;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Base64;
import java.util.concurrent.Callable;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.nakcast.config.Endpoint;
import org.nakcast.config.NodeConfig;
import org.nakcast.transport.replay.HoleCause;
import org.nakcast.transport.replay.ReplayClient;
import org.nakcast.transport.replay.ReplayFrame;
import org.nakcast.transport.replay.ReplayHandler;
import org.nakcast.transport.replay.ReplayRefusal;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code nakcast replay}: asks a recorder for a range of one recorded session and prints each
 * message (its index, when it was recorded, its bytes in base64) and each hole as a JSON line, in
 * order, then a result line; a refusal prints the recorder's reason and exits 1.
 */
@Command(name = "replay", mixinStandardHelpOptions = true,
    description = {"Asks a recorder for messages --from N [--to M] of one session of a topic, and prints each message"
        + " (index, when recorded, bytes in base64) and each hole (first, count, cause) as a JSON line, in order,"
        + " then a result line. A refusal (no such recording, a range it does not hold or longer than a request may"
        + " ask) prints the recorder's reason and exits 1."})
final class ReplayCommand implements Callable<Integer> {
    private static final int CONNECT_TIMEOUT_MS = 5_000;

    @Spec
    CommandSpec spec;

    @Option(names = "--config", paramLabel = "FILE",
        description = "the config that names the topic and the recorder's replay-endpoint; default the embedded one.")
    Path config;

    @Option(names = "--recorder", paramLabel = "ADDRESS:PORT",
        description = "the recorder's replay endpoint; default the config's recorder.replay-endpoint"
            + " (127.0.0.1:40480).")
    String recorder;

    @Option(names = "--topic", paramLabel = "TOPIC", required = true,
        description = "the topic, by its name in the config.")
    String topic;

    @Option(names = "--session", paramLabel = "S", required = true,
        description = "the publisher session (ops/nakcast recordings lists them).")
    int session;

    @Option(names = "--from", paramLabel = "N", required = true, description = "the first message index wanted.")
    long from;

    @Option(names = "--to", paramLabel = "M", defaultValue = "-1",
        description = "the last message index wanted (inclusive); default: what the recording holds now.")
    long to;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "10",
        description = "give up when the recorder sends nothing for this long; default ${DEFAULT-VALUE}.")
    double timeout;

    @Override
    public Integer call() throws IOException {
        if (from < 0 || (to != ReplayFrame.TO_WHAT_IS_HELD && to < from) || timeout <= 0) {
            throw new ParameterException(spec.commandLine(), "--from must not be negative, --to not below --from,"
                + " --timeout positive");
        }
        final PrintWriter out = spec.commandLine().getOut();
        final PrintWriter err = spec.commandLine().getErr();
        final NodeConfig nodeConfig = config == null ? NodeConfig.embeddedDefault() : NodeConfig.load(config);
        final int topicId = nodeConfig.topic(topic).id();
        final InetSocketAddress endpoint = recorder == null ? nodeConfig.recorder().replayEndpoint().socketAddress()
            : Endpoint.parse(recorder).socketAddress();
        final Printer printer = new Printer(out);
        try (ReplayClient client = ReplayClient.connect(endpoint, CONNECT_TIMEOUT_MS)) {
            client.request(topicId, session, from, to);
            final IdleStrategy idle = new BackoffIdleStrategy();
            long lastHeardNs = System.nanoTime();
            while (!printer.finished) {
                final int frames = client.poll(printer, 256);
                if (frames > 0) {
                    lastHeardNs = System.nanoTime();
                } else if (System.nanoTime() - lastHeardNs > (long) (timeout * 1e9)) {
                    printer.fail("TIMEOUT", "the recorder at " + written(endpoint) + " sent nothing for " + timeout
                        + " s");
                }
                idle.idle(frames);
            }
        } catch (EOFException closed) {
            printer.fail("CLOSED", "the recorder at " + written(endpoint) + " closed the connection before the replay"
                + " ended");
        }
        final JsonResult result = new JsonResult().put("command", "replay").put("topic", topic)
            .put("session", session).put("recorder", written(endpoint)).put("first", printer.first)
            .put("last", printer.last).put("messages", printer.messages).put("holes", printer.holes)
            .put("holeMessages", printer.holeMessages).put("next", printer.next).put("ok", printer.refusal == null);
        if (printer.refusal != null) {
            err.println("replay: refused (" + printer.refusal + "): " + printer.reason);
            result.put("refusal", printer.refusal).put("reason", printer.reason);
        } else {
            err.printf("replay: %d messages and %d holes (%d messages) of %d..%d%n", printer.messages, printer.holes,
                printer.holeMessages, printer.first, printer.last);
        }
        out.println(result);
        return printer.refusal == null ? 0 : 1;
    }

    /** {@code 127.0.0.1:40480}, as a config writes it. */
    private static String written(InetSocketAddress endpoint) {
        return new Endpoint(endpoint.getAddress(), endpoint.getPort()).toString();
    }

    /** Prints each answer as a JSON line, and keeps the figures of the result. */
    private static final class Printer implements ReplayHandler {
        private final PrintWriter out;
        private final Base64.Encoder base64 = Base64.getEncoder();
        long first = -1;
        long last = -1;
        long next = -1;
        long messages;
        long holes;
        long holeMessages;
        String refusal;
        String reason;
        boolean finished;

        Printer(PrintWriter out) {
            this.out = out;
        }

        @Override
        public void onAccepted(long requestId, long firstMessage, long lastMessage) {
            first = firstMessage;
            last = lastMessage;
        }

        @Override
        public void onMessage(long messageIndex, DirectBuffer buffer, int offset, int length, long recordedAtNs) {
            final byte[] bytes = new byte[length];
            buffer.getBytes(offset, bytes);
            out.printf("{\"index\":%d,\"recordedAt\":\"%s\",\"length\":%d,\"base64\":\"%s\"}%n", messageIndex,
                Instant.ofEpochSecond(0, recordedAtNs), length, base64.encodeToString(bytes));
            messages++;
        }

        @Override
        public void onHole(long firstMessage, long count, HoleCause cause) {
            out.printf("{\"hole\":{\"first\":%d,\"count\":%d,\"cause\":\"%s\",\"reason\":\"%s\"}}%n", firstMessage,
                count, cause, cause.reason());
            holes++;
            holeMessages += count;
        }

        @Override
        public void onDone(long requestId, long nextMessageIndex) {
            next = nextMessageIndex;
            finished = true;
        }

        @Override
        public void onRefused(long requestId, ReplayRefusal why, String sentence) {
            fail(why.name(), sentence);
        }

        void fail(String why, String sentence) {
            refusal = why;
            reason = sentence;
            finished = true;
        }
    }
}
