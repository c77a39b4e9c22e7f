package org.nakcast.config;

import java.net.InetAddress;

/**
 * The network interface a transport uses: as configuration selects it, by name ({@code eth0})
 * or by one of its addresses ({@code 192.168.1.10}), and, once the config is concluded, as found
 * on this machine: its name, the address to use and its MTU.
 *
 * <p>The address is the one the selector names, or else the interface's first address of the
 * transport group's family (IPv4 for an IPv4 group, IPv6 for an IPv6 one).
 *
 * @param selector the interface as written: a name or an address literal
 * @param name the interface's name; null until concluded
 * @param address the interface address to use; null until concluded
 * @param mtu the interface's MTU in bytes; zero until concluded, or if the system does not say
 */
public record NetworkInterfaceRef(String selector, String name, InetAddress address, int mtu) {
    /**
     * @param selector an interface name or address literal
     * @return a reference to be resolved by {@code conclude()}
     */
    public static NetworkInterfaceRef of(String selector) {
        return new NetworkInterfaceRef(selector, null, null, 0);
    }

    /** @return true once {@code conclude()} has found the interface on this machine */
    public boolean isResolved() {
        return name != null;
    }

    NetworkInterfaceRef resolvedTo(NetworkInterfaceInfo nic, InetAddress chosenAddress) {
        return new NetworkInterfaceRef(selector, nic.name(), chosenAddress, nic.mtu());
    }

    /** @return the selector as written */
    @Override
    public String toString() {
        return selector;
    }
}
