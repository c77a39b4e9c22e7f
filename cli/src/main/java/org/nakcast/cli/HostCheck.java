package org.nakcast.cli;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.ToLongFunction;

import org.nakcast.config.NodeConfig;
import org.nakcast.config.TopicConfig;
import org.nakcast.config.TransportConfig;

/**
 * The checks of {@code check-host}: whether this host gives the transports of a config what they
 * ask for (socket buffer limits, MTU, a multicast-capable interface that is up, a reverse-path filter
 * that lets the group's datagrams in, IGMP), whether the two lines of a topic on redundant lines
 * share what one fault could take (an interface, a physical NIC under VLANs, a group), whether the
 * transports' ports are safe from the kernel's ephemeral ports ({@link EphemeralPorts}), whether each
 * transport's key file reads ({@link KeyFileCheck}), and whether the test runner can make its
 * private network namespaces. Reads {@link HostFacts} and the key files; changes nothing.
 */
final class HostCheck {
    private static final int IPV4_UDP_HEADERS = 28;
    private static final int IPV6_UDP_HEADERS = 48;
    private static final String SYSCTL_FILE = "/etc/sysctl.d/90-nakcast.conf";
    private static final int RP_FILTER_STRICT = 1;
    private static final int RP_FILTER_LOOSE = 2;
    /** How many interfaces deep {@link #physical} follows VLANs and the like down to a NIC. */
    private static final int MAX_STACKED_INTERFACES = 8;

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
            findings.add(KeyFileCheck.of(transport));
        }
        final Set<List<String>> linePairs = new LinkedHashSet<>();
        for (TopicConfig topic : config.topics()) {
            if (topic.lines().size() == 2 && linePairs.add(topic.lines())) {
                final List<TransportConfig> lines = config.lines(topic);
                findings.addAll(redundancy(topic, lines.get(0), lines.get(1)));
            }
        }
        findings.add(EphemeralPorts.check(config, host));
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
            if ((flags.getAsLong() & HostFacts.IFF_LOOPBACK) == 0
                && transport.networkInterface().address() instanceof Inet4Address address) {
                findings.add(reversePath(which, nic, address));
            }
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
        final Optional<Route> route = bestRoute(ipv4(group)).filter(best -> best.mask() != 0);
        if (route.isPresent()) {
            final String through = route.get().nic();
            return through.equals(nic)
                ? Finding.ok(which + " is routed through " + nic)
                : Finding.warn(("%s is routed through %s, not %s: nakcast binds its sockets to %s, but tools"
                    + " that do not (ping, iperf) will use %s").formatted(which, through, nic, nic, through),
                    ("ip route add %s/32 dev %s  (this group alone, as line B of a topic on two lines needs; or ip"
                        + " route replace 224.0.0.0/4 dev %s for every group)").formatted(group.getHostAddress(), nic,
                        nic));
        }
        return Finding.ok(which + " has no route of its own; none needed: nakcast binds every socket to " + nic);
    }

    /**
     * The reverse-path filter drops a datagram whose source this host would not route back out of the
     * interface it came in by: strict ({@code rp_filter} 1, the larger of {@code all} and the
     * interface's own) with the interface's own network routed out of another interface drops every
     * datagram of a publisher on that network. That is the classic trap of a second NIC (line B) on a
     * network the first NIC's routes also cover. Loose (2) or off (0) lets them in.
     */
    private Finding reversePath(String which, String nic, Inet4Address address) {
        final long mode = Math.max(host.sysctl("net.ipv4.conf.all.rp_filter").orElse(0),
            host.rpFilter(nic).orElse(0));
        if (mode != RP_FILTER_STRICT) {
            return Finding.ok("%s: rp_filter %d (%s) lets in datagrams from any source".formatted(which, mode,
                mode == RP_FILTER_LOOSE ? "loose" : "off"));
        }
        final String own = address.getHostAddress();
        final Optional<Route> back = bestRoute(ipv4(address));
        if (back.isPresent() && back.get().nic().equals(nic)) {
            return Finding.ok(("%s: rp_filter 1 (strict), and its network (%s) is routed through %s: datagrams from"
                + " publishers on it pass").formatted(which, own, nic));
        }
        return Finding.fail(("%s: rp_filter 1 (strict) drops datagrams from publishers on its network: %s is routed"
            + " through %s, not %s").formatted(which, own, back.map(Route::nic).orElse("no interface"), nic),
            persistSysctl("net.ipv4.conf." + nic + ".rp_filter", RP_FILTER_LOOSE) + "  (loose)");
    }

    /**
     * What one fault could take from both lines of {@code topic}: one interface, one physical NIC under
     * two (VLANs, macvlans), one group.
     */
    private List<Finding> redundancy(TopicConfig topic, TransportConfig lineA, TransportConfig lineB) {
        final String which = "topic '%s': lines '%s' and '%s'".formatted(topic.name(), lineA.name(), lineB.name());
        final String nicA = lineA.networkInterface().name();
        final String nicB = lineB.networkInterface().name();
        final String groupA = lineA.group().getHostAddress();
        final List<Finding> findings = new ArrayList<>();
        if (nicA.equals(nicB)) {
            findings.add(Finding.warn(which + " share interface " + nicA + ": a fault of that NIC, its cable or its"
                + " switch port takes both lines", "give line '" + lineB.name() + "' an interface of its own, on a"
                + " network of its own (interface:)"));
        } else {
            final String physicalA = physical(nicA);
            if (physicalA.equals(physical(nicB))) {
                findings.add(Finding.warn("%s are on %s and %s, both on physical NIC %s: a fault of that NIC or its"
                    .formatted(which, nicA, nicB, physicalA) + " cable takes both lines",
                    "give line '" + lineB.name() + "' an interface on another NIC (interface:)"));
            }
        }
        if (lineA.group().equals(lineB.group())) {
            findings.add(Finding.warn(which + " share group " + groupA + ": a multicast routing or IGMP snooping fault"
                + " for that group takes both lines", "give line '" + lineB.name() + "' a group of its own (group:)"));
        }
        if (findings.isEmpty()) {
            findings.add(Finding.ok("%s share no interface, NIC or group (%s, %s; %s, %s)".formatted(which, nicA,
                groupA, nicB, lineB.group().getHostAddress())));
        }
        return findings;
    }

    /** The physical NIC under {@code nic}: its lowest interface, following {@code lower_*} down. */
    private String physical(String nic) {
        String current = nic;
        for (int depth = 0; depth < MAX_STACKED_INTERFACES; depth++) {
            final List<String> lower = host.lowerInterfaces(current);
            if (lower.isEmpty()) {
                return current;
            }
            current = lower.get(0);
        }
        return current;
    }

    /** A line of {@code /proc/net/route}: interface, destination, mask, metric. */
    private record Route(String nic, long destination, long mask, long metric) {
        boolean covers(long address) {
            return (address & mask) == destination;
        }
    }

    private List<Route> routes() {
        final List<Route> routes = new ArrayList<>();
        for (String line : host.ipv4Routes()) {
            final String[] fields = line.trim().split("\\s+");
            if (fields.length >= 8) {
                routes.add(new Route(fields[0], littleEndianAddress(fields[1]), littleEndianAddress(fields[7]),
                    parseLong(fields[6])));
            }
        }
        return routes;
    }

    /** The route the kernel takes to {@code address}: the longest prefix, then the lowest metric. */
    private Optional<Route> bestRoute(long address) {
        return routes().stream().filter(route -> route.covers(address))
            .max(Comparator.comparingLong((Route route) -> Long.bitCount(route.mask()))
                .thenComparing(Comparator.comparingLong(Route::metric).reversed()));
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
        return persistSysctl(name, Long.toString(value));
    }

    /** The sysctl command that sets {@code name} now, and the line that keeps it across boots. */
    static String persistSysctl(String name, String value) {
        return "sysctl -w %s=%s  (for good: echo '%s = %s' >> %s)".formatted(name, value, name, value, SYSCTL_FILE);
    }

    /** An address of /proc/net/route: 8 hex digits, the address's bytes in little-endian order. */
    private static long littleEndianAddress(String hex) {
        try {
            return Integer.reverseBytes((int) Long.parseLong(hex, 16)) & 0xFFFF_FFFFL;
        } catch (NumberFormatException ex) {
            return -1;
        }
    }

    private static long parseLong(String decimal) {
        try {
            return Long.parseLong(decimal);
        } catch (NumberFormatException ex) {
            return Long.MAX_VALUE;
        }
    }

    private static long ipv4(InetAddress address) {
        final byte[] bytes = address.getAddress();
        return ((bytes[0] & 0xFFL) << 24) | ((bytes[1] & 0xFFL) << 16) | ((bytes[2] & 0xFFL) << 8) | (bytes[3] & 0xFFL);
    }
}
