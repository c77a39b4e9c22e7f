package org.nakcast.codecs.sample;

import java.io.Serializable;
import java.util.Objects;

/**
 * One leg of an {@link Order}: buy or sell a quantity of an instrument at a price.
 */
public class OrderLeg implements Serializable {
    private static final long serialVersionUID = 1L;

    private Instrument instrument;
    private Side side;
    private int qty;
    private double price;

    /**
     * An empty leg, for decoders.
     */
    public OrderLeg() {
    }

    /**
     * @param instrument what is traded
     * @param side       buy or sell
     * @param qty        the quantity
     * @param price      the limit price
     */
    public OrderLeg(Instrument instrument, Side side, int qty, double price) {
        this.instrument = instrument;
        this.side = side;
        this.qty = qty;
        this.price = price;
    }

    /**
     * @return what is traded
     */
    public Instrument instrument() {
        return instrument;
    }

    /**
     * @return buy or sell
     */
    public Side side() {
        return side;
    }

    /**
     * @return the quantity
     */
    public int qty() {
        return qty;
    }

    /**
     * @return the limit price
     */
    public double price() {
        return price;
    }

    @Override
    public boolean equals(Object other) {
        if (this == other) {
            return true;
        }
        if (other == null || getClass() != other.getClass()) {
            return false;
        }
        final OrderLeg that = (OrderLeg) other;
        return qty == that.qty && Double.compare(price, that.price) == 0 && side == that.side
            && Objects.equals(instrument, that.instrument);
    }

    @Override
    public int hashCode() {
        return Objects.hash(instrument, side, qty, price);
    }

    @Override
    public String toString() {
        return "OrderLeg{" + instrument + ", " + side + ", qty=" + qty + ", price=" + price + "}";
    }
}
