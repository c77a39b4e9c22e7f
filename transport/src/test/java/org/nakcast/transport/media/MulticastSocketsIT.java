package org.nakcast.transport.media;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.nio.ByteBuffer;

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
            port, port + 1, 0, 1 << 20, 1 << 20);
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

    private static int receiveWithin(MulticastReceiver receiver, long millis) throws InterruptedException {
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
