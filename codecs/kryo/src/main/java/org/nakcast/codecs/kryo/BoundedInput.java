package org.nakcast.codecs.kryo;

import com.esotericsoftware.kryo.io.Input;

/**
 * Kryo's {@link Input}, checking a string's character count read off the wire against the bytes
 * that remain (each UTF-8 character takes at least one) before Kryo sizes a char array from it.
 */
final class BoundedInput extends Input {
    @Override
    public String readString() {
        final int start = position;
        if (limit - position > 0 && readVarIntFlag()) {
            final int charCount = readVarIntFlag(true) - 1;
            final int remaining = limit - position;
            position = start;
            if (charCount > remaining) {
                throw new BoundedCollectionSerializer.KryoBoundsException(
                    "string of " + charCount + " characters with " + remaining + " bytes left", start);
            }
        }
        return super.readString();
    }
}
