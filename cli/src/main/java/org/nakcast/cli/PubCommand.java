package org.nakcast.cli;

import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.nakcast.config.FlowControlMode;
import org.nakcast.config.NodeConfig;
import org.nakcast.transport.Node;
import org.nakcast.transport.OfferResult;
import org.nakcast.transport.Offers;
import org.nakcast.transport.BytePublication;
import org.nakcast.transport.status.SystemCounter;
import org.nakcast.transport.status.SystemCounters;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code nakcast pub}: publishes numbered messages on the raw byte path. */
@Command(name = "pub", sortOptions = false, mixinStandardHelpOptions = true,
    description = {
        "Publishes N messages on a topic, as raw bytes (BytePublication): the first 8 bytes of message n are n "
            + "(little-endian, 0..N-1), the rest zeros. Then it stays up for --linger seconds, answering NAKs "
            + "from its history and sending heartbeats, so subscribers can repair a lost tail.",
        "",
        "On a topic with flow control min (the default) the publisher keeps to its slowest subscriber and sends "
            + "only while one is there: start sub first; pub waits --receiver-timeout for one. On max it keeps its "
            + "own pace, whoever listens.",
        "",
        "Run it inside a network namespace or on a real LAN host; it sends multicast on the NIC the config names.",
        "",
        "Progress goes to stderr once a second: sent, back-pressured offers, NAKs received, retransmits, "
            + "unrecoverable answers (the subscribers' losses, as the publisher sees them), messages per second. "
            + "The last line of stdout is one JSON object: sessionId, sent, size, rate, seconds and "
            + "msgsPerSecond (publishing, without the linger), backPressured, naksReceived, retransmits, "
            + "unrecoverable, receiversDropped and receiversStuck (flow control min), nakOverShare (NAKs cut to "
            + "their host's repair share), authRefused (datagrams its authenticated transports dropped at the "
            + "socket), ok, reason."},
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
        "0:every message was handed to the node",
        "1:the publication refused a message, or no subscriber came (the reason is on stderr and in the JSON)",
        "2:bad command line",
        "3:could not start: config, topic or socket (the message says which)"})
final class PubCommand implements Callable<Integer> {
    private static final long SPIN_BELOW_NS = TimeUnit.MICROSECONDS.toNanos(100);

    @Spec
    CommandSpec spec;

    @Mixin
    TopicOptions topicOptions;

    @Option(names = "--count", required = true, paramLabel = "N", description = "how many messages to publish")
    long count;

    @Option(names = "--rate", paramLabel = "R", defaultValue = "0",
        description = {"messages per second; 0 publishes as fast as back-pressure allows (the transport's "
            + "send-rate still applies); default ${DEFAULT-VALUE}"})
    long rate;

    @Option(names = "--size", paramLabel = "S", defaultValue = "64",
        description = {"bytes per message, at least 8; a message longer than a datagram is sent in fragments; "
            + "default ${DEFAULT-VALUE}"})
    int size;

    @Option(names = "--linger", paramLabel = "SECONDS", defaultValue = "2",
        description = {"after the last message, stay up this long so subscribers can repair their tail; "
            + "default ${DEFAULT-VALUE}"})
    double linger;

    @Option(names = "--receiver-timeout", paramLabel = "SECONDS", defaultValue = "60",
        description = {"with flow control min (the default) the publication takes messages only while a subscriber "
            + "is there: give up when none has been for this long, at the start (time to start sub, perhaps on "
            + "another host) or after every subscriber was dropped; default ${DEFAULT-VALUE}"})
    double receiverTimeout;

