package org.nakcast.codecs.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.nakcast.codecs.ClassNotAllowedException;
import org.nakcast.codecs.Codec;
import org.nakcast.codecs.CodecRegistry;
import org.nakcast.codecs.sample.SampleMessages;

/**
 * The contract of the codecs that read class names off the wire (JDK serialization, FST): a stream
 * naming a class outside the topic's allow-list is refused, naming the class, before the class is
 * loaded. Shown with a gadget class, and with the name of a class that does not exist (if the codec
 * tried to load it first, the error would be "class not found" instead). One subclass per codec
 * family writes the stream.
 */
public abstract class AllowListContractTest {
    private static final String GADGET = Gadget.class.getName();
    private static final String MISSING = GADGET.replace("Gadget", "Gadgex");

    /** Where the codecs under test are found. */
    protected final CodecRegistry registry = CodecRegistry.create();

    /**
     * @return the codecs under test, which all read the streams of {@link #streamOf}
     */
    protected abstract List<String> codecNames();

    /**
     * @param gadget a gadget
     * @return a stream in the codecs' format that carries it, as an attacker would write it
     */
    protected abstract byte[] streamOf(Gadget gadget);

    @Test
    void refusesAGadgetByName() {
        final byte[] stream = streamOf(new Gadget());
        for (final String codecName : codecNames()) {
            assertRefused(codecName, stream, GADGET);
        }
        assertThat(Gadget.readObjectRan()).isFalse();
    }

    @Test
    void refusesAnUnknownNameBeforeLoadingIt() {
        final byte[] stream = rename(streamOf(new Gadget()));
        for (final String codecName : codecNames()) {
            assertRefused(codecName, stream, MISSING);
        }
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
}
