package org.nakcast.transport.media;

import org.nakcast.transport.status.SystemCounters;

/**
 * How a node moves datagrams between its agents and the kernel: the seam between the protocol and
 * the sockets. {@link NioMedia} ({@code nio}, Java's {@code DatagramChannel}, one system call per
 * datagram) is the default and runs everywhere; other media are found with {@link java.util.ServiceLoader}
 * under this interface and chosen by name in the node's configuration ({@code node.media}), see
 * {@link MediaChoice}.
 */
public interface Media {
    /**
     * What every media adds to the error of a receiving socket it could not open: the likely causes,
     * a socket that holds the port without sharing it (any process's socket may be given one of the
     * kernel's ephemeral ports when it sends without binding) or an interface that is down.
     */
    String LISTEN_REFUSED_HINT = " (is the port held by a socket without SO_REUSEADDR? The kernel gives ports of"
        + " net.ipv4.ip_local_port_range to sockets that send without binding, unless net.ipv4.ip_local_reserved_ports"
        + " holds them: ops/check-host names the ports at risk. Or is the interface down?)";

    /** The name a configuration chooses this media by: {@code nio}, {@code native}. */
    String name();

    /**
     * Whether this media works in this JVM on this host; null if it does, else why not, in words
     * fit for a log line ("needs Linux, this is Windows 11").
     */
    String unavailableBecause();

    /**
     * Opens a receiving socket on {@code port} of {@code address}'s group and interface.
     *
     * @throws org.nakcast.transport.TransportException naming the group, port and interface if that fails
     */
    DatagramReceiver openReceiver(MulticastAddress address, int port, SystemCounters counters);

    /**
     * Opens a sending socket to {@code port} of {@code address}'s group, out of its interface.
     *
     * @throws org.nakcast.transport.TransportException naming the group, port and interface if that fails
     */
    DatagramSender openSender(MulticastAddress address, int port, SystemCounters counters);
}
