package org.nakcast.codecs.fst;

import java.io.EOFException;

import org.nakcast.codecs.CodecException;
import org.nakcast.codecs.CorruptMessageException;
import org.nakcast.codecs.TruncatedMessageException;

/**
 * Turns what FST throws into the codec errors: FST wraps and rethrows freely, so the cause chain is
 * searched for the typed error raised by the checks, and anything else is corrupt input.
 */
final class FstErrors {
    private FstErrors() {
    }

    static CodecException translate(String codecName, Throwable thrown, int offset) {
        for (Throwable cause = thrown; cause != null; cause = cause.getCause()) {
            if (cause instanceof CodecException codecException) {
                return codecException;
            }
            if (cause instanceof FstBoundsException bounds) {
                return new TruncatedMessageException(bounds.getMessage(), offset + bounds.position(), thrown);
            }
            if (cause instanceof ArrayIndexOutOfBoundsException || cause instanceof EOFException) {
                return new TruncatedMessageException(codecName + " read past the end", offset, thrown);
            }
        }
        return new CorruptMessageException(codecName + " cannot decode: " + thrown, offset, thrown);
    }
}
