package org.nakcast.config;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A number of bytes, as configuration writes it: a plain whole number of bytes ({@code 1408}) or
 * a whole number with the suffix {@code k}, {@code m} or {@code g}, case-insensitive, meaning
 * binary multiples ({@code 64k} = 65 536 bytes, {@code 2m} = 2 097 152, {@code 1g} = 2^30).
 * Fractions ({@code 1.5m}) and negative sizes are refused: say {@code 1536k}.
 *
 * <p>{@link #toString()} writes the size back in the shortest exact form ({@code 64k}, not
 * {@code 65536}), so a size read from a file and printed again looks as it was written.
 *
 * @param bytes the size in bytes, never negative
 */
public record ByteSize(long bytes) implements Comparable<ByteSize> {
    /** No bytes: for a send rate it means "not paced". */
    public static final ByteSize ZERO = new ByteSize(0);

    private static final Pattern SIZE = Pattern.compile("(\\d+)\\s*([kmg]?)", Pattern.CASE_INSENSITIVE);
    private static final String HOW_TO_WRITE =
        "write a whole number of bytes, optionally followed by k, m or g (multiples of 1024), e.g. 1408, 64k, 4m";
    private static final String[] SUFFIXES = {"g", "m", "k"};
    private static final int[] SHIFTS = {30, 20, 10};

    /**
     * Checks the size.
     *
     * @throws IllegalArgumentException if {@code bytes} is negative
     */
    public ByteSize {
        if (bytes < 0) {
            throw new IllegalArgumentException("a size cannot be negative: " + bytes);
        }
    }

    /**
     * Reads a size written as configuration writes it ({@code 1408}, {@code 64k}, {@code 2M}).
     *
     * @param text the size as written
     * @return the size
     * @throws IllegalArgumentException if the text is not a size, saying how to write one
     */
    public static ByteSize parse(String text) {
        Matcher matcher = SIZE.matcher(text.trim());
        if (!matcher.matches()) {
            throw new BadValueException("'" + text + "' is not a size", HOW_TO_WRITE);
        }
        int shift = shiftOf(matcher.group(2).toLowerCase(Locale.ROOT));
        try {
            long number = Long.parseLong(matcher.group(1));
            if (number > Long.MAX_VALUE >> shift) {
                throw new NumberFormatException();
            }
            return new ByteSize(number << shift);
        } catch (NumberFormatException tooManyDigits) {
            throw new BadValueException("size '" + text + "' is too large", "the largest is " + Long.MAX_VALUE);
        }
    }

    private static int shiftOf(String suffix) {
        for (int i = 0; i < SUFFIXES.length; i++) {
            if (SUFFIXES[i].equals(suffix)) {
                return SHIFTS[i];
            }
        }
        return 0;
    }

    /**
     * The size as an {@code int}, for the APIs that take one (socket buffers, datagram lengths).
     *
     * @return the number of bytes
     * @throws ArithmeticException if the size does not fit an {@code int}
     */
    public int toIntExact() {
        return Math.toIntExact(bytes);
    }

    /** @return true if this is zero bytes */
    public boolean isZero() {
        return bytes == 0;
    }

    @Override
    public int compareTo(ByteSize other) {
        return Long.compare(bytes, other.bytes);
    }

    /** @return the size in the shortest exact form configuration accepts: {@code 64k}, {@code 1408} */
    @Override
    public String toString() {
        for (int i = 0; i < SUFFIXES.length; i++) {
            long unit = 1L << SHIFTS[i];
            if (bytes != 0 && bytes % unit == 0) {
                return bytes / unit + SUFFIXES[i];
            }
        }
        return Long.toString(bytes);
    }
}
