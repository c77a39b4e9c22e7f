package org.nakcast.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.Stream;

/**
 * What {@code check-host} reads about a Linux host, from {@code /proc} and {@code /sys} under a root
 * directory: {@code /} for this host, another directory for a copy of another host's files (tests).
 * Read-only; a file that is missing or unreadable answers empty.
 */
final class HostFacts {
    /** The interface is up ({@code IFF_UP} in {@code /sys/class/net/NIC/flags}). */
    static final long IFF_UP = 0x1;
    /** The interface is a loopback ({@code IFF_LOOPBACK}). */
    static final long IFF_LOOPBACK = 0x8;
    /** The interface does multicast ({@code IFF_MULTICAST}). */
    static final long IFF_MULTICAST = 0x1000;

    private final Path root;

    /** @param root the directory that holds {@code proc/} and {@code sys/} */
    HostFacts(Path root) {
        this.root = root;
    }

    /** A sysctl by its dotted name ({@code net.core.rmem_max}), from {@code /proc/sys}. */
    OptionalLong sysctl(String name) {
        return number(root.resolve("proc/sys").resolve(name.replace('.', '/')), 10);
    }

    /**
     * A sysctl by its dotted name as the text of its first line ({@code 32768\t60999} for
     * {@code net.ipv4.ip_local_port_range}); empty if it cannot be read, blank if it is.
     */
    Optional<String> sysctlText(String name) {
        final List<String> lines = lines("proc/sys/" + name.replace('.', '/'));
        return lines.isEmpty() ? Optional.empty() : Optional.of(lines.get(0).strip());
    }

    /** The MTU of interface {@code nic}. */
    OptionalLong mtu(String nic) {
        return number(root.resolve("sys/class/net").resolve(nic).resolve("mtu"), 10);
    }

    /** The {@code IFF_*} flags of interface {@code nic}. */
    OptionalLong flags(String nic) {
        return number(root.resolve("sys/class/net").resolve(nic).resolve("flags"), 16);
    }

    /**
     * The {@code rp_filter} of interface {@code nic} (0 off, 1 strict, 2 loose), from
     * {@code /proc/sys/net/ipv4/conf/NIC}: read by path, as a VLAN's name ({@code eth0.100}) has a dot.
     */
    OptionalLong rpFilter(String nic) {
        return number(root.resolve("proc/sys/net/ipv4/conf").resolve(nic).resolve("rp_filter"), 10);
    }

    /**
     * The interfaces {@code nic} sits on ({@code lower_*} in {@code /sys/class/net/NIC}: a VLAN's or a
     * macvlan's parent, a bond's members); empty for a physical NIC.
     */
    List<String> lowerInterfaces(String nic) {
        try (Stream<Path> entries = Files.list(root.resolve("sys/class/net").resolve(nic))) {
            return entries.map(entry -> entry.getFileName().toString()).filter(name -> name.startsWith("lower_"))
                .map(name -> name.substring("lower_".length())).sorted().toList();
        } catch (IOException ex) {
            return List.of();
        }
    }

    /** The lines of {@code /proc/net/route} (IPv4 routes, addresses in little-endian hex), header left out. */
    List<String> ipv4Routes() {
        final List<String> lines = lines("proc/net/route");
        return lines.isEmpty() ? lines : lines.subList(1, lines.size());
    }

    /** The lines of {@code /proc/net/igmp}: per interface, the IPv4 groups joined on it. */
    List<String> igmp() {
        return lines("proc/net/igmp");
    }

    /** The effective user id of this process, from {@code /proc/self/status}. */
    OptionalLong effectiveUid() {
        return lines("proc/self/status").stream()
            .filter(line -> line.startsWith("Uid:"))
            .map(line -> line.split("\\s+"))
            .filter(fields -> fields.length > 2)
            .mapToLong(fields -> Long.parseLong(fields[2]))
            .findFirst();
    }

    private List<String> lines(String file) {
        try {
            return Files.readAllLines(root.resolve(file));
        } catch (IOException ex) {
            return List.of();
        }
    }

    /**
     * The number in the first line of {@code file}. Read line by line: {@code Files.readString} trusts
     * the size a {@code /proc} file reports, which can cut the value short.
     */
    private static OptionalLong number(Path file, int radix) {
        try (BufferedReader reader = Files.newBufferedReader(file)) {
            final String line = reader.readLine();
            final String text = line == null ? "" : line.strip();
            return OptionalLong.of(Long.parseLong(text.startsWith("0x") ? text.substring(2) : text, radix));
        } catch (IOException | NumberFormatException ex) {
            return OptionalLong.empty();
        }
    }
}
