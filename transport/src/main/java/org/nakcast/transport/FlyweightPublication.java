package org.nakcast.transport;

import java.nio.ByteBuffer;

import org.agrona.concurrent.UnsafeBuffer;
import org.nakcast.codecs.FlyweightCodec;

/**
 * A publisher stream of flyweight messages: {@link #claim} hands out the encoder wrapped over the
 * publication's staging buffer, the caller sets its fields in place, {@link #commit} offers the
 * bytes. No message object, no allocation.
 *
 * <pre>{@code
 * FlyweightPublication<PriceUpdateEncoder> prices =
 *     node.newFlyweightPublication("prices", PriceUpdate.class, PriceUpdateEncoder.class);
 * PriceUpdateEncoder price = prices.claim();
 * price.instrument().instrumentId(42).mnemonic("EURUSD");
 * price.qty(1_000_000).price(1.0825);
 * long result = prices.commit();                   // BACK_PRESSURED, NOT_CONNECTED: commit again later
 * }</pre>
 *
 * <p>The fields are written once, into the staging buffer, and copied once into the offer buffer
 * on commit. If a commit is back-pressured (or not connected) the staged message stays as it is until the next
 * {@link #claim}, so committing again sends it unchanged. One thread uses a publication.
 *
 * @param <E> the encoder flyweight type
 */
public final class FlyweightPublication<E> implements AutoCloseable {
    private final RawPublication raw;
    private final FlyweightCodec<?, E, ?> codec;
    private final UnsafeBuffer staging;

    FlyweightPublication(RawPublication raw, FlyweightCodec<?, E, ?> codec) {
        this.raw = raw;
        this.codec = codec;
        this.staging = new UnsafeBuffer(ByteBuffer.allocateDirect(raw.maxMessageLength()));
    }

    /**
     * Starts a new message: the encoder, its message header written, ready for its fields.
     * The encoder is reused; it is valid until the next claim.
     */
    public E claim() {
        return codec.encoder(staging, 0, staging.capacity());
    }

    /**
     * Offers the message written since the last {@link #claim}.
     *
     * @return the codes of {@link RawPublication#offer}
     */
    public long commit() {
        return raw.offer(staging, 0, codec.encodedLength());
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
