package org.nakcast.rtt;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;

import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.nakcast.config.TransportConfig;

/**
 * The {@code raw-udp} baseline: a bare pair of non-blocking {@link DatagramChannel}s, one that sends
 * to the other side's group and one that has joined this side's group, on the interface and with
 * the TTL of the topics' transports (IP_MULTICAST_IF always set), each on its transport's port + 2
 * so it never meets nakcast's own data (port) and control (port + 1) traffic. No header, no
 * sequence check, no retransmission: what the network and the kernel cost, and nothing more.
 */
final class UdpLink implements RttLink {
    /** How far above a transport's port the baseline listens. */
    static final int PORT_OFFSET = 2;
    private static final int MAX_DATAGRAM = 65_536;

    private final DatagramChannel sender;
    private final DatagramChannel receiver;
    private final ByteBuffer received = ByteBuffer.allocateDirect(MAX_DATAGRAM);
    private final UnsafeBuffer receivedBuffer = new UnsafeBuffer(received);
    private final Receiver handler;

    /**
     * Opens both channels.
     *
     * @param sendTo the transport whose group and port (+ 2) this side sends to
     * @param listenOn the transport whose group and port (+ 2) this side joins and reads
     * @param handler gets every datagram read
     */
    UdpLink(TransportConfig sendTo, TransportConfig listenOn, Receiver handler) {
        this.handler = handler;
        DatagramChannel openedSender = null;
        DatagramChannel openedReceiver = null;
        try {
            openedSender = DatagramChannel.open(family(sendTo));
            openedSender.setOption(StandardSocketOptions.IP_MULTICAST_IF, nic(sendTo));
            openedSender.setOption(StandardSocketOptions.IP_MULTICAST_TTL, sendTo.ttl());
            openedSender.setOption(StandardSocketOptions.IP_MULTICAST_LOOP, true);
            openedSender.connect(new InetSocketAddress(sendTo.group(), sendTo.port() + PORT_OFFSET));
            openedSender.configureBlocking(false);
            openedReceiver = DatagramChannel.open(family(listenOn));
            openedReceiver.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            openedReceiver.bind(new InetSocketAddress(listenOn.group(), listenOn.port() + PORT_OFFSET));
            openedReceiver.join(listenOn.group(), nic(listenOn));
            openedReceiver.configureBlocking(false);
        } catch (IOException ex) {
            CloseHelper.quietCloseAll(openedSender, openedReceiver);
            throw new UncheckedIOException("raw-udp baseline: cannot open the sockets on transports '"
                + sendTo.name() + "' and '" + listenOn.name() + "': " + ex.getMessage(), ex);
        }
        this.sender = openedSender;
        this.receiver = openedReceiver;
    }

    @Override
    public boolean send(DirectBuffer buffer, int length) {
        final ByteBuffer bytes = buffer.byteBuffer();
        final int start = buffer.wrapAdjustment();
        bytes.limit(start + length).position(start);
        try {
            return sender.write(bytes) == length;
        } catch (IOException ex) {
            throw new IllegalStateException("raw-udp baseline: send failed: " + ex.getMessage(), ex);
        }
    }

    @Override
    public int poll() {
        received.clear();
        try {
            if (receiver.receive(received) == null) {
                return 0;
            }
        } catch (IOException ex) {
            throw new IllegalStateException("raw-udp baseline: receive failed: " + ex.getMessage(), ex);
        }
        handler.onMessage(receivedBuffer, 0, received.position());
        return 1;
    }

    @Override
    public void close() {
        CloseHelper.quietCloseAll(sender, receiver);
    }

    private static StandardProtocolFamily family(TransportConfig transport) {
        return transport.group().getAddress().length == 4 ? StandardProtocolFamily.INET : StandardProtocolFamily.INET6;
    }

    private static NetworkInterface nic(TransportConfig transport) throws SocketException {
        final NetworkInterface nic = NetworkInterface.getByName(transport.networkInterface().name());
        if (nic == null) {
            throw new SocketException("no interface '" + transport.networkInterface().name() + "'");
        }
        return nic;
    }
}
