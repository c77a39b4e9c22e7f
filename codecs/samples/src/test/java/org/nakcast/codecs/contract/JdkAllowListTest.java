package org.nakcast.codecs.contract;

import java.util.List;

import org.agrona.concurrent.UnsafeBuffer;
import org.nakcast.codecs.Codec;
import org.nakcast.codecs.CodecNames;
import org.nakcast.codecs.CodecRegistry;
import org.nakcast.codecs.CodecSpec;

/**
 * The allow-list contract for {@value CodecRegistry#JDK}: the gadget's stream is plain Java
 * serialization, written by a JDK codec that allows it.
 */
final class JdkAllowListTest extends AllowListContractTest {
    private static final int CAPACITY = 4096;

    @Override
    protected List<String> codecNames() {
        return List.of(CodecNames.JDK);
    }

    @Override
    protected byte[] streamOf(Gadget gadget) {
        final Codec<Gadget> writer = registry.create(CodecSpec.of(CodecNames.JDK, Gadget.class));
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[CAPACITY]);
        final byte[] stream = new byte[writer.encode(gadget, buffer, 0, CAPACITY)];
        buffer.getBytes(0, stream);
        return stream;
    }
}
