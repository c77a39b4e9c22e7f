package org.nakcast.codecs.sbe;

import org.agrona.sbe.MessageDecoderFlyweight;
import org.agrona.sbe.MessageEncoderFlyweight;

/**
 * Ties a message class to the SBE flyweights generated for it, so that the {@code flyweight} codec
 * can serve the object path too: {@link #encode} copies an object's fields into the encoder and
 * {@link #decode} builds an object from the decoder. The flyweights are generated from an SBE XML
 * schema at build time (the samples' schema is in {@code nakcast-codecs-samples};
 * {@code pubsub-examples/embedding} shows a service generating its own); a binding only moves
 * values between them and the object, it never computes an offset.
 *
 * <p>Bindings are found by {@link java.util.ServiceLoader}: list them in
 * {@code META-INF/services/org.nakcast.codecs.sbe.SbeBinding}, or hand them to
 * {@link SbeCodecProvider#SbeCodecProvider(java.util.List)}.
 *
 * @param <T> the message class
 * @param <E> the generated encoder
 * @param <D> the generated decoder
 */
public interface SbeBinding<T, E extends MessageEncoderFlyweight, D extends MessageDecoderFlyweight> {
    /**
     * @return the message class of the object path
     */
    Class<T> messageClass();

    /**
     * @return the generated encoder class
     */
    Class<E> encoderClass();

    /**
     * @return the generated decoder class
     */
    Class<D> decoderClass();

    /**
     * @return a new encoder, to be wrapped and reused
     */
    E newEncoder();

    /**
     * @return a new decoder, to be wrapped and reused
     */
    D newDecoder();

    /**
     * @param message a message
     * @return the bytes it takes after the message header: the fixed block plus any groups
     */
    int encodedLength(T message);

    /**
     * Copies a message's fields into a wrapped encoder.
     *
     * @param message the message
     * @param encoder the encoder, wrapped just after the message header
     */
    void encode(T message, E encoder);

    /**
     * Builds a message from a wrapped and checked decoder.
     *
     * @param decoder the decoder
     * @return a new message
     */
    T decode(D decoder);
}
