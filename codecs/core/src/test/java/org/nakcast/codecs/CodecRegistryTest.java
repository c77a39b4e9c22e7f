package org.nakcast.codecs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/**
 * Finding codecs by name, registering user codecs, discovering them on the class path, and the
 * errors a wrong setting gets at start. This module's test class path holds neither FST nor Kryo,
 * as a service's that does without them: the registry must work there and say what is missing.
 */
class CodecRegistryTest {
    private final CodecRegistry registry = CodecRegistry.create();

    @Test
    void knowsItsOwnCodecsAndTheOnesOnTheClassPath() {
        assertThat(registry.names()).containsExactly("flyweight", "jdk", "jdk-externalizable",
            Utf8StringCodecProvider.NAME);
        assertThat(CodecRegistry.builtIns().names()).containsExactly("flyweight", "jdk", "jdk-externalizable");
    }

    @Test
    void worksWithoutTheOptionalCodecsJars() {
        assertThatThrownBy(() -> Class.forName("org.nustaq.serialization.FSTConfiguration"))
            .as("this test's premise: no FST on the class path")
            .isInstanceOf(ClassNotFoundException.class);
        final Codec<Quote> codec = CodecRegistry.builtIns().create(CodecSpec.of("jdk", Quote.class));
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[1024]);
        final Quote quote = new Quote("EURUSD", 1.0825);
        assertThat(codec.decode(buffer, 0, codec.encode(quote, buffer, 0, 1024))).isEqualTo(quote);
    }

    @Test
    void namesTheModuleThatBringsAMissingOptionalCodec() {
        for (final String name : new String[] {"fst", "fst-unshared"}) {
            assertThatThrownBy(() -> registry.create(CodecSpec.of(name, Quote.class)))
                .isInstanceOf(UnknownCodecException.class)
                .hasMessageContaining("'" + name + "'")
                .hasMessageContaining("org.nakcast:nakcast-codecs-fst");
        }
        assertThatThrownBy(() -> registry.create(CodecSpec.of("kryo", Quote.class)))
            .isInstanceOf(UnknownCodecException.class)
            .hasMessageContaining("org.nakcast:nakcast-codecs-kryo")
            .hasMessageContaining("known codecs: flyweight, jdk, jdk-externalizable");
    }

    @Test
    void makesACodecNamedBySpec() {
        final Codec<Quote> codec = registry.create(CodecSpec.of("jdk", Quote.class));
        assertThat(codec.name()).isEqualTo("jdk");
        assertThat(codec.messageClass()).isEqualTo(Quote.class);
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
        assertThatThrownBy(() -> registry.register("jdk", new Utf8StringCodecProvider()))
            .isInstanceOf(CodecConfigurationException.class)
            .hasMessageContaining("'jdk'");
    }

    @Test
    void namesTheKnownCodecsWhenOneIsUnknown() {
        assertThatThrownBy(() -> registry.create(CodecSpec.of("protobuf", Quote.class)))
            .isInstanceOf(UnknownCodecException.class)
            .hasMessageContaining("'protobuf'")
            .hasMessageContaining("flyweight, jdk, jdk-externalizable");
    }

    @Test
    void refusesAnExternalizableCodecForAPlainClassOrARecord() {
        assertThatThrownBy(() -> registry.create(CodecSpec.of("jdk-externalizable", Quote.class)))
            .isInstanceOf(CodecConfigurationException.class)
            .hasMessageContaining(Quote.class.getName());
        assertThatThrownBy(() -> registry.create(CodecSpec.of("jdk", Object.class)))
            .isInstanceOf(CodecConfigurationException.class)
            .hasMessageContaining("is not java.io.Serializable");
    }

    @Test
    void refusesAFlyweightCodecWithoutABinding() {
        assertThatThrownBy(() -> registry.create(CodecSpec.of("flyweight", Quote.class)))
            .isInstanceOf(CodecConfigurationException.class)
            .hasMessageContaining("no SBE binding for " + Quote.class.getName());
    }

    @Test
    void registersTheMessageClassFirstUnlessListed() {
        assertThat(CodecSpec.of("fst", Quote.class, ArrayList.class).registeredClasses())
            .containsExactly(Quote.class, ArrayList.class);
        assertThat(CodecSpec.of("fst", Quote.class, ArrayList.class, Quote.class).registeredClasses())
            .containsExactly(ArrayList.class, Quote.class);
    }

    @Test
    void makesASpecFromClassNamesOrNamesTheMissingOne() {
        final CodecSpec<?> spec = CodecSpec.fromNames("kryo", Quote.class.getName(),
            List.of(ArrayList.class.getName()), getClass().getClassLoader());
        assertThat(spec.registeredClasses()).containsExactly(Quote.class, ArrayList.class);

        assertThatThrownBy(() -> CodecSpec.fromNames("kryo", "com.example.Missing", List.of(),
            getClass().getClassLoader()))
            .isInstanceOf(UnknownClassException.class)
            .hasMessageContaining("com.example.Missing");
    }

    /**
     * A message of this module's tests: a record, so serializable as it is.
     *
     * @param instrument what is quoted
     * @param price      the price
     */
    record Quote(String instrument, double price) implements Serializable {
    }
}
