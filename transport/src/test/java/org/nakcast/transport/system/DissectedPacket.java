package org.nakcast.transport.system;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * One datagram as the Wireshark dissector showed it: display field name to value, as
 * {@code tshark -T fields} prints it (several occurrences joined with commas, absent as empty).
 */
record DissectedPacket(Map<String, String> fields) {
    /** The field's text, empty when the packet does not have it. */
    String text(String field) {
        return fields.getOrDefault(field, "");
    }

    /** Whether the packet has the field. */
    boolean has(String field) {
        return !text(field).isEmpty();
    }

    /** The field's number (decimal, or hexadecimal with {@code 0x}). */
    long number(String field) {
        return parse(text(field));
    }

    /** A time field in seconds with a fraction (such as {@code frame.time_relative}), in nanoseconds. */
    long nanos(String field) {
        return new BigDecimal(text(field)).movePointRight(9).longValueExact();
    }

    /** Every occurrence of the field, in order. */
    List<Long> numbers(String field) {
        return has(field) ? Arrays.stream(text(field).split(",")).map(DissectedPacket::parse).toList() : List.of();
    }

    private static long parse(String value) {
        return value.startsWith("0x") ? Long.parseUnsignedLong(value.substring(2), 16) : Long.parseLong(value);
    }

    @Override
    public String toString() {
        return fields.toString();
    }
}
