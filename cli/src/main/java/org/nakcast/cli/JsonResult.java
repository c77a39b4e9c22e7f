package org.nakcast.cli;

import java.util.LinkedHashMap;
import java.util.Map;

import tools.jackson.databind.json.JsonMapper;

/**
 * The result a command prints as the last line of its standard output: one JSON object, its fields
 * in the order they were put, for scripts and tests to read.
 */
final class JsonResult {
    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    private final Map<String, Object> fields = new LinkedHashMap<>();

    /** @return this, with the field set */
    JsonResult put(String name, Object value) {
        fields.put(name, value);
        return this;
    }

    /** Messages per second over {@code nanos}, rounded; 0 for no time. */
    static long perSecond(long messages, long nanos) {
        return nanos <= 0 ? 0 : Math.round(messages * 1e9 / nanos);
    }

    /** Seconds, to the millisecond. */
    static double seconds(long nanos) {
        return Math.round(nanos / 1e6) / 1e3;
    }

    /** The object on one line. */
    @Override
    public String toString() {
        return MAPPER.writeValueAsString(fields);
    }
}
