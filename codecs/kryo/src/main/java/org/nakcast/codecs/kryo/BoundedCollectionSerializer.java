package org.nakcast.codecs.kryo;

import java.util.ArrayList;
import java.util.Collection;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.serializers.CollectionSerializer;

/**
 * Kryo's collection serializer for {@link ArrayList}, checking the element count read off the wire
 * against the bytes that remain (each element takes at least one) before the list is sized from it.
 */
final class BoundedCollectionSerializer extends CollectionSerializer<Collection<Object>> {
    @Override
    protected Collection<Object> create(Kryo kryo, Input input, Class<? extends Collection<Object>> type, int size) {
        final int remaining = input.limit() - input.position();
        if (size < 0 || size > remaining) {
            throw new KryoBoundsException("list of " + size + " elements with " + remaining + " bytes left",
                input.position());
        }
        return new ArrayList<>(size);
    }

    /**
     * A length off the wire that does not fit the bytes left.
     */
    static final class KryoBoundsException extends KryoException {
        private static final long serialVersionUID = 1L;

        private final int position;

        KryoBoundsException(String message, int position) {
            super(message);
            this.position = position;
        }

        int position() {
            return position;
        }
    }
}
