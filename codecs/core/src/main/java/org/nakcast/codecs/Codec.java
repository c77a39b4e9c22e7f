package org.nakcast.codecs;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Turns one topic's messages into bytes and back: the object path every codec offers.
 *
 * <p>A codec is made for one topic and one side (publisher or subscriber) by a {@link CodecFactory}
 * from a {@link CodecSpec}; find factories by name in a {@link CodecRegistry}. Codecs whose
 * messages are flyweights also implement {@link FlyweightCodec}, the zero-copy path.
 *
 * <p>Contract, for every implementation:
 * <ul>
 *   <li>{@link #encode} writes only inside {@code [offset, offset + maxLength)}; a message that does
 *       not fit throws {@link MessageTooLargeException} (the bytes already written inside the region
 *       are garbage the caller discards).</li>
 *   <li>{@link #decode} reads only inside {@code [offset, offset + length)} and returns a complete
 *       message or throws a {@link CodecException}: {@link CorruptMessageException} (with the
 *       offset) for truncated or malformed bytes, {@link UnknownClassException} or
 *       {@link ClassNotAllowedException} (naming the class) for a class it does not carry. It never
 *       returns a half-built object, never sizes an allocation from a length read off the wire
 *       without checking it against the bytes that remain, and never loops without bound.</li>
 * </ul>
 *
 * <p>Instances are <b>not thread-safe</b>: they keep scratch state between calls. Make one per
 * thread (a publisher and a subscriber each create their own).
 *
 * @param <T> the type of the topic's messages
 */
public interface Codec<T> {
    /**
     * @return the name this codec is registered under, e.g. {@code "kryo"}
     */
    String name();

    /**
     * @return the class of the topic's messages
     */
    Class<T> messageClass();

    /**
     * Writes a message into a buffer.
     *
     * @param message   the message, an instance of {@link #messageClass()}
     * @param buffer    where to write
     * @param offset    the first byte to write
     * @param maxLength the bytes available from {@code offset}; nothing is written past them
     * @return the number of bytes written, at most {@code maxLength}
     * @throws MessageTooLargeException if the encoded message needs more than {@code maxLength}
     * @throws UnknownClassException    if the message, or an object in it, is of a class this codec
     *                                  does not carry
     * @throws InvalidMessageException  if a value cannot be represented (e.g. a string longer than
     *                                  its fixed-size field)
     */
    int encode(T message, MutableDirectBuffer buffer, int offset, int maxLength);

    /**
     * Reads a message that {@link #encode} wrote.
     *
     * @param buffer where to read
     * @param offset the first byte of the message
     * @param length the exact length of the message
     * @return a new, complete message
     * @throws CorruptMessageException if the bytes are truncated or malformed
     * @throws UnknownClassException   if the bytes carry a class this codec does not
     */
    T decode(DirectBuffer buffer, int offset, int length);
}
