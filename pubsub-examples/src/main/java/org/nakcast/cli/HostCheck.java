package org.nakcast.cli;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.function.ToLongFunction;

import org.nakcast.config.NodeConfig;
import org.nakcast.config.TransportConfig;

/**
 * The checks of {@code check-host}: whether this host gives the transports of a config what they
 * ask for (socket buffer limits, MTU, a multicast-capable interface that is up, IGMP), and whether
 * the test runner can make its private network namespaces. Reads {@link HostFacts}; changes nothing.
 */
final class HostCheck {
    private static final int IPV4_UDP_HEADERS = 28;
    private static final int IPV6_UDP_HEADERS = 48;
    private static final String SYSCTL_FILE = "/etc/sysctl.d/90-nakcast.conf";

    private final HostFacts host;

    /** @param host where to read the host's settings */
    HostCheck(HostFacts host) {
        this.host = host;
    }

    /** Every finding for {@code config}'s transports, then for the test runner. */
    List<Finding> check(NodeConfig config) {
        final List<Finding> findings = new ArrayList<>();
        findings.add(bufferLimit(config, "net.core.rmem_max", "socket-receive-buffer",
            transport -> transport.socketReceiveBuffer().bytes()));
        findings.add(bufferLimit(config, "net.core.wmem_max", "socket-send-buffer",
            transport -> transport.socketSendBuffer().bytes()));
        for (TransportConfig transport : config.transports()) {
            findings.addAll(checkInterface(transport));
        }
        findings.add(userNamespaces());
        return findings;
    }

    /** The kernel silently caps a socket buffer at its limit: the largest any transport asks must fit. */
    private Finding bufferLimit(NodeConfig config, String sysctl, String key, ToLongFunction<TransportConfig> asked) {
        final TransportConfig largest = config.transports().stream()
            .max((a, b) -> Long.compare(asked.applyAsLong(a), asked.applyAsLong(b))).orElseThrow();
        final long wanted = asked.applyAsLong(largest);
        final OptionalLong limit = host.sysctl(sysctl);
        if (limit.isEmpty()) {
            return Finding.warn(sysctl + " unreadable: cannot tell whether " + key + " " + wanted + " is granted",
                "sysctl " + sysctl);
        }
        if (limit.getAsLong() < wanted) {
            return Finding.fail("%s %d < %s %d of transport '%s': the kernel caps the buffer, so bursts are dropped"
                .formatted(sysctl, limit.getAsLong(), key, wanted, largest.name()), persistSysctl(sysctl, wanted));
        }
        return Finding.ok("%s %d >= %s %d (transport '%s')".formatted(sysctl, limit.getAsLong(), key, wanted,
            largest.name()));
    }

    private List<Finding> checkInterface(TransportConfig transport) {
        final String nic = transport.networkInterface().name();
        final String which = "transport '%s': interface %s".formatted(transport.name(), nic);
        final OptionalLong flags = host.flags(nic);
        final OptionalLong mtu = host.mtu(nic);
        if (flags.isEmpty() || mtu.isEmpty()) {
            return List.of(Finding.fail(which + " not found under /sys/class/net", "ip link show  (and fix interface:"
                + " in the config)"));
        }
        final List<Finding> findings = new ArrayList<>();
        findings.add((flags.getAsLong() & HostFacts.IFF_UP) != 0
            ? Finding.ok(which + " is up")
            : Finding.fail(which + " is down", "ip link set dev " + nic + " up"));
        findings.add(mtu(transport, which, mtu.getAsLong()));
        findings.add(multicast(which, nic, flags.getAsLong()));
        if (transport.group() instanceof Inet4Address group) {
            findings.add(route(transport, nic, group));
            findings.add(igmp(transport.name(), nic, group));
        }
        return findings;
    }

    private static Finding mtu(TransportConfig transport, String which, long mtu) {
        final int headers = transport.group() instanceof Inet6Address ? IPV6_UDP_HEADERS : IPV4_UDP_HEADERS;
        final long datagram = transport.datagramSize().bytes();
        if (datagram + headers > mtu) {
            return Finding.fail("%s MTU %d < datagram-size %d + %d bytes of IP/UDP headers: datagrams would fragment"
                .formatted(which, mtu, datagram, headers), "ip link set dev %s mtu %d  (or datagram-size: %d)"
                .formatted(transport.networkInterface().name(), datagram + headers, mtu - headers));
        }
        return Finding.ok("%s MTU %d fits datagram-size %d + %d header bytes".formatted(which, mtu, datagram, headers));
    }

    private static Finding multicast(String which, String nic, long flags) {
        if ((flags & HostFacts.IFF_MULTICAST) != 0) {
            return Finding.ok(which + " does multicast (MULTICAST flag)");
        }
        if ((flags & HostFacts.IFF_LOOPBACK) != 0) {
            return Finding.ok(which + " is loopback, without the MULTICAST flag: multicast still works on it because"
                + " nakcast binds every socket to it (IP_MULTICAST_IF); it stays on this host");
        }
        return Finding.fail(which + " lacks the MULTICAST flag: joins and sends fail",
            "ip link set dev " + nic + " multicast on");
    }

