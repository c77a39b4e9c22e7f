package org.nakcast.codecs.sbe;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

import org.nakcast.codecs.Codec;
import org.nakcast.codecs.CodecConfigurationException;
import org.nakcast.codecs.CodecNames;
import org.nakcast.codecs.CodecProvider;
import org.nakcast.codecs.CodecSpec;

/**
 * Makes {@code flyweight} codecs: finds the {@link SbeBinding} the spec's class belongs to: its
 * message class (the object path), or its generated encoder or decoder (the flyweight path, where
 * a topic may carry several message types, one binding each). The spec's further classes are not
 * used (the schema fixes the layout).
 */
public final class SbeCodecProvider implements CodecProvider {
    private final List<SbeBinding<?, ?, ?>> bindings;

    /**
     * Uses the bindings that {@link ServiceLoader} finds.
     */
    public SbeCodecProvider() {
        this(discover());
    }

    /**
     * @param bindings the bindings to choose from
     */
    public SbeCodecProvider(List<SbeBinding<?, ?, ?>> bindings) {
        this.bindings = List.copyOf(bindings);
    }

    @Override
    public String codecName() {
        return CodecNames.FLYWEIGHT;
    }

    @Override
    public boolean makesFlyweights() {
        return true;
    }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public <T> Codec<T> create(CodecSpec<T> spec) {
        final Class<T> asked = spec.messageClass();
        for (final SbeBinding<?, ?, ?> binding : bindings) {
            if (binding.messageClass() == asked || binding.encoderClass() == asked || binding.decoderClass() == asked) {
                return new SbeCodec<>((SbeBinding) binding);
            }
        }
        throw new CodecConfigurationException("flyweight: no SBE binding for " + asked.getName()
            + " (a message class, or a generated encoder or decoder); list one in META-INF/services/"
            + SbeBinding.class.getName());
    }

    private static List<SbeBinding<?, ?, ?>> discover() {
        final List<SbeBinding<?, ?, ?>> found = new ArrayList<>();
        for (final SbeBinding<?, ?, ?> binding : ServiceLoader.load(SbeBinding.class)) {
            found.add(binding);
        }
        return found;
    }
}
