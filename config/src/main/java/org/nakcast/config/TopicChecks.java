package org.nakcast.config;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Checks the {@code topics:} list: unique names and ids, a known transport (or two lines) and
 * codec, a history that holds at least one of its transport's datagrams, a delivery queue that
 * holds its datagrams and carries its {@code max-message} ({@link DeliveryQueueSize}), a positive
 * heartbeat, publisher and flow-control timeouts of at least two heartbeats, and class names that
 * are class names.
 *
 * <p>A topic on two lines ({@code transports:}) names exactly two distinct, known transports that
 * differ in interface or group (else one fault takes both), and that agree on what shapes the one
 * stream sent on both: {@code datagram-size} (each datagram must fit both lines) and the pacing
 * keys {@code send-rate}, {@code send-burst} and {@code repair-rate} (the stream is paced once).
 * Nothing more is needed to keep streams apart: transports never share a group and port
 * ({@link TransportChecks}), and topics that share a transport, as a line or alone, are told apart
 * by topic id. Its {@code line-timeout} is positive and below its publisher timeout; on a topic of
 * one line that key is refused, as it would mean nothing there.
 */
final class TopicChecks {
    /** The smallest offer buffer. */
    private static final ByteSize MIN_OFFER_BUFFER = ByteSize.parse("4k");
    /** The largest offer buffer and received message. */
    private static final ByteSize MAX_BUFFER = ByteSize.parse("1g");
    /** The largest reorder window, in datagrams. */
    private static final int MAX_REORDER_WINDOW = 1 << 20;
    /** The largest history: the biggest power-of-two ring an int-indexed buffer can hold. */
    static final ByteSize MAX_HISTORY = ByteSize.parse("1g");
    /** How a topic names its transport, for the problems of {@code transport} and {@code transports}. */
    private static final String ONE_OR_TWO_LINES =
        "write transport: <name> for one line, or transports: [<line A>, <line B>] for two";
    /** Why two lines agree on their pacing keys. */
    private static final String PACED_ONCE = "the topic's one stream is paced once and sent on both lines: give both"
        + " transports the same value";
    private static final Pattern BINARY_CLASS_NAME =
        Pattern.compile("\\p{javaJavaIdentifierStart}\\p{javaJavaIdentifierPart}*"
            + "(\\.\\p{javaJavaIdentifierStart}\\p{javaJavaIdentifierPart}*)*");

    private final Optional<Set<String>> codecNames;
    private final ProblemList problems;

    TopicChecks(Optional<Set<String>> codecNames, ProblemList problems) {
        this.codecNames = codecNames;
        this.problems = problems;
    }

    void check(List<TopicConfig> topics, List<TransportConfig> transports) {
        Map<String, TransportConfig> transportByName = new HashMap<>();
        transports.stream().filter(Objects::nonNull).filter(transport -> transport.name() != null)
            .forEach(transport -> transportByName.putIfAbsent(transport.name(), transport));
        Map<String, String> pathByName = new HashMap<>();
        Map<Integer, String> pathById = new HashMap<>();
        for (int i = 0; i < topics.size(); i++) {
            String path = KeyPaths.element("topics", i);
            TopicConfig topic = topics.get(i);
            if (topic == null) {
                problems.add(path, "empty entry in topics");
                continue;
            }
            checkName(topic.name(), path, pathByName);
            checkId(topic.id(), path, pathById);
            final TransportConfig transport = checkLines(topic, path, transportByName);
            checkLineTimeout(topic, path);
            if (codecNames.isPresent()) {
                checkKnown("codec", topic.codec(), codecNames.get(), path);
            } else if (topic.codec() == null) {
                problems.add(KeyPaths.child(path, "codec"), "codec must be set");
            }
            checkHistory(topic.history(), transport, path);
            checkDeliveryQueue(topic, transport, path);
            if (topic.closeLinger().isNegative()) {
                problems.add(KeyPaths.child(path, "close-linger"), "close-linger must not be negative (was "
                    + Durations.format(topic.closeLinger()) + ")");
            }
            if (topic.deliveryQueueTimeout().isNegative()) {
                problems.add(KeyPaths.child(path, "delivery-queue-timeout"), "delivery-queue-timeout must not be"
                    + " negative (was " + Durations.format(topic.deliveryQueueTimeout()) + ")");
            }
            if (topic.heartbeat().isNegative() || topic.heartbeat().isZero()) {
                problems.add(KeyPaths.child(path, "heartbeat"),
                    "heartbeat must be positive (was " + Durations.format(topic.heartbeat()) + ")");
            } else {
                checkAtLeastTwoHeartbeats(topic, "publisher-timeout", topic.publisherTimeout(), path,
                    "one late heartbeat ends a live stream");
                checkAtLeastTwoHeartbeats(topic, "flow-control-timeout", topic.flowControlTimeout(), path,
                    "one late status drops a live receiver");
            }
            if (topic.maxPublishers() < 1) {
                problems.add(KeyPaths.child(path, "max-publishers"),
                    "max-publishers must be at least 1 (was " + topic.maxPublishers() + ")");
            }
            checkClassNames(topic.allowedClasses(), KeyPaths.child(path, "allowed-classes"));
            checkRecorders(topic.recorders(), KeyPaths.child(path, "recorders"));
            checkBuffers(topic, path);
        }
    }

