package org.nakcast.codecs.kryo;

import java.util.ArrayList;

import com.esotericsoftware.kryo.Kryo;
import org.nakcast.codecs.AllowedClasses;
import org.nakcast.codecs.Codec;
import org.nakcast.codecs.CodecNames;
import org.nakcast.codecs.CodecProvider;
import org.nakcast.codecs.CodecSpec;

/**
 * Makes {@code kryo} codecs: Kryo 5 with registration required (the spec's classes, in order, the
 * message class among them; a field of a closed class off the list is refused at once),
 * references off (messages are trees), records through Kryo's own record serializer, and
 * {@link ArrayList} through {@link BoundedCollectionSerializer}. Run with
 * {@code -Dkryo.unsafe=false} (ops/jvm-kryo.options has it): this codec uses Kryo's safe
 * {@code Input}/{@code Output} only.
 */
public final class KryoCodecProvider implements CodecProvider {
    @Override
    public String codecName() {
        return CodecNames.KRYO;
    }

    @Override
    public <T> Codec<T> create(CodecSpec<T> spec) {
        final AllowedClasses allowed = AllowedClasses.numbered(spec, AllowedClasses.STRING_AND_BOXED)
            .requireBoundedContainers()
            .requireFieldClassesCarried();
        final Kryo kryo = new Kryo();
        kryo.setRegistrationRequired(true);
        kryo.setReferences(false);
        for (final Class<?> type : allowed.registered()) {
            if (type == ArrayList.class) {
                kryo.register(type, new BoundedCollectionSerializer());
            } else {
                kryo.register(type);
            }
        }
        return new KryoCodec<>(spec.messageClass(), allowed, kryo);
    }
}
