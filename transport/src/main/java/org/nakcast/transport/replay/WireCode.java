package org.nakcast.transport.replay;

/** A value sent as a number: found again by it, or as the value that stands for numbers this version does not know. */
interface WireCode {
    /** The number sent. */
    int code();

    /** The value of {@code values} whose code is {@code code}, else {@code unknown}. */
    static <E extends Enum<E> & WireCode> E of(E[] values, int code, E unknown) {
        for (E value : values) {
            if (value.code() == code) {
                return value;
            }
        }
        return unknown;
    }
}