    /**
     * nakcast binds every socket to its interface, so it needs no multicast route; a 224.0.0.0/4 route
     * through another interface still deserves a word, since tools that do not bind (ping, iperf)
     * follow it.
     */
    private Finding route(TransportConfig transport, String nic, Inet4Address group) {
        final String which = "transport '%s': group %s".formatted(transport.name(), group.getHostAddress());
        for (String line : host.ipv4Routes()) {
            final String[] fields = line.trim().split("\\s+");
            if (fields.length < 8) {
                continue;
            }
            final long destination = littleEndianAddress(fields[1]);
            final long mask = littleEndianAddress(fields[7]);
            if (mask != 0 && (ipv4(group) & mask) == destination) {
                return fields[0].equals(nic)
                    ? Finding.ok(which + " is routed through " + nic)
                    : Finding.warn(("%s is routed through %s, not %s: nakcast binds its sockets to %s, but tools"
                        + " that do not (ping, iperf) will use %s").formatted(which, fields[0], nic, nic, fields[0]),
                        "ip route replace 224.0.0.0/4 dev " + nic);
            }
        }
        return Finding.ok(which + " has no route of its own; none needed: nakcast binds every socket to " + nic);
    }

    private Finding igmp(String transport, String nic, Inet4Address group) {
        final String which = "transport '%s': group %s".formatted(transport, group.getHostAddress());
        final OptionalLong perSocket = host.sysctl("net.ipv4.igmp_max_memberships");
        if (perSocket.isPresent() && perSocket.getAsLong() < 1) {
            return Finding.fail(which + ": net.ipv4.igmp_max_memberships is 0, no socket can join it",
                persistSysctl("net.ipv4.igmp_max_memberships", 20));
        }
        final String hex = "%08X".formatted(Integer.reverseBytes((int) ipv4(group)));
        boolean onNic = false;
        boolean joined = false;
        for (String line : host.igmp()) {
            if (!Character.isWhitespace(line.isEmpty() ? 'x' : line.charAt(0))) {
                final String[] fields = line.trim().split("\\s+");
                onNic = fields.length > 1 && fields[1].equals(nic);
            } else if (onNic && line.trim().toUpperCase(Locale.ROOT).startsWith(hex)) {
                joined = true;
            }
        }
        final String limits = perSocket.isPresent()
            ? "; net.ipv4.igmp_max_memberships %d per socket, nakcast joins one group per socket"
                .formatted(perSocket.getAsLong())
            : "";
        return Finding.ok(which + (joined
            ? " joined on " + nic + " now (IGMP membership in /proc/net/igmp)"
            : " not joined on " + nic + " now (a subscriber joins it while it runs)") + limits);
    }

    /** Unprivileged user namespaces, which ops/test and the examples need when not run as root. */
    private Finding userNamespaces() {
        if (host.effectiveUid().orElse(-1) == 0) {
            return Finding.ok("test runner: root, so ops/netns/in-private-netns can make network namespaces");
        }
        if (host.sysctl("kernel.unprivileged_userns_clone").orElse(1) == 0) {
            return Finding.warn("test runner: kernel.unprivileged_userns_clone is 0: ops/test and ops/example cannot"
                + " make their private network namespaces without root", persistSysctl(
                    "kernel.unprivileged_userns_clone", 1));
        }
        if (host.sysctl("user.max_user_namespaces").orElse(1) == 0) {
            return Finding.warn("test runner: user.max_user_namespaces is 0: ops/test cannot make its namespaces"
                + " without root", persistSysctl("user.max_user_namespaces", 15000));
        }
        if (host.sysctl("kernel.apparmor_restrict_unprivileged_userns").orElse(0) == 1) {
            return Finding.warn("test runner: AppArmor restricts unprivileged user namespaces: ops/test cannot make"
                + " its namespaces without root", persistSysctl("kernel.apparmor_restrict_unprivileged_userns", 0));
        }
        return Finding.ok("test runner: unprivileged user namespaces allowed (unshare -rn)");
    }

    private static String persistSysctl(String name, long value) {
        return "sysctl -w %s=%d  (for good: echo '%s = %d' >> %s)".formatted(name, value, name, value, SYSCTL_FILE);
    }

    /** An address of /proc/net/route: 8 hex digits, the address's bytes in little-endian order. */
    private static long littleEndianAddress(String hex) {
        try {
            return Integer.reverseBytes((int) Long.parseLong(hex, 16)) & 0xFFFF_FFFFL;
        } catch (NumberFormatException ex) {
            return -1;
        }
    }

    private static long ipv4(InetAddress address) {
        final byte[] bytes = address.getAddress();
        return ((bytes[0] & 0xFFL) << 24) | ((bytes[1] & 0xFFL) << 16) | ((bytes[2] & 0xFFL) << 8) | (bytes[3] & 0xFFL);
    }
}
