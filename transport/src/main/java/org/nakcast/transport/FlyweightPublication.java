package org.nakcast.transport;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;

import org.agrona.concurrent.UnsafeBuffer;
import org.nakcast.codecs.FlyweightCodec;

/**
 * A publisher stream of flyweight messages, of one or several types (every SBE message type the
 * publication was made for): {@link #claim} hands out a type's encoder wrapped over the
 * publication's staging buffer, its message header written; the caller sets the fields in place,
 * and {@link #commit} offers the bytes. No message object, no allocation. Messages of every type go
 * out on one session, in the order they are committed, so a subscriber sees a new order and its
 * cancel in the order they were sent.
 *
 * <pre>{@code
 * FlyweightPublication orders = node.newFlyweightPublication("orders", NewOrderEncoder.class, CancelEncoder.class);
 * orders.claim(NewOrderEncoder.class).orderId(7).qty(100).price(1.0825);
 * long result = orders.commit();                     // > 0: taken; OfferResult.BACK_PRESSURED: commit again later
 * orders.claim(CancelEncoder.class).orderId(7);
 * orders.commit();
 * }</pre>
 *
 * <p>The fields are written once, into the staging buffer, and copied once into the offer buffer
 * on commit. If a commit is back-pressured the staged message stays as it is until the next
 * {@link #claim}, so committing again sends it unchanged. One thread uses a publication.
 */
public final class FlyweightPublication implements AutoCloseable {
    private final RawPublication raw;
    private final Map<Class<?>, FlyweightCodec<?, ?, ?>> codecs;
    private final UnsafeBuffer staging;
    private FlyweightCodec<?, ?, ?> claimed;

    FlyweightPublication(RawPublication raw, Map<Class<?>, FlyweightCodec<?, ?, ?>> codecsByEncoder) {
        this.raw = raw;
        this.codecs = new HashMap<>(codecsByEncoder);
        this.staging = new UnsafeBuffer(ByteBuffer.allocateDirect(raw.maxMessageLength()));
    }

    /**
     * Starts a new message of the type {@code encoderClass} encodes: its encoder, the message header
     * written, ready for its fields. The encoder is reused; it is valid until the next claim.
     *
     * @throws IllegalArgumentException if the publication was not made for that encoder
     */
    public <E> E claim(Class<E> encoderClass) {
        final FlyweightCodec<?, ?, ?> codec = codecs.get(encoderClass);
        if (codec == null) {
            throw new IllegalArgumentException("publication of topic '" + raw.topicName() + "' was not made for "
                + (encoderClass == null ? "null" : encoderClass.getName()) + "; it encodes "
                + codecs.keySet().stream().map(Class::getName).sorted().toList());
        }
        claimed = codec;
        return encoderClass.cast(codec.encoder(staging, 0, staging.capacity()));
    }

    /**
     * Offers the message written since the last {@link #claim}.
     *
     * @return the position after it (&gt; 0) if it was taken, else a negative {@link OfferResult}
     * @throws IllegalStateException if nothing was claimed yet
     */
    public long commit() {
        if (claimed == null) {
            throw new IllegalStateException(
                "nothing claimed on topic '" + raw.topicName() + "': claim a message first");
        }
        return raw.offer(staging, 0, claimed.encodedLength());
    }

    /** Why the last refused commit was refused, in words, as {@link RawPublication#lastRefusal()}. */
    public String lastRefusal() {
        return raw.lastRefusal();
    }

    /** Seals the datagram being filled so it goes out without waiting for more messages. */
    public void flush() {
        raw.flush();
    }

    /** The byte-level publication underneath: topic, session id, largest message. */
    public RawPublication raw() {
        return raw;
    }

    /** Ends this publisher stream, as {@link RawPublication#close()} does. */
    @Override
    public void close() {
        raw.close();
    }
}
