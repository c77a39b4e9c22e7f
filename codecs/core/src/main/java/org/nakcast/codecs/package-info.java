/**
 * The codec SPI: how a topic's messages become bytes and back.
 *
 * <ul>
 *   <li>{@link org.nakcast.codecs.Codec} is the object path every codec offers: {@code encode} an
 *       object into a {@link org.agrona.MutableDirectBuffer} region, {@code decode} one from a
 *       {@link org.agrona.DirectBuffer} region.</li>
 *   <li>{@link org.nakcast.codecs.FlyweightCodec} adds the zero-copy path: the publisher gets an
 *       encoder wrapped over the claimed region of the outgoing datagram and sets fields in place;
 *       the subscriber gets a decoder wrapped over the received datagram after every header field
 *       and length has been checked.</li>
 *   <li>{@link org.nakcast.codecs.CodecRegistry} finds a {@link org.nakcast.codecs.CodecFactory} by
 *       name: this module's {@code flyweight}, {@code jdk} and {@code jdk-externalizable}; the
 *       optional modules' {@code fst}, {@code fst-unshared} ({@code nakcast-codecs-fst}) and
 *       {@code kryo} ({@code nakcast-codecs-kryo}), found with {@link java.util.ServiceLoader} as
 *       {@link org.nakcast.codecs.CodecProvider}s like any application's own; and those added
 *       with {@link org.nakcast.codecs.CodecRegistry#register}. The factory makes a codec for one
 *       topic and one side from a {@link org.nakcast.codecs.CodecSpec} (codec name, message class,
 *       further classes in registration order, which are also the decoders' allow-list).</li>
 *   <li>Errors are one hierarchy under {@link org.nakcast.codecs.CodecException}: unknown codec,
 *       configuration, unknown class, class not allowed (named), corrupt or truncated input (with the
 *       offset), message too large, invalid value. A decoder that throws has returned nothing.</li>
 * </ul>
 *
 * <p>This module ({@code nakcast-codecs-core}) needs Agrona and nothing else. Codecs are not
 * thread-safe: make one per thread. This package knows nothing of the configuration module or the
 * transport; the configuration turns a topic into a spec, the transport calls the codec.
 */
package org.nakcast.codecs;
