package org.nakcast.codecs.sample;

import java.io.IOException;
import java.io.ObjectInput;
import java.io.ObjectOutput;

/**
 * Writes the parts the {@link java.io.Externalizable} samples share: an {@link Instrument} inline,
 * as its id then its mnemonic in modified UTF-8.
 */
final class ExternalizableFields {
    private ExternalizableFields() {
    }

    static void writeInstrument(Instrument instrument, ObjectOutput out) throws IOException {
        out.writeLong(instrument.instrumentId());
        out.writeUTF(instrument.mnemonic());
    }

    static Instrument readInstrument(ObjectInput in) throws IOException {
        return new Instrument(in.readLong(), in.readUTF());
    }
}
