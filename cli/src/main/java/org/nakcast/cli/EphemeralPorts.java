package org.nakcast.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;

import org.nakcast.config.NodeConfig;
import org.nakcast.config.TransportConfig;

/**
 * Whether a config's ports are safe from the kernel's ephemeral ports. A socket that sends without
 * binding first is given a free port from {@code net.ipv4.ip_local_port_range} (32768 to 60999 by
 * default), on the wildcard address; a node's data or control port inside that range may be given
 * so to any process on the host, and while that socket lives a node cannot listen there: its bind is
 * refused (Address already in use), at start or when it subscribes. A port listed in
 * {@code net.ipv4.ip_local_reserved_ports} is never given out. The check names every transport port
 * (its data port and the control port above it) in the range and not reserved, and the sysctl that
 * reserves them beside what is reserved already.
 */
final class EphemeralPorts {
    static final String RANGE = "net.ipv4.ip_local_port_range";
    static final String RESERVED = "net.ipv4.ip_local_reserved_ports";

    private EphemeralPorts() {
    }

    /** The finding for {@code config}'s ports on {@code host}. */
    static Finding check(NodeConfig config, HostFacts host) {
        final Optional<long[]> range = host.sysctlText(RANGE).flatMap(EphemeralPorts::range);
        if (range.isEmpty()) {
            return Finding.warn(RANGE + " unreadable: cannot tell whether another socket may be given a transport's"
                + " port", "sysctl " + RANGE);
        }
        final long low = range.get()[0];
        final long high = range.get()[1];
        final String reserved = host.sysctlText(RESERVED).orElse("");
        final TreeMap<Integer, String> exposed = new TreeMap<>();
        for (TransportConfig transport : config.transports()) {
            for (int port : new int[] {transport.port(), transport.port() + 1}) {
                if (port >= low && port <= high && !isReserved(reserved, port)) {
                    exposed.putIfAbsent(port, transport.name());
                }
            }
        }
        final String rangeText = low + "-" + high;
        if (exposed.isEmpty()) {
            return Finding.ok("every transport port is outside the ephemeral ports " + rangeText + " (" + RANGE
                + ") or reserved (" + RESERVED + ")");
        }
        final List<String> named = new ArrayList<>();
        exposed.forEach((port, transport) -> named.add(port + " (transport '" + transport + "')"));
        final String ports = ranges(List.copyOf(exposed.keySet()));
        return Finding.warn(("ports %s are among the ephemeral ports %s (%s) and not reserved: any socket on this"
            + " host that sends without binding may be given one, and while it holds it a node cannot listen there"
            + " (bind: Address already in use)").formatted(String.join(", ", named), rangeText, RANGE),
            HostCheck.persistSysctl(RESERVED, reserved.isBlank() ? ports : reserved + "," + ports));
    }

    /** {@code low high} as the two numbers, if it is that. */
    private static Optional<long[]> range(String text) {
        final String[] fields = text.strip().split("\\s+");
        try {
            return fields.length == 2 ? Optional.of(new long[] {Long.parseLong(fields[0]), Long.parseLong(fields[1])})
                : Optional.empty();
        } catch (NumberFormatException ex) {
            return Optional.empty();
        }
    }

    /** Whether {@code port} is in {@code reserved}: ports and ranges, comma-separated ({@code 40456-40457,50000}). */
    private static boolean isReserved(String reserved, int port) {
        for (String entry : reserved.split(",")) {
            final String[] bounds = entry.strip().split("-");
            try {
                final int first = Integer.parseInt(bounds[0].strip());
                final int last = bounds.length > 1 ? Integer.parseInt(bounds[1].strip()) : first;
                if (port >= first && port <= last) {
                    return true;
                }
            } catch (NumberFormatException ex) {
                // an empty list, or an entry the kernel would not have written: reserves nothing
            }
        }
        return false;
    }

    /** Sorted ports as the kernel writes them: runs as {@code a-b}, comma-separated. */
    private static String ranges(List<Integer> sortedPorts) {
        final StringBuilder text = new StringBuilder();
        int index = 0;
        while (index < sortedPorts.size()) {
            final int first = sortedPorts.get(index);
            int last = first;
            while (index + 1 < sortedPorts.size() && sortedPorts.get(index + 1) == last + 1) {
                last = sortedPorts.get(++index);
            }
            text.append(text.isEmpty() ? "" : ",").append(first == last ? Integer.toString(first) : first + "-" + last);
            index++;
        }
        return text.toString();
    }
}
