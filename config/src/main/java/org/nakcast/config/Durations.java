package org.nakcast.config;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations as configuration writes them: a whole number and a unit, always: {@code ns},
 * {@code us}, {@code ms} or {@code s} ({@code 100ms}, {@code 2s}, {@code 50us}), and for the long
 * spans of a recorder's retention {@code h} or {@code d} ({@code 36h}, {@code 7d}). A plain number
 * is refused rather than guessed at: {@code heartbeat: 100} could mean 100 ms or 100 s.
 */
public final class Durations {
    private static final Pattern DURATION = Pattern.compile("(\\d+)\\s*([a-zA-Z]*)");
    private static final String HOW_TO_WRITE = "write a whole number followed by ns, us, ms, s, h or d, e.g. 100ms";
    /** The units only read, for long spans; durations are written in seconds at most. */
    private static final String[] LONG_UNIT_NAMES = {"d", "h"};
    private static final ChronoUnit[] LONG_UNITS = {ChronoUnit.DAYS, ChronoUnit.HOURS};
    private static final String[] UNIT_NAMES = {"s", "ms", "us", "ns"};
    private static final ChronoUnit[] UNITS =
        {ChronoUnit.SECONDS, ChronoUnit.MILLIS, ChronoUnit.MICROS, ChronoUnit.NANOS};
    private static final long[] NANOS_PER_UNIT = {1_000_000_000L, 1_000_000L, 1_000L, 1L};

    private Durations() {
    }

    /**
     * Reads a duration written as configuration writes it ({@code 10ms}, {@code 2s}).
     *
     * @param text the duration as written
     * @return the duration
     * @throws IllegalArgumentException if the text is not a duration with a unit, naming the units
     */
    public static Duration parse(String text) {
        Matcher matcher = DURATION.matcher(text.trim());
        if (!matcher.matches()) {
            throw new BadValueException("'" + text + "' is not a duration", HOW_TO_WRITE);
        }
        String unitName = matcher.group(2).toLowerCase(Locale.ROOT);
        if (unitName.isEmpty()) {
            throw new BadValueException("duration '" + text + "' has no unit", HOW_TO_WRITE);
        }
        for (int i = 0; i < UNIT_NAMES.length; i++) {
            if (UNIT_NAMES[i].equals(unitName)) {
                return Duration.of(amount(matcher.group(1), text), UNITS[i]);
            }
        }
        for (int i = 0; i < LONG_UNIT_NAMES.length; i++) {
            if (LONG_UNIT_NAMES[i].equals(unitName)) {
                return longSpan(amount(matcher.group(1), text), LONG_UNITS[i], text);
            }
        }
        throw new BadValueException("unknown unit '" + matcher.group(2) + "' in duration '" + text + "'", HOW_TO_WRITE);
    }

    private static Duration longSpan(long amount, ChronoUnit unit, String text) {
        try {
            final Duration span = Duration.of(amount, unit);
            span.toNanos();
            return span;
        } catch (ArithmeticException tooLong) {
            throw new BadValueException("duration '" + text + "' is too long", "the longest is about 106,000 days");
        }
    }

    private static long amount(String digits, String text) {
        try {
            return Long.parseLong(digits);
        } catch (NumberFormatException tooManyDigits) {
            throw new BadValueException("duration '" + text + "' is too long", "the largest is " + Long.MAX_VALUE);
        }
    }

    /**
     * Writes a duration the way configuration reads it, in the largest unit that keeps it exact:
     * {@code 100ms}, {@code 2s}, {@code 1500us}.
     *
     * @param duration the duration
     * @return the duration as configuration writes it
     * @throws ArithmeticException if the duration does not fit a long count of its unit
     */
    public static String format(Duration duration) {
        int unit = 0;
        while (duration.getNano() % NANOS_PER_UNIT[unit] != 0) {
            unit++; // ends at the last unit, nanoseconds, which divides every duration
        }
        long whole = Math.multiplyExact(duration.getSeconds(), NANOS_PER_UNIT[0] / NANOS_PER_UNIT[unit]);
        return Math.addExact(whole, duration.getNano() / NANOS_PER_UNIT[unit]) + UNIT_NAMES[unit];
    }
}
