package org.nakcast.config;

import java.net.InetAddress;
import java.util.List;
import java.util.Optional;

/** A fixed list of interfaces, see {@link NetworkInterfaces#of(List)}. */
record FixedNetworkInterfaces(List<NetworkInterfaceInfo> interfaces) implements NetworkInterfaces {
    @Override
    public Optional<NetworkInterfaceInfo> byName(String name) {
        return interfaces.stream().filter(nic -> nic.name().equals(name)).findFirst();
    }

    @Override
    public Optional<NetworkInterfaceInfo> byAddress(InetAddress address) {
        return interfaces.stream().filter(nic -> nic.addresses().contains(address)).findFirst();
    }

    @Override
    public List<String> names() {
        return interfaces.stream().map(NetworkInterfaceInfo::name).toList();
    }
}
