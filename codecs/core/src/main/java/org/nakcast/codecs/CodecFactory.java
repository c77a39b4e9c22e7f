package org.nakcast.codecs;

/**
 * Makes a codec for one topic and one side from a {@link CodecSpec}. Register one with
 * {@link CodecRegistry#register}; to be found on the class path, implement {@link CodecProvider}.
 */
public interface CodecFactory {
    /**
     * Makes a codec, checking everything it can at once, so that a codec that cannot handle the
     * topic's classes fails at start rather than in a send loop.
     *
     * @param spec the topic's codec settings
     * @param <T>  the type of the topic's messages
     * @return a new codec, for one thread
     * @throws CodecConfigurationException if the codec cannot carry the spec's classes
     */
    <T> Codec<T> create(CodecSpec<T> spec);

    /**
     * Whether the codecs it makes have a flyweight path ({@link FlyweightCodec}): made for an
     * encoder or decoder class, they write and read messages in place.
     */
    default boolean makesFlyweights() {
        return false;
    }
}
