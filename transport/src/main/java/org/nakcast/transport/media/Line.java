package org.nakcast.transport.media;

import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * One of the transports a topic travels on. A topic on one transport has one line; a topic on
 * redundant lines has two ("line A" and "line B", each its own interface, group and ports), and its
 * publisher sends every datagram on both.
 *
 * @param name the transport's name in the config, for events, logs and counters
 * @param address where the line's datagrams go
 */
public record Line(String name, MulticastAddress address) {
    /** The most lines a topic travels on: line A and line B. */
    public static final int MAX_PER_TOPIC = 2;

    /** Checks that both are given. */
    public Line {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(address, "address");
    }

    /** "md-a: 239.255.0.1:40456 (control 40457) on lo, ...", for the log when a topic opens. */
    public String describeSetup() {
        return name + ": " + address.describeSetup();
    }

    /**
     * @param lines a topic's lines
     * @return them, copied
     * @throws IllegalArgumentException unless there are one or two
     */
    public static List<Line> oneOrTwo(List<Line> lines) {
        final List<Line> copy = List.copyOf(lines);
        if (copy.isEmpty() || copy.size() > MAX_PER_TOPIC) {
            throw new IllegalArgumentException("a topic travels on one or two lines: " + copy);
        }
        return copy;
    }

    /** "md-a: 239.255.0.1:40456 ... and md-b: ...", every line's setup, for the log when a topic opens. */
    public static String describeSetups(List<Line> lines) {
        return lines.stream().map(Line::describeSetup).collect(Collectors.joining(" and "));
    }
}
