package org.nakcast.transport;

import java.nio.ByteBuffer;

import org.agrona.concurrent.UnsafeBuffer;
import org.nakcast.codecs.Codec;
import org.nakcast.codecs.MessageTooLargeException;

/**
 * A typed publisher stream: {@link #offer} encodes a message with the topic's codec and hands the
 * bytes to the node. Never blocks; the codes are those of {@link RawPublication}.
 *
 * <pre>{@code
 * Publication<Order> orders = node.publication("orders", Order.class);
 * long result;
 * while ((result = orders.offer(order)) == RawPublication.BACK_PRESSURED
 *     || result == RawPublication.NOT_CONNECTED) {  // flow control min: no subscriber there yet
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
public final class Publication<T> implements AutoCloseable {
    private final RawPublication raw;
    private final Codec<T> codec;
    private final UnsafeBuffer staging;

    Publication(RawPublication raw, Codec<T> codec) {
        this.raw = raw;
        this.codec = codec;
        this.staging = new UnsafeBuffer(ByteBuffer.allocateDirect(raw.maxMessageLength()));
    }

    /**
     * Encodes and offers one message.
     *
     * @return {@link RawPublication#OK}, {@link RawPublication#BACK_PRESSURED} (nothing was taken:
     *     offer it again later), {@link RawPublication#NOT_CONNECTED} (flow control {@code min}, the
     *     default, with no live receiver yet: nothing was taken), {@link RawPublication#CLOSED}, or
     *     {@link RawPublication#MESSAGE_TOO_LARGE} when the encoded message exceeds
     *     {@link RawPublication#maxMessageLength()}
     * @throws org.nakcast.codecs.CodecException (other than too large) when the codec cannot carry
     *     the message, e.g. an object of a class it was not given; it names the class
     */
    public long offer(T message) {
        final int length;
        try {
            length = codec.encode(message, staging, 0, staging.capacity());
        } catch (MessageTooLargeException ex) {
            return RawPublication.MESSAGE_TOO_LARGE;
        }
        return raw.offer(staging, 0, length);
    }

    /** Seals the datagram being filled so it goes out without waiting for more messages. */
    public void flush() {
        raw.flush();
    }

    /** The codec's name, from the topic's config. */
    public String codecName() {
        return codec.name();
    }

    /** The byte-level publication underneath: topic, session id, largest message. */
    public RawPublication raw() {
        return raw;
    }

    /** Stops this publisher stream; later offers return {@link RawPublication#CLOSED}. */
    @Override
    public void close() {
        raw.close();
    }
}