    /**
     * Checks the topic's {@code transport} or {@code transports}: both bind to its lines, so the
     * source tells which key was written (a config built in code names its lines in a list, one or
     * two), and a list under {@code transport} is refused.
     *
     * @return the transport of its one line or line A, if known; else null
     */
    private TransportConfig checkLines(TopicConfig topic, String path, Map<String, TransportConfig> transportByName) {
        final String onePath = KeyPaths.child(path, "transport");
        final String twoPath = KeyPaths.child(path, "transports");
        final boolean wroteOne = problems.source().hasKey(onePath);
        final boolean wroteTwo = problems.source().hasKey(twoPath);
        final List<String> lines = topic.lines();
        if (wroteOne && wroteTwo) {
            problems.add(twoPath, "topic " + quoted(topic.name()) + " has both transport and transports",
                ONE_OR_TWO_LINES);
            return null;
        }
        if (wroteOne && lines.size() > 1) {
            problems.add(onePath, "transport names one transport (was " + lines.size() + ": " + lines + ")",
                ONE_OR_TWO_LINES);
            return null;
        }
        if (!wroteTwo && lines.size() < 2) {
            if (lines.isEmpty() || lines.get(0) == null) {
                problems.add(onePath, "transport must be set", ONE_OR_TWO_LINES);
                return null;
            }
            checkKnown("transport", lines.get(0), transportByName.keySet(), path);
            return transportByName.get(lines.get(0));
        }
        if (lines.size() != TopicConfig.MAX_LINES) {
            problems.add(twoPath, "transports must name exactly two transports, line A and line B (was "
                + lines.size() + ": " + lines + ")", lines.size() == 1
                ? "for one line write transport: " + lines.get(0)
                : "a topic travels on one transport or on two lines");
            return null;
        }
        for (int i = 0; i < lines.size(); i++) {
            checkKnown(KeyPaths.element(twoPath, i), "transport", lines.get(i), transportByName.keySet());
        }
        final TransportConfig lineA = transportByName.get(lines.get(0));
        final TransportConfig lineB = transportByName.get(lines.get(1));
        if (lineA != null && lineA.name().equals(lines.get(1))) {
            problems.add(KeyPaths.element(twoPath, 1), "topic " + quoted(topic.name()) + " names transport '"
                + lineA.name() + "' twice in transports", "line A and line B are two transports, on different"
                + " interfaces or groups");
        } else if (lineA != null && lineB != null) {
            checkLinesDiffer(topic, twoPath, lineA, lineB);
        }
        return lineA;
    }

    /** Two lines that one fault cannot take both of, and that carry the same stream alike. */
    private void checkLinesDiffer(TopicConfig topic, String twoPath, TransportConfig lineA, TransportConfig lineB) {
        final String both = "lines '" + lineA.name() + "' and '" + lineB.name() + "' of topic "
            + quoted(topic.name());
        final NetworkInterfaceRef nicA = lineA.networkInterface();
        final NetworkInterfaceRef nicB = lineB.networkInterface();
        if (nicA != null && nicB != null && nicA.isResolved() && nicA.name().equals(nicB.name())
            && Objects.equals(lineA.group(), lineB.group())) {
            problems.add(twoPath, both + " share interface '" + nicA.name() + "' and group "
                + lineA.group().getHostAddress(), "redundant lines must differ in interface or group, or one fault"
                + " takes both");
        }
        checkSame("datagram-size", lineA.datagramSize(), lineB.datagramSize(), both, twoPath,
            "each datagram of the topic's one sequence space is sent on both lines, so it must fit both: give both"
                + " transports the same datagram-size");
        checkSame("send-rate", lineA.sendRate(), lineB.sendRate(), both, twoPath, PACED_ONCE);
        checkSame("send-burst", lineA.sendBurst(), lineB.sendBurst(), both, twoPath, PACED_ONCE);
        checkSame("repair-rate", lineA.repairRate(), lineB.repairRate(), both, twoPath, PACED_ONCE);
    }

