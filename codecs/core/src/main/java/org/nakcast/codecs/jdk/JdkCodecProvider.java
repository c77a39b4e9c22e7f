package org.nakcast.codecs.jdk;

import java.io.Externalizable;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

import org.nakcast.codecs.AllowedClasses;
import org.nakcast.codecs.Codec;
import org.nakcast.codecs.CodecConfigurationException;
import org.nakcast.codecs.CodecNames;
import org.nakcast.codecs.CodecProvider;
import org.nakcast.codecs.CodecSpec;

/**
 * Makes {@code jdk} codecs (the message class must be {@link Serializable}; records included) and
 * {@code jdk-externalizable} codecs (it must be {@link Externalizable}). Both use {@link JdkCodec}.
 *
 * <p>Always allowed besides the spec's classes: {@link Enum} and {@link Number} (they appear as the
 * superclass descriptors of enums and boxed numbers) and the boxed primitives.
 */
public final class JdkCodecProvider implements CodecProvider {
    private static final List<Class<?>> IMPLICIT = List.of(Enum.class, Number.class, Long.class, Integer.class,
        Short.class, Byte.class, Character.class, Boolean.class, Double.class, Float.class);

    private final Class<?> required;

    private JdkCodecProvider(Class<?> required) {
        this.required = required;
    }

    /**
     * @return the provider of {@code jdk}
     */
    public static JdkCodecProvider serializable() {
        return new JdkCodecProvider(Serializable.class);
    }

    /**
     * @return the provider of {@code jdk-externalizable}
     */
    public static JdkCodecProvider externalizable() {
        return new JdkCodecProvider(Externalizable.class);
    }

    /**
     * The implicit classes plus the serializable superclasses of the spec's classes: the stream
     * carries their descriptors (for an Externalizable subclass too).
     */
    private static List<Class<?>> implicit(CodecSpec<?> spec) {
        final List<Class<?>> implicit = new ArrayList<>(IMPLICIT);
        for (final Class<?> type : spec.registeredClasses()) {
            for (Class<?> parent = type.getSuperclass(); parent != null && Serializable.class.isAssignableFrom(parent);
                parent = parent.getSuperclass()) {
                implicit.add(parent);
            }
        }
        return implicit;
    }

    @Override
    public String codecName() {
        return required == Externalizable.class ? CodecNames.JDK_EXTERNALIZABLE : CodecNames.JDK;
    }

    @Override
    public <T> Codec<T> create(CodecSpec<T> spec) {
        if (!required.isAssignableFrom(spec.messageClass())) {
            throw new CodecConfigurationException(codecName() + ": " + spec.messageClass().getName()
                + " is not " + required.getName());
        }
        if (required == Externalizable.class && spec.messageClass().isRecord()) {
            throw new CodecConfigurationException(codecName() + ": " + spec.messageClass().getName()
                + " is a record; Java serializes records by their components, never as Externalizable: use jdk");
        }
        return new JdkCodec<>(codecName(), spec.messageClass(), AllowedClasses.of(spec, implicit(spec)));
    }
}
