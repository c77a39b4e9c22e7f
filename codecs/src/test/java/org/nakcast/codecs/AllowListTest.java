package org.nakcast.codecs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.nakcast.codecs.sample.SampleMessages;
import org.nustaq.serialization.FSTConfiguration;

/**
 * A stream naming a class outside the topic's allow-list is refused, naming the class, before the
 * class is loaded: shown with a gadget class, and with the name of a class that does not exist
 * (if the codec tried to load it first, the error would be "class not found" instead).
 */
class AllowListTest {
    private static final String GADGET = Gadget.class.getName();
    private static final String MISSING = GADGET.replace("Gadget", "Gadgex");

    private final CodecRegistry registry = CodecRegistry.create();

    @Test
    void jdkRefusesAGadgetByName() {
        final byte[] stream = jdkStreamOf(new Gadget());
        assertRefused(CodecRegistry.JDK, stream, GADGET);
        assertThat(Gadget.readObjectRan).isFalse();
    }

    @Test
    void jdkRefusesAnUnknownNameBeforeLoadingIt() {
        assertRefused(CodecRegistry.JDK, rename(jdkStreamOf(new Gadget())), MISSING);
    }

    @Test
    void fstRefusesAGadgetByName() {
        final byte[] stream = FSTConfiguration.createDefaultConfiguration().asByteArray(new Gadget());
        assertRefused(CodecRegistry.FST, stream, GADGET);
        assertRefused(CodecRegistry.FST_UNSHARED, stream, GADGET);
    }

    @Test
    void fstRefusesAnUnknownNameBeforeLoadingIt() {
        final byte[] stream = rename(FSTConfiguration.createDefaultConfiguration().asByteArray(new Gadget()));
        assertRefused(CodecRegistry.FST, stream, MISSING);
    }

    @Test
    void everyObjectCodecRefusesToWriteAClassOffTheList() {
        for (final String name : new String[] {CodecRegistry.FST, CodecRegistry.FST_UNSHARED, CodecRegistry.JDK,
            CodecRegistry.KRYO}) {
            final Codec<Holder> holders = registry.create(CodecSpec.of(name, Holder.class));
            final Holder holder = new Holder();
            holder.payload = new Gadget();
            assertThatThrownBy(() -> holders.encode(holder, new UnsafeBuffer(new byte[4096]), 0, 4096))
                .as(name)
                .isInstanceOf(UnknownClassException.class)
                .hasMessageContaining(GADGET);
        }
    }

    private byte[] jdkStreamOf(Gadget gadget) {
        final Codec<Gadget> writer = registry.create(CodecSpec.of(CodecRegistry.JDK, Gadget.class));
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[4096]);
        final int length = writer.encode(gadget, buffer, 0, 4096);
        final byte[] stream = new byte[length];
        buffer.getBytes(0, stream);
        return stream;
    }

    private void assertRefused(String codecName, byte[] stream, String className) {
        final Codec<?> prices = registry.create(SampleMessages.priceUpdateSpec(codecName));
        assertThatThrownBy(() -> prices.decode(new UnsafeBuffer(stream), 0, stream.length))
            .as(codecName)
            .isInstanceOf(ClassNotAllowedException.class)
            .hasMessageContaining(className)
            .satisfies(thrown -> assertThat(((ClassNotAllowedException) thrown).className()).isEqualTo(className));
    }

    private static byte[] rename(byte[] stream) {
        final String text = new String(stream, StandardCharsets.ISO_8859_1);
        assertThat(text).contains(GADGET);
        return text.replace(GADGET, MISSING).getBytes(StandardCharsets.ISO_8859_1);
    }

    /**
     * A registered class whose field holds something unregistered.
     */
    static final class Holder implements java.io.Serializable {
        private static final long serialVersionUID = 1L;

        java.io.Serializable payload;
    }
}
