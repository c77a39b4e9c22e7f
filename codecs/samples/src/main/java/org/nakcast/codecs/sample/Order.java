package org.nakcast.codecs.sample;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * An order made of any number of {@link OrderLeg}s: the sample message of variable length, which
 * exercises collections and, when it outgrows a datagram, fragmentation. The legs are kept in an
 * {@link ArrayList}, the collection every object codec carries. {@code OrderEncoder} and
 * {@code OrderDecoder} are the SBE flyweights (the legs are a repeating group).
 */
public class Order implements Serializable {
    private static final long serialVersionUID = 1L;

    private long orderId;
    private long timestampNanos;
    private ArrayList<OrderLeg> legs = new ArrayList<>();

    /**
     * An empty order, for decoders.
     */
    public Order() {
    }

    /**
     * @param orderId        the id
     * @param timestampNanos when it was made, in epoch nanoseconds
     * @param legs           the legs, copied
     */
    public Order(long orderId, long timestampNanos, List<OrderLeg> legs) {
        this.orderId = orderId;
        this.timestampNanos = timestampNanos;
        this.legs = new ArrayList<>(legs);
    }

    /**
     * @return the id
     */
    public long orderId() {
        return orderId;
    }

    /**
     * @return when it was made, in epoch nanoseconds
     */
    public long timestampNanos() {
        return timestampNanos;
    }

    /**
     * @return the legs, in order
     */
    public List<OrderLeg> legs() {
        return legs;
    }

    @Override
    public boolean equals(Object other) {
        if (this == other) {
            return true;
        }
        if (other == null || getClass() != other.getClass()) {
            return false;
        }
        final Order that = (Order) other;
        return orderId == that.orderId && timestampNanos == that.timestampNanos && Objects.equals(legs, that.legs);
    }

    @Override
    public int hashCode() {
        return Objects.hash(orderId, timestampNanos, legs);
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "{" + orderId + ", t=" + timestampNanos + ", legs=" + legs + "}";
    }
}
