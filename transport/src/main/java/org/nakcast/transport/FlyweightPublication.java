package org.nakcast.transport;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;

import org.agrona.concurrent.UnsafeBuffer;
import org.nakcast.codecs.FlyweightCodec;

/**
 * A publisher stream of flyweight messages, of one or several types (every SBE message type the
 * publication was made for): {@link #stage} hands out a type's encoder wrapped over the
 * publication's staging buffer, its message header written; the caller sets the fields in place,
 * and {@link #offer} offers the staged bytes. No message object, no allocation. Messages of every
 * type go out on one session, in the order they are offered, so a subscriber sees a new order and
 * its cancel in the order they were sent.
 *
 * <pre>{@code
 * FlyweightPublication orders = node.newFlyweightPublication("orders", NewOrderEncoder.class, CancelEncoder.class);
 * orders.stage(NewOrderEncoder.class).orderId(7).qty(100).price(1.0825);
 * long result = orders.offer();                      // > 0: taken; OfferResult.BACK_PRESSURED: offer again later
 * orders.stage(CancelEncoder.class).orderId(7);
 * orders.offer();
 * }</pre>
 *
 * <p>Staging cannot fail; offering can, as every offer can ({@link BytePublication#offer}): the
 * reverse of a byte publication's {@link BytePublication#tryClaim claim}, which can fail while its
 * commit cannot, since a flyweight's length is known only once its fields are set. The fields are
 * written once, into the staging buffer, and copied once into the offer buffer by the offer. A
 * refused offer leaves the staged message as it is until the next {@link #stage}, so offering again
 * sends it unchanged. One thread uses a publication.
 */
public final class FlyweightPublication implements AutoCloseable {
    private final BytePublication bytes;
    private final Map<Class<?>, FlyweightCodec<?, ?, ?>> codecs;
    private final UnsafeBuffer staging;
    private FlyweightCodec<?, ?, ?> staged;

    FlyweightPublication(BytePublication bytes, Map<Class<?>, FlyweightCodec<?, ?, ?>> codecsByEncoder) {
        this.bytes = bytes;
        this.codecs = new HashMap<>(codecsByEncoder);
        this.staging = new UnsafeBuffer(ByteBuffer.allocateDirect(bytes.maxMessageLength()));
    }

    /**
     * Starts a new message of the type {@code encoderClass} encodes: its encoder, the message header
     * written, ready for its fields. The encoder is reused; it is valid until the next stage.
     *
     * @throws IllegalArgumentException if the publication was not made for that encoder
     */
    public <E> E stage(Class<E> encoderClass) {
        final FlyweightCodec<?, ?, ?> codec = codecs.get(encoderClass);
        if (codec == null) {
            throw new IllegalArgumentException("publication of topic '" + bytes.topicName() + "' was not made for "
                + (encoderClass == null ? "null" : encoderClass.getName()) + "; it encodes "
                + codecs.keySet().stream().map(Class::getName).sorted().toList());
        }
        staged = codec;
        return encoderClass.cast(codec.encoder(staging, 0, staging.capacity()));
    }

    /**
     * Offers the message written since the last {@link #stage}.
     *
     * @return the position after it (&gt; 0) if it was taken, else a negative {@link OfferResult}:
     *     the staged message stays, to be offered again
     * @throws IllegalStateException if nothing was staged yet
     */
    public long offer() {
        if (staged == null) {
            throw new IllegalStateException(
                "nothing staged on topic '" + bytes.topicName() + "': stage a message first");
        }
        return bytes.offer(staging, 0, staged.encodedLength());
    }

    /** Why the last refused offer was refused, in words, as {@link BytePublication#lastRefusal()}. */
    public String lastRefusal() {
        return bytes.lastRefusal();
    }

    /** Seals the datagram being filled so it goes out without waiting for more messages. */
    public void flush() {
        bytes.flush();
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
