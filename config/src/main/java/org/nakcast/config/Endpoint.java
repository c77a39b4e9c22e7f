package org.nakcast.config;

import java.net.InetAddress;
import java.net.InetSocketAddress;

/**
 * An IP address and a TCP port, as configuration writes them: {@code 10.0.0.7:40480}, or
 * {@code [fd00::7]:40480} for IPv6. The address is a literal, never a host name looked up.
 *
 * @param address the address
 * @param port the port, 1..65535
 */
public record Endpoint(InetAddress address, int port) {
    private static final String HOW_TO_WRITE = "write address:port, e.g. 127.0.0.1:40480 or [::1]:40480";

    /** Checks the port. */
    public Endpoint {
        if (port < 1 || port > 65_535) {
            throw new BadValueException("port " + port + " is out of range", "a port is 1..65535");
        }
    }

    /**
     * Reads {@code address:port}.
     *
     * @throws IllegalArgumentException if it is not an address literal, a colon and a port
     */
    public static Endpoint parse(String text) {
        final String trimmed = text.trim();
        final int colon = trimmed.lastIndexOf(':');
        if (colon <= 0 || colon == trimmed.length() - 1) {
            throw new BadValueException("'" + text + "' is not an endpoint", HOW_TO_WRITE);
        }
        String host = trimmed.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        } else if (host.contains(":")) {
            throw new BadValueException("'" + text + "' is not an endpoint", "an IPv6 address goes in brackets: "
                + HOW_TO_WRITE);
        }
        final int port;
        try {
            port = Integer.parseInt(trimmed.substring(colon + 1));
        } catch (NumberFormatException notANumber) {
            throw new BadValueException("'" + text + "' has no port number", HOW_TO_WRITE);
        }
        return new Endpoint(IpLiterals.parse(host), port);
    }

    /** @return the endpoint to bind or connect to */
    public InetSocketAddress socketAddress() {
        return new InetSocketAddress(address, port);
    }

    /** As configuration writes it. */
    @Override
    public String toString() {
        final String host = address.getHostAddress();
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }
}
