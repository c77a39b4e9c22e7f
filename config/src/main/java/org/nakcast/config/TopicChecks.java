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
 * Checks the {@code topics:} list: unique names and ids, a known transport and codec, a history
 * that holds at least one of its transport's datagrams, a positive heartbeat, publisher and
 * flow-control timeouts of at least two heartbeats, and class names that are class names.
 */
final class TopicChecks {
    /** The smallest offer buffer. */
    private static final ByteSize MIN_OFFER_BUFFER = ByteSize.parse("4k");
    /** The largest offer buffer and received message. */
    private static final ByteSize MAX_BUFFER = ByteSize.parse("1g");
    /** The largest reorder window, in datagrams. */
    private static final int MAX_REORDER_WINDOW = 1 << 20;
    /** The fewest datagrams a delivery queue must hold. */
    static final int MIN_QUEUED_DATAGRAMS = 64;
    /** The largest history: the biggest power-of-two ring an int-indexed buffer can hold. */
    static final ByteSize MAX_HISTORY = ByteSize.parse("1g");
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
            checkKnown("transport", topic.transport(), transportByName.keySet(), path);
            if (codecNames.isPresent()) {
                checkKnown("codec", topic.codec(), codecNames.get(), path);
            } else if (topic.codec() == null) {
                problems.add(KeyPaths.child(path, "codec"), "codec must be set");
            }
            checkHistory(topic.history(), transportByName.get(topic.transport()), path);
            checkDeliveryQueue(topic.deliveryQueue(), transportByName.get(topic.transport()), path);
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
            checkBuffers(topic, path);
        }
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
        if (name == null || !known.contains(name)) {
            String message = name == null ? key + " must be set" : "unknown " + key + " '" + name + "'";
            problems.add(KeyPaths.child(path, key), message,
                Spelling.hint(Objects.toString(name, ""), known, "known " + key + "s"));
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

    private void checkDeliveryQueue(ByteSize queue, TransportConfig transport, String path) {
        if (transport != null && queue.bytes() < MIN_QUEUED_DATAGRAMS * transport.datagramSize().bytes()) {
            problems.add(KeyPaths.child(path, "delivery-queue"), "delivery-queue " + queue
                + " holds fewer than " + MIN_QUEUED_DATAGRAMS + " datagrams of transport '" + transport.name() + "' ("
                + transport.datagramSize() + ")", "a queue that small stalls its streams on every datagram");
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