    @Override
    public Integer call() throws InterruptedException {
        if (count < 1 || rate < 0 || size < StreamCheck.NUMBER_LENGTH || linger < 0 || receiverTimeout <= 0) {
            throw new ParameterException(spec.commandLine(), "need --count >= 1, --rate >= 0, --size >= "
                + StreamCheck.NUMBER_LENGTH + ", --linger >= 0, --receiver-timeout > 0");
        }
        final PrintWriter out = spec.commandLine().getOut();
        final PrintWriter err = spec.commandLine().getErr();
        final NodeConfig config = topicOptions.loadConfig();
        final String topicName = topicOptions.topicName(config);
        try (Node node = Node.launch(config)) {
            final BytePublication publication = node.newBytePublication(topicName);
            if (size > publication.maxMessageLength()) {
                throw new ParameterException(spec.commandLine(), "--size " + size + " is over the largest message "
                    + "of this publication, " + publication.maxMessageLength() + " bytes");
            }
            final SystemCounters counters = node.counters();
            final FlowControlMode flowControl = config.topic(topicName).flowControl();
            err.printf("pub: publishing %d messages of %d bytes on topic '%s' (id %d), session %d, %s, "
                    + "flow control %s%s%n", count, size, topicName, publication.topicId(), publication.sessionId(),
                rate == 0 ? "unpaced" : rate + " msgs/s", flowControl.name().toLowerCase(Locale.ROOT),
                flowControl == FlowControlMode.MIN ? ": waiting for a subscriber" : "");
            final Publisher publisher = new Publisher(publication, (long) (receiverTimeout * 1e9));
            final Progress progress = new Progress(err, () -> publisher.sent, perSecond -> String.format(
                "pub %s: sent %d/%d, back-pressured %d, NAKs received %d, retransmits %d, unrecoverable %d, "
                    + "%d msgs/s", topicName, publisher.sent, count, value(counters, SystemCounter.BACK_PRESSURE),
                value(counters, SystemCounter.NAKS_RECEIVED), value(counters, SystemCounter.RETRANSMITS_SENT),
                value(counters, SystemCounter.UNRECOVERABLE_SENT), perSecond));
            final String refusal;
            try {
                refusal = publisher.publish(count, rate, size);
                if (refusal == null) {
                    publication.flush();
                    err.printf(Locale.ROOT, "pub: %d messages sent; lingering %.1f s for repairs%n", count, linger);
                    Thread.sleep((long) (linger * 1000));
                }
            } finally {
                progress.close();
            }
            final boolean ok = refusal == null;
            final String reason = ok ? "published " + count + " messages"
                : "message " + publisher.sent + ": " + refusal;
            final AuthRefusals authRefusals = AuthRefusals.of(counters);
            if (authRefusals.total() > 0) {
                err.println("pub: " + authRefusals.describe());
            }
            err.println("pub: " + (ok ? "OK: " : "FAILED: ") + reason);
            out.println(new JsonResult().put("command", "pub").put("topic", topicName)
                .put("sessionId", publication.sessionId())
                .put("sent", publisher.sent)
                .put("size", size)
                .put("rate", rate)
                .put("seconds", JsonResult.seconds(publisher.elapsedNs))
                .put("msgsPerSecond", JsonResult.perSecond(publisher.sent, publisher.elapsedNs))
                .put("backPressured", value(counters, SystemCounter.BACK_PRESSURE))
                .put("naksReceived", value(counters, SystemCounter.NAKS_RECEIVED))
                .put("retransmits", value(counters, SystemCounter.RETRANSMITS_SENT))
                .put("unrecoverable", value(counters, SystemCounter.UNRECOVERABLE_SENT))
                .put("receiversDropped", value(counters, SystemCounter.RECEIVERS_DROPPED))
                .put("receiversStuck", value(counters, SystemCounter.RECEIVERS_STUCK))
                .put("nakOverShare", value(counters, SystemCounter.REPAIRS_OVER_SOURCE_SHARE))
                .put("authRefused", authRefusals.total())
                .put("ok", ok)
                .put("reason", reason));
            return ok ? 0 : 1;
        }
    }

    private static long value(SystemCounters counters, SystemCounter counter) {
        return counters.get(counter).get();
    }

    /**
     * The publishing loop: numbered messages, paced if asked, waiting out back-pressure and, for a
     * while, the absence of a subscriber. The clock starts at the first message taken, so waiting for
     * the first subscriber does not count against the rate.
     */
    private static final class Publisher {
        private final BytePublication publication;
        private final long receiverTimeoutNs;
        private volatile long sent;
        private long elapsedNs;

        Publisher(BytePublication publication, long receiverTimeoutNs) {
            this.publication = publication;
            this.receiverTimeoutNs = receiverTimeoutNs;
        }

        /** @return null, or why the publication refused a message for good */
        String publish(long count, long rate, int size) {
            final UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(size));
            final LongSupplier offer = () -> publication.offer(message, 0, size);
            final BackoffIdleStrategy idle = new BackoffIdleStrategy();
            final double intervalNs = rate == 0 ? 0 : 1e9 / rate;
            long startNs = System.nanoTime();
            try {
                for (long number = 0; number < count; number++) {
                    if (rate > 0) {
                        awaitDue(startNs + (long) (number * intervalNs));
                    }
                    message.putLong(0, number, ByteOrder.LITTLE_ENDIAN);
                    long result = Offers.offer(offer, idle, receiverTimeoutNs);
                    while (result == OfferResult.BACK_PRESSURED) {
                        // the pace of the slowest subscriber, or of the network: pub waits on
                        result = Offers.offer(offer, idle, receiverTimeoutNs);
                    }
                    if (result == OfferResult.NOT_CONNECTED) {
                        return String.format(Locale.ROOT, "no subscriber for %.1f s (flow control min takes messages "
                            + "only while one is there): start sub first, with the same config and topic",
                            receiverTimeoutNs / 1e9);
                    }
                    if (!OfferResult.isTaken(result)) {
                        return publication.lastRefusal();
                    }
                    if (number == 0) {
                        startNs = System.nanoTime();
                    }
                    sent = number + 1;
                }
                return null;
            } finally {
                elapsedNs = System.nanoTime() - startNs;
            }
        }

        private static void awaitDue(long dueNs) {
            long waitNs;
            while ((waitNs = dueNs - System.nanoTime()) > 0) {
                if (waitNs > SPIN_BELOW_NS) {
                    LockSupport.parkNanos(waitNs - SPIN_BELOW_NS / 2);
                } else {
                    Thread.onSpinWait();
                }
            }
        }
    }
}
