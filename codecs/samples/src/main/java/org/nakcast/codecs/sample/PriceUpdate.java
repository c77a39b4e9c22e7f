package org.nakcast.codecs.sample;

import java.io.Serializable;
import java.util.Objects;

/**
 * The seed's price update: an {@link Instrument}, a quantity and a price. A plain mutable
 * {@link Serializable} class; {@link PriceUpdateRecord} is the record, {@link ExternalizablePriceUpdate}
 * carries it as {@link java.io.Externalizable}, and {@code PriceUpdateEncoder}/{@code PriceUpdateDecoder}
 * the SBE flyweights.
 */
public class PriceUpdate implements Serializable {
    private static final long serialVersionUID = 1L;

    private Instrument instrument;
    private int qty;
    private double price;

    /**
     * An empty update, for decoders.
     */
    public PriceUpdate() {
    }

    /**
     * @param instrument what is priced
     * @param qty        the quantity
     * @param price      the price
     */
    public PriceUpdate(Instrument instrument, int qty, double price) {
        this.instrument = instrument;
        this.qty = qty;
        this.price = price;
    }

    /**
     * @return what is priced
     */
    public Instrument instrument() {
        return instrument;
    }

    /**
     * @param instrument what is priced
     * @return this
     */
    public PriceUpdate instrument(Instrument instrument) {
        this.instrument = instrument;
        return this;
    }

    /**
     * @return the quantity
     */
    public int qty() {
        return qty;
    }

    /**
     * @param qty the quantity
     * @return this
     */
    public PriceUpdate qty(int qty) {
        this.qty = qty;
        return this;
    }

    /**
     * @return the price
     */
    public double price() {
        return price;
    }

    /**
     * @param price the price
     * @return this
     */
    public PriceUpdate price(double price) {
        this.price = price;
        return this;
    }

    @Override
    public boolean equals(Object other) {
        if (this == other) {
            return true;
        }
        if (other == null || getClass() != other.getClass()) {
            return false;
        }
        final PriceUpdate that = (PriceUpdate) other;
        return qty == that.qty && Double.compare(price, that.price) == 0
            && Objects.equals(instrument, that.instrument);
    }

    @Override
    public int hashCode() {
        return Objects.hash(instrument, qty, price);
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "{" + instrument + ", qty=" + qty + ", price=" + price + "}";
    }
}
