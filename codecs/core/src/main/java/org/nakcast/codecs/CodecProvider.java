package org.nakcast.codecs;

/**
 * A {@link CodecFactory} with its name, found by {@link java.util.ServiceLoader}: list the
 * implementation in {@code META-INF/services/org.nakcast.codecs.CodecProvider} and
 * {@link CodecRegistry#create()} registers it. Implementations need a public no-argument
 * constructor.
 */
public interface CodecProvider extends CodecFactory {
    /**
     * @return the name the codec is registered under, as configuration files name it
     */
    String codecName();
}
