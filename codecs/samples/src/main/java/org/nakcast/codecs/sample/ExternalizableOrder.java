package org.nakcast.codecs.sample;

import java.io.Externalizable;
import java.io.IOException;
import java.io.InvalidObjectException;
import java.io.ObjectInput;
import java.io.ObjectOutput;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * An {@link Order} that writes its own fields, for the {@code jdk-externalizable} codec: ids, the
 * leg count, then each leg inline. A count read back is checked before anything is sized from it.
 */
public final class ExternalizableOrder implements Externalizable {
    /** The most legs an order may have on the wire. */
    public static final int MAX_LEGS = 1024;

    private static final long serialVersionUID = 1L;

    private Order order;

    /**
     * An empty order; Java serialization needs a public no-argument constructor.
     */
    public ExternalizableOrder() {
    }

    /**
     * @param order the order to carry
     */
    public ExternalizableOrder(Order order) {
        this.order = order;
    }

    /**
     * @return the order carried
     */
    public Order order() {
        return order;
    }

    @Override
    public void writeExternal(ObjectOutput out) throws IOException {
        out.writeLong(order.orderId());
        out.writeLong(order.timestampNanos());
        out.writeInt(order.legs().size());
        for (final OrderLeg leg : order.legs()) {
            ExternalizableFields.writeInstrument(leg.instrument(), out);
            out.writeByte(leg.side().ordinal());
            out.writeInt(leg.qty());
            out.writeDouble(leg.price());
        }
    }

    @Override
    public void readExternal(ObjectInput in) throws IOException {
        final long orderId = in.readLong();
        final long timestampNanos = in.readLong();
        final int count = in.readInt();
        if (count < 0 || count > MAX_LEGS) {
            throw new InvalidObjectException("leg count " + count + " outside [0, " + MAX_LEGS + "]");
        }
        final Side[] sides = Side.values();
        final List<OrderLeg> legs = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            final Instrument instrument = ExternalizableFields.readInstrument(in);
            final int side = in.readUnsignedByte();
            if (side >= sides.length) {
                throw new InvalidObjectException("side " + side + " unknown");
            }
            legs.add(new OrderLeg(instrument, sides[side], in.readInt(), in.readDouble()));
        }
        order = new Order(orderId, timestampNanos, legs);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ExternalizableOrder that && Objects.equals(order, that.order);
    }

    @Override
    public int hashCode() {
        return Objects.hashCode(order);
    }

    @Override
    public String toString() {
        return "Externalizable" + order;
    }
}
