package org.nakcast.transport.receive;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;

import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.nakcast.config.LateJoinPolicy;
import org.nakcast.transport.PublisherGone;
import org.nakcast.transport.StreamEventListener;
import org.nakcast.transport.StreamStarted;
import org.nakcast.transport.lossinjection.LossGenerator;
import org.nakcast.transport.media.Line;
import org.nakcast.transport.media.MulticastAddress;
import org.nakcast.transport.media.NioMedia;
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
        final MulticastAddress address = onLo("239.255.10.2", PORT);
        final ReceiverAgent agent = newAgent();
        try (DatagramChannel sender = senderTo(address)) {
            for (int topic = 1; topic <= 2; topic++) {
                agent.addSubscription(new SubscriptionSettings(
                    "topic-" + topic, topic, List.of(new Line("md", address)), 0, InboundStreamSettings.DEFAULTS,
                    1_000_000_000L, LateJoinPolicy.NOW, 100_000_000L, 0, 64, 0, List.of(), Map.of()),
                    DeliveryTarget.onReceivingThread((buffer, offset, length, header) -> { },
                        StreamEventListener.NONE));
            }
            sender.send(heartbeat(5, 1), new InetSocketAddress(address.group(), PORT));

            driveUntil(agent, () -> counters.get(SystemCounter.DATAGRAMS_RECEIVED) > 0);
            Thread.sleep(50);
            agent.doWork();

            assertThat(counters.get(SystemCounter.DATAGRAMS_RECEIVED)).as("datagrams read").isEqualTo(1);
        } finally {
            agent.onClose();
        }
    }

    @Test
    void aTopicKeepsAtMostMaxPublishersStreamsYetHearsARestartAndTakesANewOneWhenOneEnds() throws Exception {
        final MulticastAddress address = onLo("239.255.10.3", PORT + 2);
        final ReceiverAgent agent = newAgent();
        final List<Integer> started = new CopyOnWriteArrayList<>();
        final List<PublisherGone> gone = new CopyOnWriteArrayList<>();
        final StreamEventListener events = new StreamEventListener() {
            @Override
            public void onStreamStarted(StreamStarted event) {
                started.add(event.sessionId());
            }

            @Override
            public void onPublisherGone(PublisherGone event) {
                gone.add(event);
            }
        };
        final InetSocketAddress group = new InetSocketAddress(address.group(), address.dataPort());
        // Each publisher on a host of its own (a host holds at most half of max-publishers streams);
        // publisher 1100 comes back on its host from a new socket.
        try (DatagramChannel host11 = senderTo(address, "127.0.0.11");
            DatagramChannel host12 = senderTo(address, "127.0.0.12");
            DatagramChannel host13 = senderTo(address, "127.0.0.13");
            DatagramChannel host11Again = senderTo(address, "127.0.0.11")) {
            final DatagramChannel[] hosts = {host11, host12, host13};
            agent.addSubscription(new SubscriptionSettings("prices", 1, List.of(new Line("md", address)), 0,
                InboundStreamSettings.DEFAULTS,
                1_000_000_000L, LateJoinPolicy.NOW, 10_000_000L, 0, 2, 0, List.of(), Map.of()),
                DeliveryTarget.onReceivingThread((buffer, offset, length, header) -> { }, events));
            for (int session = 11; session <= 13; session++) {
                hosts[session - 11].send(heartbeat(session, session * 100L), group);
            }
            driveUntil(agent, () -> counters.get(SystemCounter.DATAGRAMS_RECEIVED) == 3);

            assertThat(started).as("streams started").containsExactly(11, 12);
            assertThat(counters.get(SystemCounter.PUBLISHER_STREAMS_REFUSED)).as("datagrams refused").isEqualTo(1);

            final long silentSinceNs = System.nanoTime();
            driveUntil(agent, () -> System.nanoTime() - silentSinceNs > 200_000_000L);
            // Session 14 of publisher 1100 began 50 ms ago, after session 11 fell silent, and has been
            // going for more than two heartbeats (10 ms): a restart.
            host11Again.send(heartbeat(14, 1100L, 50_000_000L), group);
            driveUntil(agent, () -> started.size() == 3);

            assertThat(started).as("publisher 1100 restarted as session 14").containsExactly(11, 12, 14);
            assertThat(gone).singleElement().satisfies(event -> {
                assertThat(event.sessionId()).isEqualTo(11);
                assertThat(event.cause()).isEqualTo(PublisherGone.Cause.RESTARTED);
            });

            driveUntil(agent, () -> gone.size() == 3);
            host13.send(heartbeat(13, 1300L), group);
            driveUntil(agent, () -> started.size() == 4);

            assertThat(gone).extracting(PublisherGone::sessionId).as("silent streams ended")
                .containsExactly(11, 12, 14);
            assertThat(started).as("the refused session, once there is room").containsExactly(11, 12, 14, 13);
            assertThat(counters.get(SystemCounter.PUBLISHER_STREAMS_REFUSED)).isEqualTo(1);
        } finally {
            agent.onClose();
        }
    }

    /** A group on lo: data on {@code dataPort}, control on the port after it, TTL 0, 1 MiB buffers. */
    private static MulticastAddress onLo(String group, int dataPort) throws Exception {
        return new MulticastAddress(NetworkInterface.getByName("lo"), InetAddress.getByName(group), dataPort,
            dataPort + 1, 0, 1 << 20, 1 << 20, null, false);
    }

    private ReceiverAgent newAgent() {
        return new ReceiverAgent(SystemNanoClock.INSTANCE, new NioMedia(), counters.counters(), LossGenerator.NONE,
            name -> LossGenerator.NONE,
            new ReceiveDispatcher(counters.counters(), 1, 1, ReceiverLog.NONE, error -> { }));
    }

    /** A socket that sends to {@code address}'s groups out of its interface, TTL 0. */
    private static DatagramChannel senderTo(MulticastAddress address) throws Exception {
        return senderTo(address, null);
    }

    /** A socket that multicasts on {@code address}'s interface, from {@code host} (an address of lo) if given. */
    private static DatagramChannel senderTo(MulticastAddress address, String host) throws Exception {
        final DatagramChannel sender = DatagramChannel.open(StandardProtocolFamily.INET);
        try {
            sender.setOption(StandardSocketOptions.IP_MULTICAST_IF, address.networkInterface());
            sender.setOption(StandardSocketOptions.IP_MULTICAST_TTL, 0);
            if (host != null) {
                sender.bind(new InetSocketAddress(InetAddress.getByName(host), 0));
            }
            return sender;
        } catch (Exception ex) {
            sender.close();
            throw ex;
        }
    }

    /** Runs the agent until {@code done} holds, failing after 5 s. */
    private static void driveUntil(ReceiverAgent agent, BooleanSupplier done) throws Exception {
        final long deadlineMs = System.currentTimeMillis() + 5_000;
        while (!done.getAsBoolean()) {
            assertThat(System.currentTimeMillis()).as("waited 5 s").isLessThan(deadlineMs);
            agent.doWork();
            Thread.sleep(1);
        }
    }

    private static ByteBuffer heartbeat(int sessionId, long publisherId) {
        return heartbeat(sessionId, publisherId, 0);
    }

    /** A heartbeat of a session {@code ageNs} old that has sent nothing yet. */
    private static ByteBuffer heartbeat(int sessionId, long publisherId, long ageNs) {
        final ByteBuffer bytes = ByteBuffer.allocateDirect(HeartbeatFlyweight.HEARTBEAT_LENGTH);
        final HeartbeatFlyweight heartbeat = new HeartbeatFlyweight();
        heartbeat.wrap(new UnsafeBuffer(bytes), 0);
        heartbeat.writeHeader(FrameType.HEARTBEAT, HeartbeatFlyweight.HEARTBEAT_LENGTH, sessionId, 1, -1);
        heartbeat.oldestSequence(0);
        heartbeat.publisherId(publisherId).sessionAgeNs(ageNs);
        return bytes;
    }
}
