package org.nakcast.codecs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.nakcast.codecs.sample.Instrument;
import org.nakcast.codecs.sample.PriceUpdate;
import org.nakcast.codecs.sample.PriceUpdateRecord;

/**
 * Finding codecs by name, registering user codecs, discovering them on the class path, and the
 * errors a wrong setting gets at start.
 */
class CodecRegistryTest {
    private final CodecRegistry registry = CodecRegistry.create();

    @Test
    void knowsTheBuiltInCodecsAndTheOnesOnTheClassPath() {
        assertThat(registry.names()).contains("flyweight", "fst", "fst-unshared", "jdk", "jdk-externalizable", "kryo",
            Utf8StringCodecProvider.NAME);
        assertThat(CodecRegistry.builtIns().names()).doesNotContain(Utf8StringCodecProvider.NAME);
    }

    @Test
    void makesACodecNamedBySpec() {
        final Codec<PriceUpdate> codec = registry.create(CodecSpec.of("kryo", PriceUpdate.class, Instrument.class));
        assertThat(codec.name()).isEqualTo("kryo");
        assertThat(codec.messageClass()).isEqualTo(PriceUpdate.class);
    }

    @Test
    void registersAUserCodec() {
        registry.register("utf8-again", new Utf8StringCodecProvider());
        final Codec<String> codec = registry.create(CodecSpec.of("utf8-again", String.class));
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[16]);
        assertThat(codec.decode(buffer, 0, codec.encode("héllo", buffer, 0, 16))).isEqualTo("héllo");
    }

    @Test
    void refusesANameTwice() {
        assertThatThrownBy(() -> registry.register("kryo", new Utf8StringCodecProvider()))
            .isInstanceOf(CodecConfigurationException.class)
            .hasMessageContaining("'kryo'");
    }

    @Test
    void namesTheKnownCodecsWhenOneIsUnknown() {
        assertThatThrownBy(() -> registry.create(CodecSpec.of("protobuf", PriceUpdate.class)))
            .isInstanceOf(UnknownCodecException.class)
            .hasMessageContaining("'protobuf'")
            .hasMessageContaining("fst-unshared, jdk");
    }

    @Test
    void refusesAnExternalizableCodecForAPlainClassOrARecord() {
        assertThatThrownBy(() -> registry.create(CodecSpec.of("jdk-externalizable", PriceUpdate.class)))
            .isInstanceOf(CodecConfigurationException.class)
            .hasMessageContaining(PriceUpdate.class.getName());
        assertThatThrownBy(() -> registry.create(CodecSpec.of("jdk", Object.class)))
            .isInstanceOf(CodecConfigurationException.class)
            .hasMessageContaining("is not java.io.Serializable");
    }

    @Test
    void refusesAFlyweightCodecWithoutABinding() {
        assertThatThrownBy(() -> registry.create(CodecSpec.of("flyweight", Instrument.class)))
            .isInstanceOf(CodecConfigurationException.class)
            .hasMessageContaining("no SBE binding for " + Instrument.class.getName());
    }

    @Test
    void refusesContainersSizedFromTheWire() {
        for (final String name : new String[] {"fst", "fst-unshared", "kryo"}) {
            assertThatThrownBy(() -> registry.create(CodecSpec.of(name, WithMap.class)))
                .as(name)
                .isInstanceOf(CodecConfigurationException.class)
                .hasMessageContaining(WithMap.class.getName() + ".prices")
                .hasMessageContaining("java.util.HashMap");
            assertThatThrownBy(() -> registry.create(CodecSpec.of(name, PriceUpdate.class, long[].class)))
                .as(name)
                .isInstanceOf(CodecConfigurationException.class)
                .hasMessageContaining("array");
        }
    }

    @Test
    void registersTheMessageClassFirstUnlessListed() {
        assertThat(CodecSpec.of("fst", PriceUpdate.class, Instrument.class).registeredClasses())
            .containsExactly(PriceUpdate.class, Instrument.class);
        assertThat(CodecSpec.of("fst", PriceUpdate.class, Instrument.class, PriceUpdate.class).registeredClasses())
            .containsExactly(Instrument.class, PriceUpdate.class);
    }

    @Test
    void makesASpecFromClassNamesOrNamesTheMissingOne() {
        final CodecSpec<?> spec = CodecSpec.fromNames("kryo", PriceUpdateRecord.class.getName(),
            java.util.List.of(ArrayList.class.getName()), getClass().getClassLoader());
        assertThat(spec.registeredClasses()).containsExactly(PriceUpdateRecord.class, ArrayList.class);

        assertThatThrownBy(() -> CodecSpec.fromNames("kryo", "com.example.Missing", java.util.List.of(),
            getClass().getClassLoader()))
            .isInstanceOf(UnknownClassException.class)
            .hasMessageContaining("com.example.Missing");
    }

    /**
     * A message with a map field, which FST and Kryo would size from the wire.
     */
    static final class WithMap implements java.io.Serializable {
        private static final long serialVersionUID = 1L;

        HashMap<String, Double> prices = new HashMap<>();
    }
}
