package org.nakcast.transport.receive;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;

import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.nakcast.config.LateJoinPolicy;
import org.nakcast.transport.StreamEventListener;
import org.nakcast.transport.loss.LossGenerator;
import org.nakcast.transport.media.MulticastAddress;
import org.nakcast.transport.protocol.FrameType;
import org.nakcast.transport.protocol.HeartbeatFlyweight;
import org.nakcast.transport.status.SystemCounter;
import org.nakcast.transport.testing.TestCounters;

/** The receiving agent over real sockets on lo. */
class ReceiverAgentSocketsIT {
    private static final int PORT = 41_020;

    private final TestCounters counters = new TestCounters();

    @Test
    void subscriptionsToTwoTopicsOfOneTransportShareItsSockets() throws Exception {
        final MulticastAddress address = new MulticastAddress(NetworkInterface.getByName("lo"),
            InetAddress.getByName("239.255.10.2"), PORT, PORT + 1, 0, 1 << 20, 1 << 20);
        final ReceiverAgent agent = new ReceiverAgent(
            SystemNanoClock.INSTANCE, counters.counters(), LossGenerator.NONE, LossGenerator.NONE, 1);
        try (DatagramChannel sender = DatagramChannel.open(StandardProtocolFamily.INET)) {
            for (int topic = 1; topic <= 2; topic++) {
                agent.addSubscription(new SubscriptionSettings(
                    "topic-" + topic, topic, address, InboundStreamSettings.DEFAULTS,
                    1_000_000_000L, LateJoinPolicy.NOW, 100_000_000L, 0),
                    (buffer, offset, length, header) -> { }, new StreamEventListener() { }, DeliveryGate.OPEN);
            }
            sender.setOption(StandardSocketOptions.IP_MULTICAST_IF, address.networkInterface());
            sender.setOption(StandardSocketOptions.IP_MULTICAST_TTL, 0);
            sender.send(heartbeat(), new InetSocketAddress(address.group(), PORT));

            final long deadlineMs = System.currentTimeMillis() + 2_000;
            while (counters.get(SystemCounter.DATAGRAMS_RECEIVED) == 0 && System.currentTimeMillis() < deadlineMs) {
                agent.doWork();
                Thread.sleep(1);
            }
            Thread.sleep(50);
            agent.doWork();

            assertThat(counters.get(SystemCounter.DATAGRAMS_RECEIVED)).as("datagrams read").isEqualTo(1);
        } finally {
            agent.onClose();
        }
    }

    private static ByteBuffer heartbeat() {
        final ByteBuffer bytes = ByteBuffer.allocateDirect(HeartbeatFlyweight.HEARTBEAT_LENGTH);
        final HeartbeatFlyweight heartbeat = new HeartbeatFlyweight();
        heartbeat.wrap(new UnsafeBuffer(bytes), 0);
        heartbeat.writeHeader(FrameType.HEARTBEAT, HeartbeatFlyweight.HEARTBEAT_LENGTH, 5, 1, -1);
        heartbeat.oldestSequence(0);
        return bytes;
    }
}
