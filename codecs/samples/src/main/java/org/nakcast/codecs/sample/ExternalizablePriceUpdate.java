package org.nakcast.codecs.sample;

import java.io.Externalizable;
import java.io.IOException;
import java.io.ObjectInput;
import java.io.ObjectOutput;
import java.util.Objects;

/**
 * A {@link PriceUpdate} that writes its own fields, for the {@code jdk-externalizable} codec: the
 * instrument inline, then quantity and price. It holds the update rather than extending it: a
 * Serializable superclass would put its descriptor (class name and every field) into each message.
 */
public final class ExternalizablePriceUpdate implements Externalizable {
    private static final long serialVersionUID = 1L;

    private PriceUpdate update;

    /**
     * An empty update; Java serialization needs a public no-argument constructor.
     */
    public ExternalizablePriceUpdate() {
    }

    /**
     * @param update the update to carry
     */
    public ExternalizablePriceUpdate(PriceUpdate update) {
        this.update = update;
    }

    /**
     * @return the update carried
     */
    public PriceUpdate update() {
        return update;
    }

    @Override
    public void writeExternal(ObjectOutput out) throws IOException {
        ExternalizableFields.writeInstrument(update.instrument(), out);
        out.writeInt(update.qty());
        out.writeDouble(update.price());
    }

    @Override
    public void readExternal(ObjectInput in) throws IOException {
        update = new PriceUpdate(ExternalizableFields.readInstrument(in), in.readInt(), in.readDouble());
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ExternalizablePriceUpdate that && Objects.equals(update, that.update);
    }

    @Override
    public int hashCode() {
        return Objects.hashCode(update);
    }

    @Override
    public String toString() {
        return "Externalizable" + update;
    }
}
