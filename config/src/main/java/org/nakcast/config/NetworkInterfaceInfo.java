package org.nakcast.config;

import java.net.InetAddress;
import java.util.List;

/**
 * A network interface as this machine reports it: what {@code conclude()} needs to know to check
 * a transport against it.
 *
 * @param name the interface's name, e.g. {@code lo}, {@code eth0}
 * @param addresses its addresses, IPv4 and IPv6
 * @param mtu its MTU in bytes; zero or less if the system does not say
 * @param up whether the interface is up
 */
public record NetworkInterfaceInfo(String name, List<InetAddress> addresses, int mtu, boolean up) {
    /** Copies the address list. */
    public NetworkInterfaceInfo {
        addresses = List.copyOf(addresses);
    }
}
