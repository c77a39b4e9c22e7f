package org.nakcast.transport.media;

import java.util.Objects;

/**
 * One of the transports a topic travels on. A topic on one transport has one line; a topic on
 * redundant lines has two ("line A" and "line B", each its own interface, group and ports), and its
 * publisher sends every datagram on both.
 *
 * @param name the transport's name in the config, for events, logs and counters
 * @param address where the line's datagrams go
 */
public record Line(String name, MulticastAddress address) {
    /** Checks that both are given. */
    public Line {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(address, "address");
    }

    /** "md-a: 239.255.0.1:40456 (control 40457) on lo, ...", for the log when a topic opens. */
    public String describeSetup() {
        return name + ": " + address.describeSetup();
    }
}
