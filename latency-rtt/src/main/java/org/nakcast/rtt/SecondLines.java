package org.nakcast.rtt;

import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import org.nakcast.config.NodeConfig;
import org.nakcast.config.TopicConfig;
import org.nakcast.config.TransportConfig;

/**
 * Puts topics of one line on two ({@code --lines 2} of {@code ops/latency-rtt} and
 * {@code ops/throughput}): each topic keeps its transport as line A, and gets as line B a copy of
 * it named {@code NAME-b}, on the same interface with the same settings, {@value #GROUP_STEP}
 * groups up and {@value #PORT_STEP} ports up. Four groups up keeps an odd group odd and leaves the
 * next group up free (a peer such as Aeron sends control there); twenty ports up clears the ports
 * the measured paths take from line A's port (nakcast's data and control, the raw-udp baseline,
 * Aeron: {@code +0} to {@code +3}) and the embedded latency-rtt config's second transport ten
 * ports up. Topics that share a transport share its line B.
 */
public final class SecondLines {
    /** Line B's group is line A's plus this. */
    static final int GROUP_STEP = 4;
    /** Line B's port is line A's plus this. */
    static final int PORT_STEP = 20;
    /** What line B's transport's name adds to line A's. */
    static final String SUFFIX = "-b";

    private SecondLines() {
    }

    /**
     * The config with each named topic on two lines.
     *
     * @param config a concluded config
     * @param topicNames topics of {@code config}, each on one line
     * @return the concluded config with the line B transports added and the topics on both lines
     * @throws IllegalArgumentException if a topic is already on two lines or line B's group or port
     *     would leave their ranges
     * @throws org.nakcast.config.ConfigException if nakcast refuses the result (line B's group and
     *     port taken by another transport, say)
     */
    public static NodeConfig add(NodeConfig config, Collection<String> topicNames) {
        final List<TransportConfig> transports = new ArrayList<>(config.transports());
        final List<TopicConfig> topics = new ArrayList<>();
        for (TopicConfig topic : config.topics()) {
            if (!topicNames.contains(topic.name())) {
                topics.add(topic);
                continue;
            }
            if (topic.hasTwoLines()) {
                throw new IllegalArgumentException("topic '" + topic.name() + "' already travels on two lines in the"
                    + " config: leave out --lines");
            }
            final TransportConfig lineA = config.lines(topic).get(0);
            final String lineB = lineA.name() + SUFFIX;
            if (transports.stream().noneMatch(transport -> transport.name().equals(lineB))) {
                transports.add(lineB(lineA, lineB));
            }
            topics.add(topic.withLines(lineA.name(), lineB));
        }
        return new NodeConfig(config.node(), transports, topics).conclude();
    }

    private static TransportConfig lineB(TransportConfig lineA, String name) {
        final int port = lineA.port() + PORT_STEP;
        if (port + 1 > 65_535) {
            throw new IllegalArgumentException("line B of transport '" + lineA.name() + "' would need port " + port
                + ": give line A a lower port");
        }
        return new TransportConfig(name, lineA.networkInterface(), groupUp(lineA.group()), port, lineA.ttl(),
            lineA.datagramSize(), lineA.socketSendBuffer(), lineA.socketReceiveBuffer(), lineA.sendRate(),
            lineA.sendBurst(), lineA.repairRate(), lineA.authKeyFile(), lineA.encrypt());
    }

    /** {@code group} plus {@link #GROUP_STEP}, in the same family. */
    static InetAddress groupUp(InetAddress group) {
        final byte[] bytes = group.getAddress();
        final byte[] up = new BigInteger(1, bytes).add(BigInteger.valueOf(GROUP_STEP)).toByteArray();
        final byte[] sized = new byte[bytes.length];
        final int copied = Math.min(up.length, sized.length);
        System.arraycopy(up, up.length - copied, sized, sized.length - copied, copied);
        try {
            final InetAddress result = InetAddress.getByAddress(sized);
            if (!result.isMulticastAddress() || up.length > bytes.length && up[0] != 0) {
                throw new IllegalArgumentException("line B's group, " + GROUP_STEP + " up from "
                    + group.getHostAddress() + ", is not a multicast group: give line A a lower group");
            }
            return result;
        } catch (UnknownHostException ex) {
            throw new IllegalArgumentException("no address of " + sized.length + " bytes", ex);
        }
    }
}
