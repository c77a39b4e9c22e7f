package org.nakcast.codecs.sample;

import java.util.ArrayList;
import java.util.List;

import org.nakcast.codecs.CodecRegistry;
import org.nakcast.codecs.CodecSpec;

/**
 * The sample messages and their codec specs, for any codec by name: tests, examples and benchmarks
 * use these so that every codec carries the same values. For {@code jdk-externalizable} the
 * messages are the {@link java.io.Externalizable} subclasses; for every other codec the plain
 * classes.
 */
public final class SampleMessages {
    private SampleMessages() {
    }

    /**
     * @param codecName a codec name
     * @return the spec of a price-update topic: the update, then {@link Instrument}
     */
    public static CodecSpec<PriceUpdate> priceUpdateSpec(String codecName) {
        return CodecSpec.of(codecName, priceUpdateClass(codecName), Instrument.class);
    }

    /**
     * @param codecName a codec name
     * @return the spec of an order topic: the order, {@link OrderLeg}, {@link Instrument},
     *     {@link Side} and {@link ArrayList}
     */
    public static CodecSpec<Order> orderSpec(String codecName) {
        return CodecSpec.of(codecName, orderClass(codecName), OrderLeg.class, Instrument.class, Side.class,
            ArrayList.class);
    }

    /**
     * @param codecName a codec name
     * @return the spec of a price-update topic carried as records
     */
    public static CodecSpec<PriceUpdateRecord> priceUpdateRecordSpec(String codecName) {
        return CodecSpec.of(codecName, PriceUpdateRecord.class, InstrumentRecord.class);
    }

    /**
     * @param codecName  a codec name
     * @param instrument what is priced
     * @param qty        the quantity
     * @param price      the price
     * @return a price update of the class the codec carries
     */
    public static PriceUpdate priceUpdate(String codecName, Instrument instrument, int qty, double price) {
        return isExternalizable(codecName) ? new ExternalizablePriceUpdate(instrument, qty, price)
            : new PriceUpdate(instrument, qty, price);
    }

    /**
     * @param codecName      a codec name
     * @param orderId        the id
     * @param timestampNanos when it was made
     * @param legs           the legs
     * @return an order of the class the codec carries
     */
    public static Order order(String codecName, long orderId, long timestampNanos, List<OrderLeg> legs) {
        return isExternalizable(codecName) ? new ExternalizableOrder(orderId, timestampNanos, legs)
            : new Order(orderId, timestampNanos, legs);
    }

    /**
     * @param codecName a codec name
     * @return the seed's price update: instrument 42 "EURUSD", 1,000,000 at 1.0825
     */
    public static PriceUpdate samplePriceUpdate(String codecName) {
        return priceUpdate(codecName, new Instrument(42, "EURUSD"), 1_000_000, 1.0825);
    }

    /**
     * @param codecName a codec name
     * @return an order of three legs
     */
    public static Order sampleOrder(String codecName) {
        return order(codecName, 7_000_001L, 1_795_000_000_123_456_789L, List.of(
            new OrderLeg(new Instrument(42, "EURUSD"), Side.BUY, 1_000_000, 1.0825),
            new OrderLeg(new Instrument(43, "USDJPY"), Side.SELL, 500_000, 151.37),
            new OrderLeg(new Instrument(44, "EURJPY"), Side.BUY, 250_000, 163.85)));
    }

    @SuppressWarnings("unchecked")
    private static Class<PriceUpdate> priceUpdateClass(String codecName) {
        return (Class<PriceUpdate>) (isExternalizable(codecName) ? ExternalizablePriceUpdate.class
            : PriceUpdate.class);
    }

    @SuppressWarnings("unchecked")
    private static Class<Order> orderClass(String codecName) {
        return (Class<Order>) (isExternalizable(codecName) ? ExternalizableOrder.class : Order.class);
    }

    private static boolean isExternalizable(String codecName) {
        return CodecRegistry.JDK_EXTERNALIZABLE.equals(codecName);
    }
}
