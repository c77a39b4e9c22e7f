package org.nakcast.config;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Checks the {@code transports:} list and finds each transport's interface on the machine:
 * unique names, a multicast group, a port and TTL in range, an interface that exists, is up and
 * has an address of the group's family, buffers that fit an {@code int}, and a datagram that
 * fits the interface's MTU with its IP and UDP headers (so the kernel never fragments it).
 */
final class TransportChecks {
    /** The largest UDP payload over IPv4: 65535 - 20 (IP header) - 8 (UDP header). */
    static final int MAX_DATAGRAM_SIZE = 65_507;
    /** The smallest datagram the protocol can work with: a header, a NAK range, a few message bytes. */
    static final int MIN_DATAGRAM_SIZE = 64;
    /** The highest data port: the transport's NAKs use the port above it. */
    static final int MAX_PORT = 65_534;
    /** IPv4 (20) and UDP (8) header bytes in front of each datagram's payload. */
    static final int IPV4_UDP_HEADERS = 28;
    /** IPv6 (40) and UDP (8) header bytes in front of each datagram's payload. */
    static final int IPV6_UDP_HEADERS = 48;
    private static final String MULTICAST_RANGES =
        "use 224.0.0.0/4 for IPv4 (239.0.0.0/8 is for private use) or ff00::/8 for IPv6";

    private final NetworkInterfaces interfaces;
    private final boolean readsKeyFiles;
    private final ProblemList problems;

    TransportChecks(NetworkInterfaces interfaces, boolean readsKeyFiles, ProblemList problems) {
        this.interfaces = interfaces;
        this.readsKeyFiles = readsKeyFiles;
        this.problems = problems;
    }

    /** @return the transports with their interfaces resolved; meaningful only if no problem was found */
    List<TransportConfig> resolve(List<TransportConfig> transports) {
        Map<String, String> pathByName = new HashMap<>();
        Map<String, String> pathByGroupPort = new HashMap<>();
        List<TransportConfig> resolved = new ArrayList<>();
        for (int i = 0; i < transports.size(); i++) {
            String path = KeyPaths.element("transports", i);
            TransportConfig transport = transports.get(i);
            if (transport == null) {
                problems.add(path, "empty entry in transports");
                continue;
            }
            checkName(transport.name(), path, pathByName);
            checkGroup(transport.group(), path);
            checkPort(transport, path, pathByGroupPort);
            checkRange("ttl", transport.ttl(), 0, 255, path);
            checkIntSize("socket-send-buffer", transport.socketSendBuffer(), path);
            checkIntSize("socket-receive-buffer", transport.socketReceiveBuffer(), path);
            checkRange("datagram-size", transport.datagramSize().bytes(),
                MIN_DATAGRAM_SIZE + (transport.authenticated() ? AuthKeys.TRAILER_BYTES : 0), MAX_DATAGRAM_SIZE, path);
            checkKeyFile(transport.authKeyFile(), path);
            if (transport.encrypt() && !transport.authenticated()) {
                problems.add(KeyPaths.child(path, "encrypt"), "encrypt needs auth-key-file",
                    "payloads are encrypted with the key file's key: name one, or leave encrypt out");
            }
            if (!transport.sendBurst().isZero() && transport.sendBurst().compareTo(transport.datagramSize()) < 0) {
                problems.add(KeyPaths.child(path, "send-burst"), "send-burst " + transport.sendBurst()
                    + " is smaller than one datagram (" + transport.datagramSize() + ")",
                    "no datagram could ever be sent; leave it out for the default");
            }
            if (!transport.repairRate().isZero() && !transport.sendRate().isZero()
                && transport.repairRate().compareTo(transport.sendRate()) >= 0) {
                problems.add(KeyPaths.child(path, "repair-rate"), "repair-rate " + transport.repairRate()
                    + " is not below send-rate " + transport.sendRate(),
                    "NAKs could take the whole rate and hold back new data; leave it out for half the send-rate");
            }
            resolved.add(resolveInterface(transport, path)
                .map(transport::withNetworkInterface)
                .orElse(transport));
        }
        return resolved;
    }

    /** A key file that can be read, is its owner's alone and holds valid keys; read here and once more by the node. */
    private void checkKeyFile(String file, String path) {
        if (file == null || !readsKeyFiles) {
            return;
        }
        final String keyPath = KeyPaths.child(path, "auth-key-file");
        try {
            AuthKeyFile.read(Path.of(file));
        } catch (InvalidPathException | AuthKeyFile.BadKeyFileException ex) {
            problems.add(keyPath, ex.getMessage(), "nakcast keygen --out FILE writes a key file, mode 600");
        }
    }

    private void checkName(String name, String path, Map<String, String> pathByName) {
        String namePath = KeyPaths.child(path, "name");
        if (name == null || name.isBlank()) {
            problems.add(namePath, "transport name must not be empty");
            return;
        }
        String earlier = pathByName.putIfAbsent(name, path);
        if (earlier != null) {
            problems.add(namePath, "duplicate transport name '" + name + "'", earlier + " has it too");
        }
    }

    private void checkGroup(InetAddress group, String path) {
        String groupPath = KeyPaths.child(path, "group");
        if (group == null) {
            problems.add(groupPath, "group must be set", MULTICAST_RANGES);
        } else if (!group.isMulticastAddress()) {
            problems.add(groupPath, "group " + group.getHostAddress() + " is not a multicast address",
                MULTICAST_RANGES);
        }
    }

