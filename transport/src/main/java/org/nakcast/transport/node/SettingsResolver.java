package org.nakcast.transport.node;

import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

import org.agrona.BitUtil;
import org.nakcast.config.AuthKeyFile;
import org.nakcast.config.AuthKeys;
import org.nakcast.config.FlowControlMode;
import org.nakcast.config.LossPolicy;
import org.nakcast.config.NodeConfig;
import org.nakcast.config.TopicConfig;
import org.nakcast.config.TransportConfig;
import org.nakcast.transport.TransportException;
import org.nakcast.transport.media.Line;
import org.nakcast.transport.media.MulticastAddress;
import org.nakcast.transport.publish.PublicationSettings;
import org.nakcast.transport.publish.StreamTiming;
import org.nakcast.transport.receive.InboundStreamSettings;
import org.nakcast.transport.receive.SubscriptionSettings;

/**
 * Turns a node's configuration and harness into what each publisher stream and subscription needs:
 * the one place where YAML keys and knobs set in code become protocol settings, shared by a
 * {@link org.nakcast.transport.Node} and by anything else that drives the protocol classes (the
 * simulation).
 */
public final class SettingsResolver {
    private static final int MIN_REORDER_WINDOW = 256;

    private final NodeConfig config;
    private final NodeHarness harness;
    private final Map<String, AuthKeys> keysByTransport = new ConcurrentHashMap<>();

    /**
     * @param config a concluded configuration
     * @param harness the protocol's knobs set in code (the defaults for a service's node)
     */
    public SettingsResolver(NodeConfig config, NodeHarness harness) {
        this.config = config;
        this.harness = harness;
    }

    /**
     * The topic named {@code topicName}.
     *
     * @throws TransportException if the configuration has no such topic
     */
    public TopicConfig topic(String topicName) {
        try {
            return config.topic(topicName);
        } catch (IllegalArgumentException ex) {
            throw new TransportException(ex.getMessage(), ex);
        }
    }

    /**
     * The settings of a new publisher stream on {@code topicName}.
     *
     * @param sessionId the stream's session, random per start
     * @param publisherId stable across restarts of the publisher
     * @throws TransportException if there is no such topic or its interface cannot be used
     */
    public PublicationSettings publication(String topicName, int sessionId, long publisherId) {
        final TopicConfig topic = topic(topicName);
        final TransportConfig transport = config.lines(topic).get(0); // two lines agree on size and pacing
        return new PublicationSettings(
            sessionId,
            topicName,
            topic.id(),
            publisherId,
            linesOf(topic),
            protocolDatagramBytes(transport),
            topic.history().bytes(),
            transport.sendRate().bytes(),
            transport.sendBurstBytes(),
            transport.repairRateBytes(),
            transport.repairBurstBytes(),
            transport.repairPercentOfData(),
            new StreamTiming(topic.heartbeat().toNanos(), topic.linger().toNanos(), harness.retransmitHoldOffNs(),
                topic.closeLinger().toNanos()),
            topic.flowControl() == FlowControlMode.MIN,
            topic.flowControlTimeout().toNanos());
    }

    /**
     * The settings of a subscription to {@code topicName}.
     *
     * @throws TransportException if there is no such topic or its interface cannot be used
     */
    public SubscriptionSettings subscription(String topicName) {
        final TopicConfig topic = topic(topicName);
        final List<TransportConfig> transports = config.lines(topic);
        final InboundStreamSettings streamSettings = new InboundStreamSettings(
            reorderWindowCapacity(topic, transports),
            protocolDatagramBytes(transports.get(0)), // two lines agree on it
            (int) topic.maxMessage().bytes(),
            topic.lossPolicy() == LossPolicy.DROP,
            harness.nakTiming());
        return new SubscriptionSettings(
            topicName, topic.id(), linesOf(topic), topic.lineTimeout().toNanos(), streamSettings,
            topic.publisherTimeout().toNanos(), topic.lateJoin(), topic.heartbeat().toNanos(),
            topic.flowControl() == FlowControlMode.MIN ? statusKeepAliveNs(topic) : 0, topic.maxPublishers(),
            topic.deliveryQueueTimeout().toNanos(), harness.recoverySources().forTopic(topic), Map.of());
    }

