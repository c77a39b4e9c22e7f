package org.nakcast.codecs.sample;

import java.io.Externalizable;
import java.io.IOException;
import java.io.InvalidObjectException;
import java.io.ObjectInput;
import java.io.ObjectOutput;
import java.util.ArrayList;
import java.util.List;

/**
 * {@link Order} writing its own fields, for the {@code jdk-externalizable} codec: the leg count,
 * then each leg inline. A count read back is checked before anything is sized from it.
 */
public final class ExternalizableOrder extends Order implements Externalizable {
    /** The most legs an order may have on the wire. */
    public static final int MAX_LEGS = 1024;

    private static final long serialVersionUID = 1L;

    /**
     * An empty order; Java serialization needs a public no-argument constructor.
     */
    public ExternalizableOrder() {
    }

    /**
     * @param orderId        the id
     * @param timestampNanos when it was made, in epoch nanoseconds
     * @param legs           the legs, copied
     */
    public ExternalizableOrder(long orderId, long timestampNanos, List<OrderLeg> legs) {
        super(orderId, timestampNanos, legs);
    }

    @Override
    public void writeExternal(ObjectOutput out) throws IOException {
        out.writeLong(orderId());
        out.writeLong(timestampNanos());
        out.writeInt(legs().size());
        for (final OrderLeg leg : legs()) {
            ExternalizableInstrument.write(leg.instrument(), out);
            out.writeByte(leg.side().ordinal());
            out.writeInt(leg.qty());
            out.writeDouble(leg.price());
        }
    }

    @Override
    public void readExternal(ObjectInput in) throws IOException {
        header(in.readLong(), in.readLong());
        final int count = in.readInt();
        if (count < 0 || count > MAX_LEGS) {
            throw new InvalidObjectException("leg count " + count + " outside [0, " + MAX_LEGS + "]");
        }
        final Side[] sides = Side.values();
        final List<OrderLeg> legs = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            final Instrument instrument = ExternalizableInstrument.read(in);
            final int side = in.readUnsignedByte();
            if (side >= sides.length) {
                throw new InvalidObjectException("side " + side + " unknown");
            }
            legs.add(new OrderLeg(instrument, sides[side], in.readInt(), in.readDouble()));
        }
        legs().clear();
        legs().addAll(legs);
    }
}
