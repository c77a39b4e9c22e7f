package org.nakcast.transport.media;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;

/**
 * The address and port a datagram came from, held as numbers so that a media fills it, and a
 * receiver keeps and compares it, without allocating. An IPv4 address is its 32 bits in
 * {@code low}; an IPv6 address its 128 bits in {@code high} and {@code low}; the family is part of
 * the value, so no IPv4 source equals an IPv6 one. A source that a media could not tell is
 * unknown, and equals nothing, not even another unknown one.
 */
public final class DatagramSource {
    private static final int UNKNOWN = 0;
    private static final int IPV4 = 4;
    private static final int IPV6 = 6;

    private int family = UNKNOWN;
    private long high;
    private long low;
    private int port;

    /** Sets an IPv4 source: {@code address} as on the wire (its first byte the highest), {@code port}. */
    public DatagramSource ipv4(int address, int port) {
        this.family = IPV4;
        this.high = 0;
        this.low = address & 0xFFFF_FFFFL;
        this.port = port;
        return this;
    }

    /** Sets an IPv6 source: the address's first eight bytes in {@code high}, its last eight in {@code low}. */
    public DatagramSource ipv6(long high, long low, int port) {
        this.family = IPV6;
        this.high = high;
        this.low = low;
        this.port = port;
        return this;
    }

    /** Sets the source of a datagram whose sender the media could not tell. */
    public DatagramSource unknown() {
        this.family = UNKNOWN;
        this.high = 0;
        this.low = 0;
        this.port = 0;
        return this;
    }

    /**
     * Sets the source from a socket address, as {@code DatagramChannel.receive} returns it; it
     * allocates (the address's bytes are copied out), so a media calls it only when the address
     * object changed.
     */
    public DatagramSource set(InetSocketAddress address) {
        if (address.getAddress() instanceof Inet4Address v4) {
            return ipv4(ByteBuffer.wrap(v4.getAddress()).getInt(), address.getPort());
        }
        if (address.getAddress() instanceof Inet6Address v6) {
            final ByteBuffer bytes = ByteBuffer.wrap(v6.getAddress());
            return ipv6(bytes.getLong(), bytes.getLong(), address.getPort());
        }
        return unknown();
    }

    /** Makes this source the same as {@code other}. */
    public DatagramSource copy(DatagramSource other) {
        this.family = other.family;
        this.high = other.high;
        this.low = other.low;
        this.port = other.port;
        return this;
    }

    /** Whether the media told where the datagram came from. */
    public boolean isKnown() {
        return family != UNKNOWN;
    }

    /** Whether {@code other} is the same known address and port. */
    public boolean sameAs(DatagramSource other) {
        return family != UNKNOWN && family == other.family && port == other.port && low == other.low
            && high == other.high;
    }

    /** Whether {@code other} is the same known address, whatever its port: the same host. */
    public boolean sameAddressAs(DatagramSource other) {
        return family != UNKNOWN && family == other.family && low == other.low && high == other.high;
    }

    /** The address and port as people write them: {@code 10.0.0.7:40123}, {@code [fe80:0:0:0:0:0:0:1]:40123}. */
    @Override
    public String toString() {
        return switch (family) {
            case IPV4 -> (low >>> 24) + "." + (low >>> 16 & 0xFF) + "." + (low >>> 8 & 0xFF) + "." + (low & 0xFF)
                + ":" + port;
            case IPV6 -> "[" + groups(high) + ":" + groups(low) + "]:" + port;
            default -> "an unknown source";
        };
    }

    private static String groups(long bits) {
        return Long.toHexString(bits >>> 48) + ":" + Long.toHexString(bits >>> 32 & 0xFFFF) + ":"
            + Long.toHexString(bits >>> 16 & 0xFFFF) + ":" + Long.toHexString(bits & 0xFFFF);
    }
}