    private void checkSame(String key, ByteSize lineA, ByteSize lineB, String both, String twoPath, String hint) {
        if (!lineA.equals(lineB)) {
            problems.add(twoPath, both + " have different " + key + " (" + lineA + " and " + lineB + ")", hint);
        }
    }

    private void checkLineTimeout(TopicConfig topic, String path) {
        final String timeoutPath = KeyPaths.child(path, "line-timeout");
        final Duration timeout = topic.lineTimeout();
        if (!topic.hasTwoLines()) {
            if (problems.source().hasKey(timeoutPath) || !timeout.equals(TopicConfig.DEFAULT_LINE_TIMEOUT)) {
                problems.add(timeoutPath, "line-timeout is for topics on two lines; topic " + quoted(topic.name())
                    + " has one", "leave it out, or name two lines with transports: [<line A>, <line B>]");
            }
        } else if (timeout.isNegative() || timeout.isZero()) {
            problems.add(timeoutPath, "line-timeout must be positive (was " + Durations.format(timeout) + ")");
        } else if (timeout.compareTo(topic.publisherTimeout()) >= 0) {
            problems.add(timeoutPath, "line-timeout " + Durations.format(timeout) + " must be less than"
                + " publisher-timeout (" + Durations.format(topic.publisherTimeout()) + ")",
                "a stream silent on both lines that long is a publisher gone, not a line down");
        }
    }

    private static String quoted(String name) {
        return "'" + name + "'";
    }

    private void checkAtLeastTwoHeartbeats(
        TopicConfig topic, String key, Duration timeout, String path, String otherwise) {
        if (timeout.compareTo(topic.heartbeat().multipliedBy(2)) < 0) {
            problems.add(KeyPaths.child(path, key), key + " must be at least twice the heartbeat ("
                + Durations.format(topic.heartbeat()) + "), or " + otherwise + " (was " + Durations.format(timeout)
                + ")");
        }
    }

    private void checkName(String name, String path, Map<String, String> pathByName) {
        String namePath = KeyPaths.child(path, "name");
        if (name == null || name.isBlank()) {
            problems.add(namePath, "topic name must not be empty");
            return;
        }
        String earlier = pathByName.putIfAbsent(name, path);
        if (earlier != null) {
            problems.add(namePath, "duplicate topic name '" + name + "'", earlier + " has it too");
        }
    }

    private void checkId(int id, String path, Map<Integer, String> pathById) {
        String idPath = KeyPaths.child(path, "id");
        if (id < 1) {
            problems.add(idPath, "topic id must be in 1.." + Integer.MAX_VALUE + " (was " + id + ")");
            return;
        }
        String earlier = pathById.putIfAbsent(id, path);
        if (earlier != null) {
            problems.add(idPath, "duplicate topic id " + id, earlier + " has it too");
        }
    }

    private void checkKnown(String key, String name, Set<String> known, String path) {
        checkKnown(KeyPaths.child(path, key), key, name, known);
    }

    private void checkKnown(String keyPath, String kind, String name, Set<String> known) {
        if (name == null || !known.contains(name)) {
            String message = name == null ? kind + " must be set" : "unknown " + kind + " '" + name + "'";
            problems.add(keyPath, message, Spelling.hint(Objects.toString(name, ""), known, "known " + kind + "s"));
        }
    }

    /** The offer buffer, the largest received message, the reorder window and the linger. */
    private void checkBuffers(TopicConfig topic, String path) {
        final long offerBuffer = topic.offerBuffer().bytes();
        if (offerBuffer < MIN_OFFER_BUFFER.bytes() || offerBuffer > MAX_BUFFER.bytes()) {
            problems.add(KeyPaths.child(path, "offer-buffer"), "offer-buffer must be " + MIN_OFFER_BUFFER + " to "
                + MAX_BUFFER + " (was " + topic.offerBuffer() + ")", "an eighth of it is the largest message");
        }
        if (topic.maxMessage().isZero() || topic.maxMessage().bytes() > MAX_BUFFER.bytes()) {
            problems.add(KeyPaths.child(path, "max-message"), "max-message must be 1 to " + MAX_BUFFER + " bytes (was "
                + topic.maxMessage() + ")");
        }
        final int window = topic.reorderWindow();
        if (window < 0 || window > MAX_REORDER_WINDOW || window != 0 && Integer.bitCount(window) != 1) {
            problems.add(KeyPaths.child(path, "reorder-window"), "reorder-window must be 0 or a power of two up to "
                + MAX_REORDER_WINDOW + " datagrams (was " + window + ")", "0 sizes it from socket-receive-buffer");
        }
        if (topic.linger().isNegative()) {
            problems.add(KeyPaths.child(path, "linger"), "linger must not be negative (was "
                + Durations.format(topic.linger()) + ")");
        }
    }

