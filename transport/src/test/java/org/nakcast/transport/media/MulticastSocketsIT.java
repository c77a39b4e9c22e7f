package org.nakcast.transport.media;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;

import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersManager;
import org.junit.jupiter.api.Test;
import org.nakcast.transport.TransportException;
import org.nakcast.transport.status.SystemCounter;
import org.nakcast.transport.status.SystemCounters;

class MulticastSocketsIT {
    private final SystemCounters counters = new SystemCounters(new CountersManager(
        new UnsafeBuffer(ByteBuffer.allocateDirect(64 * 1024)),
        new UnsafeBuffer(ByteBuffer.allocateDirect(16 * 1024))));

    private static MulticastAddress address(int port) throws Exception {
        return new MulticastAddress(NetworkInterface.getByName("lo"), InetAddress.getByName("239.255.10.1"),
            port, port + 1, 0, 1 << 20, 1 << 20, null, false);
    }

    @Test
    void everyReceiverOnTheGroupGetsItsOwnCopy() throws Exception {
        final MulticastAddress address = address(41_000);
        try (MulticastReceiver first = new MulticastReceiver(address, 41_000, counters);
            MulticastReceiver second = new MulticastReceiver(address, 41_000, counters);
            MulticastSender sender = new MulticastSender(address, 41_000, counters)) {
            final UnsafeBuffer datagram = new UnsafeBuffer(ByteBuffer.allocateDirect(64));
            datagram.putLong(8, 0x1234_5678_9ABCL);

            assertThat(sender.send(datagram, 8, 8)).isTrue();

            for (MulticastReceiver receiver : new MulticastReceiver[] {first, second}) {
                assertThat(receiveWithin(receiver, 2_000)).isEqualTo(8);
                assertThat(receiver.buffer().getLong(0)).isEqualTo(0x1234_5678_9ABCL);
            }
            assertThat(counters.get(SystemCounter.DATAGRAMS_SENT).get()).isEqualTo(1);
            assertThat(counters.get(SystemCounter.DATAGRAMS_RECEIVED).get()).isEqualTo(2);
        }
    }

    @Test
    void eachDatagramTellsItsSendersAddressAndPort() throws Exception {
        final MulticastAddress address = address(41_020);
        try (DatagramReceiver receiver = new MulticastReceiver(address, 41_020, counters);
            DatagramChannel one = senderBoundTo(41_020 + 10);
            DatagramChannel other = senderBoundTo(41_020 + 11)) {
            final InetSocketAddress group = new InetSocketAddress(address.group(), 41_020);
            for (int i = 0; i < 4; i++) {
                (i % 2 == 0 ? one : other).send(ByteBuffer.wrap(new byte[] {(byte) i}), group);
            }
            final DatagramSource first = new DatagramSource();
            for (int i = 0; i < 4; i++) {
                assertThat(receiveWithin(receiver, 2_000)).isOne();
                assertThat(receiver.source()).hasToString("127.0.0.1:" + (41_020 + 10 + i % 2));
                if (i == 0) {
                    first.copy(receiver.source());
                }
                assertThat(receiver.source().sameAs(first)).as("datagram %d", i).isEqualTo(i % 2 == 0);
            }
        }
    }

    /** A plain socket on 127.0.0.1:{@code port} that sends to groups on lo. */
    private static DatagramChannel senderBoundTo(int port) throws Exception {
        final DatagramChannel channel = DatagramChannel.open(StandardProtocolFamily.INET);
        channel.setOption(StandardSocketOptions.IP_MULTICAST_IF, NetworkInterface.getByName("lo"));
        channel.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        return channel;
    }

    @Test
    void aPortHeldWithoutAddressReuseIsAClearError() throws Exception {
        final MulticastAddress address = address(41_010);
        try (DatagramSocket squatter = new DatagramSocket(null)) {
            squatter.setReuseAddress(false);
            squatter.bind(new InetSocketAddress(41_010));

            assertThatThrownBy(() -> new MulticastReceiver(address, 41_010, counters))
                .isInstanceOf(TransportException.class)
                .hasMessageContaining("239.255.10.1:41010 on lo");
        }
    }

    private static int receiveWithin(DatagramReceiver receiver, long millis) throws InterruptedException {
        final long deadline = System.currentTimeMillis() + millis;
        while (System.currentTimeMillis() < deadline) {
            final int length = receiver.receive();
            if (length != 0) {
                return length;
            }
            Thread.sleep(1);
        }
        return 0;
    }
}
