package org.nakcast.codecs.sample;

import java.util.ArrayList;
import java.util.List;

import org.nakcast.codecs.sample.sbe.InstrumentDecoder;
import org.nakcast.codecs.sample.sbe.OrderDecoder;
import org.nakcast.codecs.sample.sbe.OrderEncoder;
import org.nakcast.codecs.sbe.SbeBinding;

/**
 * {@link Order} on the generated {@code Order} SBE flyweights; the legs are a repeating group.
 */
public final class OrderSbeBinding implements SbeBinding<Order, OrderEncoder, OrderDecoder> {
    @Override
    public Class<Order> messageClass() {
        return Order.class;
    }

    @Override
    public Class<OrderEncoder> encoderClass() {
        return OrderEncoder.class;
    }

    @Override
    public Class<OrderDecoder> decoderClass() {
        return OrderDecoder.class;
    }

    @Override
    public OrderEncoder newEncoder() {
        return new OrderEncoder();
    }

    @Override
    public OrderDecoder newDecoder() {
        return new OrderDecoder();
    }

    @Override
    public int encodedLength(Order message) {
        return OrderEncoder.BLOCK_LENGTH + OrderEncoder.LegsEncoder.HEADER_SIZE
            + message.legs().size() * OrderEncoder.LegsEncoder.sbeBlockLength();
    }

    @Override
    public void encode(Order message, OrderEncoder encoder) {
        encoder.orderId(message.orderId()).timestampNanos(message.timestampNanos());
        final OrderEncoder.LegsEncoder legs = encoder.legsCount(message.legs().size());
        for (final OrderLeg leg : message.legs()) {
            legs.next().instrument()
                .instrumentId(leg.instrument().instrumentId())
                .mnemonic(leg.instrument().mnemonic());
            legs.side(leg.side() == Side.BUY ? org.nakcast.codecs.sample.sbe.Side.BUY
                : org.nakcast.codecs.sample.sbe.Side.SELL);
            legs.qty(leg.qty()).price(leg.price());
        }
    }

    @Override
    public Order decode(OrderDecoder decoder) {
        final OrderDecoder.LegsDecoder legs = decoder.legs();
        final List<OrderLeg> decoded = new ArrayList<>(legs.count());
        for (final OrderDecoder.LegsDecoder leg : legs) {
            final InstrumentDecoder instrument = leg.instrument();
            decoded.add(new OrderLeg(new Instrument(instrument.instrumentId(), instrument.mnemonic()),
                side(leg.side()), leg.qty(), leg.price()));
        }
        return new Order(decoder.orderId(), decoder.timestampNanos(), decoded);
    }

    private static Side side(org.nakcast.codecs.sample.sbe.Side side) {
        return switch (side) {
            case BUY -> Side.BUY;
            case SELL -> Side.SELL;
            case NULL_VAL -> throw new IllegalArgumentException("leg without a side");
        };
    }
}