    /**
     * Under flow control {@code min}, the longest a receiver goes without a STATUS: a heartbeat, or a
     * quarter of the flow-control timeout if that is shorter, so that a live receiver is dropped only
     * if four STATUS in a row are lost.
     */
    private static long statusKeepAliveNs(TopicConfig topic) {
        return Math.min(topic.heartbeat().toNanos(), topic.flowControlTimeout().toNanos() / 4);
    }

    /**
     * The longest a closing node waits for its publications: the longest close-linger of a topic,
     * plus twice its flow-control timeout under {@code min} (a silent receiver may hold the last
     * datagrams back that long, and what it was not sent yet is held for one more timeout once it
     * is dropped), plus a second to send what is queued.
     */
    public long closeWaitNs() {
        long longest = 0;
        for (TopicConfig topic : config.topics()) {
            final long flowControlNs =
                topic.flowControl() == FlowControlMode.MIN ? 2 * topic.flowControlTimeout().toNanos() : 0;
            longest = Math.max(longest, topic.closeLinger().toNanos() + flowControlNs);
        }
        return longest + 1_000_000_000L;
    }

    /**
     * The topic's reorder window, or twice the datagrams the larger receive buffer of its lines holds
     * (a repair queues behind everything in it).
     */
    private static int reorderWindowCapacity(TopicConfig topic, List<TransportConfig> lines) {
        if (topic.reorderWindow() > 0) {
            return topic.reorderWindow();
        }
        long datagramsBuffered = 0;
        for (TransportConfig line : lines) {
            datagramsBuffered =
                Math.max(datagramsBuffered, line.socketReceiveBuffer().bytes() / line.datagramSize().bytes());
        }
        return BitUtil.findNextPositivePowerOfTwo((int) Math.max(MIN_REORDER_WINDOW, 2 * datagramsBuffered));
    }

    /**
     * The lines a topic travels on, named by their transports, line A first.
     *
     * @throws TransportException if an interface does not exist or is down, naming the ones that do
     */
    private List<Line> linesOf(TopicConfig topic) {
        return config.lines(topic).stream().map(transport -> new Line(transport.name(), addressOf(transport)))
            .toList();
    }

    /**
     * The bytes of a datagram the protocol may fill: the transport's datagram size, less the trailer
     * an authenticated datagram carries.
     */
    private static int protocolDatagramBytes(TransportConfig transport) {
        return (int) transport.datagramSize().bytes() - (transport.authenticated() ? AuthKeys.TRAILER_BYTES : 0);
    }

    /**
     * The keys of an authenticated transport, read from its key file the first time a topic on it
     * is opened; null if it is not authenticated.
     *
     * @throws TransportException naming the transport and the file if the file cannot be used
     */
    private AuthKeys keysOf(TransportConfig transport) {
        if (!transport.authenticated()) {
            return null;
        }
        return keysByTransport.computeIfAbsent(transport.name(), name -> {
            try {
                return AuthKeyFile.read(Path.of(transport.authKeyFile()));
            } catch (AuthKeyFile.BadKeyFileException ex) {
                throw new TransportException("transport '" + name + "': " + ex.getMessage(), ex);
            }
        });
    }

    /**
     * Where a transport's datagrams go, on its interface.
     *
     * @throws TransportException if the interface does not exist or is down, naming the ones that do
     */
    private MulticastAddress addressOf(TransportConfig transport) {
        final String nicName = transport.networkInterface().name();
        final NetworkInterface nic;
        try {
            nic = NetworkInterface.getByName(nicName);
            if (nic == null || !nic.isUp()) {
                throw new TransportException("transport '" + transport.name() + "': interface '" + nicName
                    + (nic == null ? "' does not exist" : "' is down") + "; this machine has: " + interfaceNames());
            }
        } catch (SocketException ex) {
            throw new TransportException("transport '" + transport.name() + "': cannot read interface '"
                + nicName + "': " + ex.getMessage(), ex);
        }
        return new MulticastAddress(nic, transport.group(), transport.port(), transport.port() + 1, transport.ttl(),
            (int) transport.socketSendBuffer().bytes(), (int) transport.socketReceiveBuffer().bytes(),
            keysOf(transport), transport.encrypt());
    }

    private static String interfaceNames() {
        try {
            return Collections.list(NetworkInterface.getNetworkInterfaces()).stream()
                .map(NetworkInterface::getName).collect(Collectors.joining(", "));
        } catch (SocketException ex) {
            return "(cannot list: " + ex.getMessage() + ")";
        }
    }
}
