package org.nakcast.codecs.fst;

import java.io.IOException;

/**
 * Raised inside FST when a length read off the wire does not fit the bytes that remain; the codec
 * turns it into a {@link org.nakcast.codecs.TruncatedMessageException} at the buffer offset.
 */
final class FstBoundsException extends IOException {
    private static final long serialVersionUID = 1L;

    private final int position;

    FstBoundsException(String message, int position) {
        super(message);
        this.position = position;
    }

    int position() {
        return position;
    }
}