    /**
     * The delivery queue holds the topic's datagrams and carries its longest message, by the one rule
     * of {@link DeliveryQueueSize}: a queue that breaks either is one problem, whose hint sizes a queue
     * that keeps both.
     */
    private void checkDeliveryQueue(TopicConfig topic, TransportConfig transport, String path) {
        if (transport == null) {
            return;
        }
        final ByteSize queue = topic.deliveryQueue();
        final long datagram = transport.datagramSize().bytes();
        final long largest = DeliveryQueueSize.largestMessage(queue.bytes(), datagram);
        final String ofTransport = " of transport '" + transport.name() + "' (" + transport.datagramSize() + ")";
        final long carriable = Math.min(topic.maxMessage().bytes(),
            DeliveryQueueSize.largestMessage(DeliveryQueueSize.MAX_RING_BYTES, datagram));
        final boolean someQueueCarriesIt = carriable == topic.maxMessage().bytes();
        final String raise = "raise delivery-queue to at least "
            + new ByteSize(DeliveryQueueSize.smallestQueue(carriable, datagram));
        final String remedy = someQueueCarriesIt ? raise
            : "no queue carries max-message " + topic.maxMessage() + ": lower it to " + new ByteSize(carriable)
                + " and " + raise;
        if (queue.bytes() < DeliveryQueueSize.MIN_DATAGRAMS * datagram) {
            problems.add(KeyPaths.child(path, "delivery-queue"), "delivery-queue " + queue + " holds fewer than "
                + DeliveryQueueSize.MIN_DATAGRAMS + " datagrams" + ofTransport,
                "a queue that small stalls its streams on every datagram: " + remedy);
        } else if (largest < topic.maxMessage().bytes()) {
            problems.add(KeyPaths.child(path, "delivery-queue"), "delivery-queue " + queue + " carries messages of at"
                + " most " + new ByteSize(largest) + " beside datagrams" + ofTransport + ", less than max-message "
                + topic.maxMessage(), "a subscription that polls could not take the longest messages: " + remedy
                + (someQueueCarriesIt ? ", or lower max-message to " + new ByteSize(largest) : ""));
        }
    }

    private void checkHistory(ByteSize history, TransportConfig transport, String path) {
        String historyPath = KeyPaths.child(path, "history");
        if (history.isZero()) {
            problems.add(historyPath, "history must be positive (was 0)");
        } else if (history.compareTo(MAX_HISTORY) > 0) {
            problems.add(historyPath, "history must be at most " + MAX_HISTORY + " (was " + history + ")");
        } else if (transport != null && history.compareTo(transport.datagramSize()) < 0) {
            problems.add(historyPath, "history " + history + " is smaller than one datagram of transport '"
                + transport.name() + "' (" + transport.datagramSize() + ")",
                "history must hold at least one datagram to answer a NAK");
        }
    }

    /** Checks {@code recorders}: at most two (A and B), each given once. */
    private void checkRecorders(List<Endpoint> recorders, String path) {
        if (recorders.size() > TopicConfig.MAX_RECORDERS) {
            problems.add(path, "recorders names at most two recorders, A and B (was " + recorders.size() + ")",
                "a subscriber asks recorder A, then B: list the two that record this topic");
        }
        for (int i = 0; i < recorders.size(); i++) {
            if (recorders.get(i) == null) {
                problems.add(KeyPaths.element(path, i), "empty entry in recorders", "write address:port");
            } else if (recorders.indexOf(recorders.get(i)) < i) {
                problems.add(KeyPaths.element(path, i), "recorder " + recorders.get(i) + " is listed twice",
                    "list each recorder once: B is asked what A cannot serve");
            }
        }
    }

    private void checkClassNames(List<String> classNames, String listPath) {
        for (int i = 0; i < classNames.size(); i++) {
            String className = classNames.get(i);
            if (className == null || !BINARY_CLASS_NAME.matcher(className).matches()) {
                problems.add(KeyPaths.element(listPath, i), "'" + className + "' is not a class name",
                    "write the binary name, e.g. org.example.PriceUpdate or org.example.Outer$Inner");
            }
        }
    }
}
