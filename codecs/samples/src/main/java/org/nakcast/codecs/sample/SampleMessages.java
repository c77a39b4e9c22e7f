package org.nakcast.codecs.sample;

import java.util.ArrayList;
import java.util.List;

import org.nakcast.codecs.CodecNames;
import org.nakcast.codecs.CodecSpec;

/**
 * The sample messages and their codec specs, for any codec by name: tests, examples and benchmarks
 * use these so that every codec carries the same values. For {@code jdk-externalizable} the
 * messages are {@link ExternalizablePriceUpdate} and {@link ExternalizableOrder}, which carry a
 * {@link PriceUpdate} and an {@link Order}; for every other codec the plain classes. Hence the
 * untyped results: the message class depends on the codec's name.
 */
public final class SampleMessages {
    private SampleMessages() {
    }

    /**
     * @param codecName a codec name
     * @return the spec of a price-update topic: the update's class, then {@link Instrument}, in the
     *     order a topic's {@code allowed-classes} would list them
     */
    public static CodecSpec<?> priceUpdateSpec(String codecName) {
        final Class<?> messageClass = isExternalizable(codecName) ? ExternalizablePriceUpdate.class
            : PriceUpdate.class;
        return CodecSpec.of(codecName, messageClass, messageClass, Instrument.class);
    }

    /**
     * @param codecName a codec name
     * @return the spec of an order topic: the order's class, {@link OrderLeg}, {@link Instrument},
     *     {@link Side} and {@link ArrayList}
     */
    public static CodecSpec<?> orderSpec(String codecName) {
        final Class<?> messageClass = isExternalizable(codecName) ? ExternalizableOrder.class : Order.class;
        return CodecSpec.of(codecName, messageClass, messageClass, OrderLeg.class, Instrument.class, Side.class,
            ArrayList.class);
    }

    /**
     * @param codecName a codec name
     * @return the spec of a price-update topic carried as records
     */
    public static CodecSpec<PriceUpdateRecord> priceUpdateRecordSpec(String codecName) {
        return CodecSpec.of(codecName, PriceUpdateRecord.class, PriceUpdateRecord.class, InstrumentRecord.class);
    }

    /**
     * @param codecName  a codec name
     * @param instrument what is priced
     * @param qty        the quantity
     * @param price      the price
     * @return a price update as the codec carries it
     */
    public static Object priceUpdate(String codecName, Instrument instrument, int qty, double price) {
        final PriceUpdate update = new PriceUpdate(instrument, qty, price);
        return isExternalizable(codecName) ? new ExternalizablePriceUpdate(update) : update;
    }

    /**
     * @param codecName      a codec name
     * @param orderId        the id
     * @param timestampNanos when it was made
     * @param legs           the legs
     * @return an order as the codec carries it
     */
    public static Object order(String codecName, long orderId, long timestampNanos, List<OrderLeg> legs) {
        final Order order = new Order(orderId, timestampNanos, legs);
        return isExternalizable(codecName) ? new ExternalizableOrder(order) : order;
    }

    /**
     * @return the seed's price update: instrument 42 "EURUSD", 1,000,000 at 1.0825
     */
    public static PriceUpdate samplePriceUpdate() {
        return new PriceUpdate(new Instrument(42, "EURUSD"), 1_000_000, 1.0825);
    }

    /**
     * @param codecName a codec name
     * @return {@link #samplePriceUpdate()} as the codec carries it
     */
    public static Object samplePriceUpdate(String codecName) {
        final PriceUpdate update = samplePriceUpdate();
        return priceUpdate(codecName, update.instrument(), update.qty(), update.price());
    }

    /**
     * @param codecName a codec name
     * @return an order of three legs, as the codec carries it
     */
    public static Object sampleOrder(String codecName) {
        return order(codecName, 7_000_001L, 1_795_000_000_123_456_789L, List.of(
            new OrderLeg(new Instrument(42, "EURUSD"), Side.BUY, 1_000_000, 1.0825),
            new OrderLeg(new Instrument(43, "USDJPY"), Side.SELL, 500_000, 151.37),
            new OrderLeg(new Instrument(44, "EURJPY"), Side.BUY, 250_000, 163.85)));
    }

    private static boolean isExternalizable(String codecName) {
        return CodecNames.JDK_EXTERNALIZABLE.equals(codecName);
    }
}
