package org.nakcast.transport.system;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.channels.DatagramChannel;

import org.nakcast.config.TransportConfig;

/**
 * Plain sockets a test uses to play a foreign program on a transport's group: one that sends
 * whatever it likes, one that listens. Both are bound to the transport's interface (lo in every
 * test config) and send with its TTL (0), as nakcast's own sockets do.
 */
final class TestChannels {
    private TestChannels() {
    }

    /** The interface of {@code transport}. */
    static NetworkInterface networkInterface(TransportConfig transport) throws IOException {
        final NetworkInterface nic = NetworkInterface.getByName(transport.networkInterface().name());
        if (nic == null) {
            throw new IOException("no interface " + transport.networkInterface().name());
        }
        return nic;
    }

    /** A blocking channel that sends to any port of the group, out of the transport's interface. */
    static DatagramChannel sender(TransportConfig transport) throws IOException {
        final NetworkInterface nic = networkInterface(transport);
        final DatagramChannel channel = DatagramChannel.open(StandardProtocolFamily.INET);
        try {
            channel.setOption(StandardSocketOptions.IP_MULTICAST_IF, nic);
            channel.setOption(StandardSocketOptions.IP_MULTICAST_TTL, transport.ttl());
            channel.setOption(StandardSocketOptions.IP_MULTICAST_LOOP, true);
            channel.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        } catch (IOException | RuntimeException ex) {
            channel.close();
            throw ex;
        }
        return channel;
    }

    /** A non-blocking channel that joins the group on the transport's interface and reads {@code port}. */
    static DatagramChannel listener(TransportConfig transport, int port) throws IOException {
        final DatagramChannel channel = DatagramChannel.open(StandardProtocolFamily.INET);
        try {
            channel.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            channel.bind(new InetSocketAddress(transport.group(), port));
            channel.join(transport.group(), networkInterface(transport));
            channel.configureBlocking(false);
        } catch (IOException | RuntimeException ex) {
            channel.close();
            throw ex;
        }
        return channel;
    }

    /** Where the transport's publishers send data. */
    static InetSocketAddress dataPort(TransportConfig transport) {
        return new InetSocketAddress(transport.group(), transport.port());
    }

    /** Where the transport's receivers send NAKs. */
    static InetSocketAddress controlPort(TransportConfig transport) {
        return new InetSocketAddress(transport.group(), transport.port() + 1);
    }
}
