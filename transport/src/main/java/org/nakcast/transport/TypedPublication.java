package org.nakcast.transport;

import java.nio.ByteBuffer;

import org.agrona.ErrorHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.nakcast.codecs.Codec;
import org.nakcast.codecs.CodecException;
import org.nakcast.codecs.MessageTooLargeException;

/**
 * A typed publisher stream: {@link #offer} encodes a message with the topic's codec and hands the
 * bytes to the node. Never blocks; it answers a position or an {@link OfferResult}.
 *
 * <pre>{@code
 * TypedPublication<Order> orders = node.newTypedPublication("orders", Order.class);
 * long result;
 * while ((result = orders.offer(order)) == OfferResult.BACK_PRESSURED
 *     || result == OfferResult.NOT_CONNECTED) {  // flow control min: no subscriber there yet
 *     idle.idle();                                  // or drop, or count: the caller decides
 * }
 * }</pre>
 *
 * <p>One thread offers to a publication. The message is encoded into a staging buffer owned by the
 * publication, then copied once into the offer buffer; the codec decides whether encoding
 * allocates (the flyweight codec does not).
 *
 * @param <T> the topic's message type
 */
public final class TypedPublication<T> implements AutoCloseable {
    private final BytePublication bytes;
    private final Codec<T> codec;
    private final ErrorHandler errors;
    private final UnsafeBuffer staging;
    /** The last message the codec could not encode: its class and the codec's reason. */
    private Class<?> unencodableClass;
    private CodecException unencodableReason;

    TypedPublication(BytePublication bytes, Codec<T> codec, ErrorHandler errors) {
        this.bytes = bytes;
        this.codec = codec;
        this.errors = errors;
        this.staging = new UnsafeBuffer(ByteBuffer.allocateDirect(bytes.maxMessageLength()));
    }

    /**
     * Encodes and offers one message.
     *
     * @return the position after the message (&gt; 0) if it was taken, else a negative
     *     {@link OfferResult}: {@link OfferResult#MESSAGE_TOO_LARGE} when the encoded message exceeds
     *     {@link BytePublication#maxMessageLength()}, {@link OfferResult#UNENCODABLE} when the codec
     *     cannot carry it (its reason, with the topic and the message's class, goes to the node's
     *     error handler), or those of
     *     {@link BytePublication#offer}
     * @throws IllegalArgumentException if {@code message} is null
     */
    public long offer(T message) {
        if (message == null) {
            throw new IllegalArgumentException("message is null");
        }
        final int length;
        try {
            length = codec.encode(message, staging, 0, staging.capacity());
        } catch (MessageTooLargeException ex) {
            return bytes.refused(OfferResult.MESSAGE_TOO_LARGE, -1);
        } catch (CodecException ex) {
            unencodableClass = message.getClass();
            unencodableReason = ex;
            errors.onError(new TransportException(unencodable(), ex));
            return bytes.refused(OfferResult.UNENCODABLE, 0);
        }
        return bytes.offer(staging, 0, length);
    }

    /**
     * Why the last refused offer was refused, in words: the topic, what happened (for a message the
     * codec could not encode, its class and the codec's reason) and what to do.
     *
     * @return the reason, or null if nothing was refused yet
     */
    public String lastRefusal() {
        return bytes.lastRefusalResult() == OfferResult.UNENCODABLE
            ? unencodable() + "; " + OfferResult.whatToDo(OfferResult.UNENCODABLE) : bytes.lastRefusal();
    }

    private String unencodable() {
        return "topic '" + bytes.topicName() + "' (codec '" + codec.name() + "') could not encode a "
            + unencodableClass.getName() + ": " + unencodableReason.getMessage();
    }

    /** Seals the datagram being filled so it goes out without waiting for more messages. */
    public void flush() {
        bytes.flush();
    }

    /** The codec's name, from the topic's config. */
    public String codecName() {
        return codec.name();
    }

    /** The byte-level publication underneath: topic, session id, largest message. */
    public BytePublication bytePublication() {
        return bytes;
    }

    /** Ends this publisher stream, as {@link BytePublication#close()} does. */
    @Override
    public void close() {
        bytes.close();
    }
}