    /**
     * A transport takes two ports of its group: {@code port} for data and {@code port + 1} for
     * NAKs. Two transports on one group must not share either.
     */
    private void checkPort(TransportConfig transport, String path, Map<String, String> pathByGroupPort) {
        final int port = transport.port();
        if (port < 1 || port > MAX_PORT) {
            problems.add(KeyPaths.child(path, "port"), "port must be in 1.." + MAX_PORT + " (was " + port
                + "); the transport also uses port + 1 for NAKs");
            return;
        }
        if (transport.group() == null) {
            return;
        }
        for (int used = port; used <= port + 1; used++) {
            final String key = transport.group().getHostAddress() + ":" + used;
            final String other = pathByGroupPort.putIfAbsent(key, path);
            if (other != null && !other.equals(path)) {
                problems.add(KeyPaths.child(path, "port"), "port " + port + " collides with " + other
                    + " on group " + transport.group().getHostAddress() + ": each transport uses its port and the"
                    + " next one (for NAKs), so ports of one group must be at least 2 apart");
                return;
            }
        }
    }

    private void checkRange(String key, long value, long min, long max, String path) {
        if (value < min || value > max) {
            problems.add(KeyPaths.child(path, key), key + " must be in " + min + ".." + max + " (was " + value + ")");
        }
    }

    private void checkIntSize(String key, ByteSize size, String path) {
        checkRange(key, size.bytes(), 1, Integer.MAX_VALUE, path);
    }

    private Optional<NetworkInterfaceRef> resolveInterface(TransportConfig transport, String path) {
        String interfacePath = KeyPaths.child(path, "interface");
        NetworkInterfaceRef ref = transport.networkInterface();
        if (ref == null || ref.selector() == null || ref.selector().isBlank()) {
            problems.add(interfacePath, "interface must be set",
                "name one of: " + String.join(", ", interfaces.names()));
            return Optional.empty();
        }
        Optional<NetworkInterfaceInfo> found = find(ref.selector(), interfacePath);
        if (found.isEmpty()) {
            return Optional.empty();
        }
        NetworkInterfaceInfo nic = found.get();
        if (!nic.up()) {
            problems.add(interfacePath, "interface '" + nic.name() + "' is down");
            return Optional.empty();
        }
        Optional<InetAddress> address = chooseAddress(ref.selector(), nic, transport.group(), interfacePath);
        address.ifPresent(chosen -> checkFitsMtu(transport, nic, chosen, path));
        return address.map(chosen -> ref.resolvedTo(nic, chosen));
    }

    private Optional<NetworkInterfaceInfo> find(String selector, String interfacePath) {
        if (!IpLiterals.looksLikeAddress(selector)) {
            Optional<NetworkInterfaceInfo> nic = interfaces.byName(selector);
            if (nic.isEmpty()) {
                problems.add(interfacePath, "unknown interface '" + selector + "'",
                    Spelling.hint(selector, interfaces.names(), "interfaces on this machine"));
            }
            return nic;
        }
        try {
            Optional<NetworkInterfaceInfo> nic = interfaces.byAddress(IpLiterals.parse(selector));
            if (nic.isEmpty()) {
                problems.add(interfacePath, "no interface has the address " + selector,
                    "interfaces on this machine: " + String.join(", ", interfaces.names()));
            }
            return nic;
        } catch (BadValueException notAnAddress) {
            problems.add(interfacePath, notAnAddress.problem(), notAnAddress.hint());
            return Optional.empty();
        }
    }

    /** The selector's own address, else the interface's first address of the group's family. */
    private Optional<InetAddress> chooseAddress(String selector, NetworkInterfaceInfo nic, InetAddress group,
        String interfacePath) {
        if (group == null) {
            return Optional.empty(); // reported by checkGroup
        }
        if (IpLiterals.looksLikeAddress(selector)) {
            InetAddress own = IpLiterals.parse(selector);
            if (sameFamily(own, group)) {
                return Optional.of(own);
            }
            problems.add(interfacePath, "interface address " + selector + " is " + family(own) + " but group "
                + group.getHostAddress() + " is " + family(group), "use an interface address of the group's family");
            return Optional.empty();
        }
        Optional<InetAddress> first =
            nic.addresses().stream().filter(address -> sameFamily(address, group)).findFirst();
        if (first.isEmpty()) {
            problems.add(interfacePath, "interface '" + nic.name() + "' has no " + family(group) + " address",
                "group " + group.getHostAddress() + " is " + family(group) + ": choose an interface that has one");
        }
        return first;
    }

    private void checkFitsMtu(TransportConfig transport, NetworkInterfaceInfo nic, InetAddress address, String path) {
        int headers = address instanceof Inet6Address ? IPV6_UDP_HEADERS : IPV4_UDP_HEADERS;
        long datagram = transport.datagramSize().bytes();
        if (nic.mtu() > 0 && datagram <= MAX_DATAGRAM_SIZE && datagram + headers > nic.mtu()) {
            problems.add(KeyPaths.child(path, "datagram-size"),
                "datagram-size " + datagram + " does not fit interface '" + nic.name() + "' (MTU " + nic.mtu() + ")",
                "with " + headers + " bytes of " + family(address) + " and UDP headers, at most "
                    + (nic.mtu() - headers) + " fits");
        }
    }

    private static boolean sameFamily(InetAddress first, InetAddress second) {
        return (first instanceof Inet6Address) == (second instanceof Inet6Address);
    }

    private static String family(InetAddress address) {
        return address instanceof Inet6Address ? "IPv6" : "IPv4";
    }
}
