package org.nakcast.config;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * IP address literals ({@code 239.1.2.3}, {@code ff15::1}), read without ever asking DNS:
 * configuration names groups and interface addresses by number, and a host name there is an
 * error, not a lookup that may hang at start.
 */
final class IpLiterals {
    private static final Pattern IPV4 = Pattern.compile("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})");
    private static final Pattern IPV6 = Pattern.compile("[0-9a-fA-F:.]*:[0-9a-fA-F:.]*");
    private static final String HOW_TO_WRITE =
        "write an IPv4 (239.1.2.3) or IPv6 (ff15::1) address; host names are not looked up";

    private IpLiterals() {
    }

    /** @return true if the text is shaped like an IPv4 or IPv6 literal (it may still be out of range) */
    static boolean looksLikeAddress(String text) {
        return IPV4.matcher(text).matches() || IPV6.matcher(text).matches();
    }

    /**
     * Reads an IP address literal.
     *
     * @throws IllegalArgumentException if the text is not an IPv4 or IPv6 literal
     */
    static InetAddress parse(String text) {
        Matcher ipv4 = IPV4.matcher(text);
        if (ipv4.matches()) {
            byte[] octets = new byte[4];
            for (int i = 0; i < octets.length; i++) {
                int octet = Integer.parseInt(ipv4.group(i + 1));
                if (octet > 255) {
                    throw notAnAddress(text);
                }
                octets[i] = (byte) octet;
            }
            return byAddress(octets, text);
        }
        if (IPV6.matcher(text).matches()) {
            try {
                return InetAddress.getByName(text); // a literal with ':' is parsed, never looked up
            } catch (UnknownHostException malformed) {
                throw notAnAddress(text);
            }
        }
        throw notAnAddress(text);
    }

    private static InetAddress byAddress(byte[] octets, String text) {
        try {
            return InetAddress.getByAddress(octets);
        } catch (UnknownHostException wrongLength) {
            throw notAnAddress(text);
        }
    }

    private static BadValueException notAnAddress(String text) {
        return new BadValueException("'" + text + "' is not an IP address", HOW_TO_WRITE);
    }
}
