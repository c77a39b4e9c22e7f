package org.nakcast.benchmarks.child;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Named numbers, in the order they were put: what a child JVM reports to the orchestrator as one
 * line of {@code name=value} pairs, and what the orchestrator reads back. Whole numbers stay
 * {@code long}; the rest are {@code double}.
 */
public final class Figures {
    private final Map<String, Number> values = new LinkedHashMap<>();

    /**
     * Puts a whole number.
     *
     * @return this
     */
    public Figures put(String name, long value) {
        values.put(name, value);
        return this;
    }

    /**
     * Puts a fraction.
     *
     * @return this
     */
    public Figures put(String name, double value) {
        values.put(name, value);
        return this;
    }

    /**
     * Puts every figure of {@code other}.
     *
     * @return this
     */
    public Figures putAll(Figures other) {
        values.putAll(other.values);
        return this;
    }

    /** A whole number by name; 0 if there is none. */
    public long longValue(String name) {
        final Number value = values.get(name);
        return value == null ? 0 : value.longValue();
    }

    /** A number by name; NaN if there is none. */
    public double doubleValue(String name) {
        final Number value = values.get(name);
        return value == null ? Double.NaN : value.doubleValue();
    }

    /** Every figure, in the order put. */
    public Map<String, Number> asMap() {
        return Collections.unmodifiableMap(values);
    }

    /** The figures as one line of space-separated {@code name=value} pairs. */
    public String toLine() {
        final StringBuilder line = new StringBuilder();
        values.forEach((name, value) -> line.append(line.isEmpty() ? "" : " ").append(name).append('=')
            .append(format(value)));
        return line.toString();
    }

    /** Reads a line {@link #toLine()} wrote. */
    public static Figures parse(String line) {
        final Figures figures = new Figures();
        for (String pair : line.trim().split("\\s+")) {
            if (pair.isEmpty()) {
                continue;
            }
            final int equals = pair.indexOf('=');
            if (equals < 1) {
                throw new IllegalArgumentException("not a name=value pair: '" + pair + "' in '" + line + "'");
            }
            final String name = pair.substring(0, equals);
            final String text = pair.substring(equals + 1);
            if (text.matches("-?\\d+")) {
                figures.put(name, Long.parseLong(text));
            } else {
                figures.put(name, Double.parseDouble(text));
            }
        }
        return figures;
    }

    /** A number as JSON and {@link #toLine()} write it: whole numbers plainly, fractions to 6 places. */
    public static String format(Number value) {
        if (value instanceof Double fraction) {
            return Double.isFinite(fraction) ? String.format(Locale.ROOT, "%.6f", fraction) : "NaN";
        }
        return value.toString();
    }
}
