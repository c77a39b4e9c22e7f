package org.nakcast.config;

import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * This machine's interfaces, through {@link NetworkInterface}. Multicast support is not asked:
 * the JDK answers false for {@code lo}, where multicast works all the same.
 */
final class SystemNetworkInterfaces implements NetworkInterfaces {
    static final SystemNetworkInterfaces INSTANCE = new SystemNetworkInterfaces();

    private SystemNetworkInterfaces() {
    }

    @Override
    public Optional<NetworkInterfaceInfo> byName(String name) {
        try {
            return Optional.ofNullable(NetworkInterface.getByName(name))
                .map(SystemNetworkInterfaces::describe);
        } catch (SocketException e) {
            throw new UncheckedIOException("cannot look up network interface " + name, e);
        }
    }

    @Override
    public Optional<NetworkInterfaceInfo> byAddress(InetAddress address) {
        try {
            return Optional.ofNullable(NetworkInterface.getByInetAddress(address))
                .map(SystemNetworkInterfaces::describe);
        } catch (SocketException e) {
            throw new UncheckedIOException("cannot look up the network interface of " + address, e);
        }
    }

    @Override
    public List<String> names() {
        try {
            return NetworkInterface.networkInterfaces().map(NetworkInterface::getName).toList();
        } catch (SocketException e) {
            throw new UncheckedIOException("cannot list network interfaces", e);
        }
    }

    private static NetworkInterfaceInfo describe(NetworkInterface nic) {
        try {
            return new NetworkInterfaceInfo(nic.getName(), Collections.list(nic.getInetAddresses()), nic.getMTU(),
                nic.isUp());
        } catch (SocketException e) {
            throw new UncheckedIOException("cannot read network interface " + nic.getName(), e);
        }
    }
}
