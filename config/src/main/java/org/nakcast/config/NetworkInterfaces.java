package org.nakcast.config;

import java.net.InetAddress;
import java.util.List;
import java.util.Optional;

/**
 * The network interfaces a config is checked against. {@link #system()} asks this machine;
 * {@link #of(List)} is a fixed set, for tests and for checking a config meant for another
 * machine.
 */
public interface NetworkInterfaces {
    /**
     * @param name an interface name, e.g. {@code eth0}
     * @return the interface of that name, if there is one
     */
    Optional<NetworkInterfaceInfo> byName(String name);

    /**
     * @param address an address
     * @return the interface that has the address, if there is one
     */
    Optional<NetworkInterfaceInfo> byAddress(InetAddress address);

    /** @return the names of all interfaces, for error messages */
    List<String> names();

    /** @return this machine's interfaces, asked afresh on every call */
    static NetworkInterfaces system() {
        return SystemNetworkInterfaces.INSTANCE;
    }

    /**
     * @param interfaces the interfaces there are
     * @return exactly these interfaces
     */
    static NetworkInterfaces of(List<NetworkInterfaceInfo> interfaces) {
        return new FixedNetworkInterfaces(List.copyOf(interfaces));
    }
}
