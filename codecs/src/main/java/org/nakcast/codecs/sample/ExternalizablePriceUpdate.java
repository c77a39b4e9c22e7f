package org.nakcast.codecs.sample;

import java.io.Externalizable;
import java.io.IOException;
import java.io.ObjectInput;
import java.io.ObjectOutput;

/**
 * {@link PriceUpdate} writing its own fields, for the {@code jdk-externalizable} codec: the
 * instrument is written inline, not as an object of its own.
 */
public final class ExternalizablePriceUpdate extends PriceUpdate implements Externalizable {
    private static final long serialVersionUID = 1L;

    /**
     * An empty update; Java serialization needs a public no-argument constructor.
     */
    public ExternalizablePriceUpdate() {
    }

    /**
     * @param instrument what is priced
     * @param qty        the quantity
     * @param price      the price
     */
    public ExternalizablePriceUpdate(Instrument instrument, int qty, double price) {
        super(instrument, qty, price);
    }

    @Override
    public void writeExternal(ObjectOutput out) throws IOException {
        ExternalizableInstrument.write(instrument(), out);
        out.writeInt(qty());
        out.writeDouble(price());
    }

    @Override
    public void readExternal(ObjectInput in) throws IOException {
        instrument(ExternalizableInstrument.read(in));
        qty(in.readInt());
        price(in.readDouble());
    }
}
