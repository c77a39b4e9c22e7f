package org.nakcast.codecs;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * The zero-copy path of a {@link Codec}: fields are written straight into the outgoing datagram and
 * read straight from the received one, with no copy and no message object.
 *
 * <p>Publisher side:
 * <pre>{@code
 * PriceUpdateEncoder encoder = codec.encoder(datagram, offset, remaining); // header written
 * encoder.qty(100).price(99.5);
 * encoder.instrument().instrumentId(42).mnemonic("EURUSD");
 * int length = codec.encodedLength();                                     // header included
 * }</pre>
 * Subscriber side:
 * <pre>{@code
 * PriceUpdateDecoder decoder = codec.decoder(datagram, offset, length); // header and length checked
 * double price = decoder.price();
 * }</pre>
 *
 * <p>The encoder and decoder are wrapped over a view bounded to the given region, so a write or read
 * past it throws {@link IndexOutOfBoundsException} instead of touching the neighbouring bytes (Agrona
 * bounds checks; they are on unless {@code agrona.disable.bounds.checks=true}). Both flyweights are
 * reused by the next call: they are valid until then. Allocation-free in steady state.
 *
 * @param <T> the message class of the object path
 * @param <E> the encoder flyweight
 * @param <D> the decoder flyweight
 */
public interface FlyweightCodec<T, E, D> extends Codec<T> {
    /**
     * @return the class of the encoder flyweight
     */
    Class<E> encoderClass();

    /**
     * @return the class of the decoder flyweight
     */
    Class<D> decoderClass();

    /**
     * Writes the message header into a claimed region and wraps the encoder just after it.
     *
     * @param buffer    the outgoing datagram
     * @param offset    the first byte of the claimed region
     * @param maxLength the length of the claimed region
     * @return the encoder, ready for its fields to be set
     * @throws MessageTooLargeException if the region cannot hold the header and the fixed block
     */
    E encoder(MutableDirectBuffer buffer, int offset, int maxLength);

    /**
     * @return the bytes the last wrapped encoder has written, header included: the length to commit
     */
    int encodedLength();

    /**
     * Checks the message header and the whole message against the region, then wraps the decoder.
     *
     * @param buffer the received datagram
     * @param offset the first byte of the message
     * @param length the length of the message
     * @return the decoder, wrapped over the message's fields
     * @throws CorruptMessageException if a header field or a length does not fit the region
     * @throws UnknownClassException   if the header names another message or schema
     */
    D decoder(DirectBuffer buffer, int offset, int length);

    /**
     * Whether a message's header names this codec's message type: how a topic that carries several
     * types finds the decoder for each message. Reads only the header; a region too short for it
     * is no message of any type.
     *
     * @param buffer the received datagram
     * @param offset the first byte of the message
     * @param length the length of the message
     */
    boolean carries(DirectBuffer buffer, int offset, int length);
}
