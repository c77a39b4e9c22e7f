package org.nakcast.codecs.sample;

import java.io.IOException;
import java.io.ObjectInput;
import java.io.ObjectOutput;

/**
 * Writes an {@link Instrument} inline inside an {@link java.io.Externalizable} message: the id,
 * then the mnemonic as modified UTF-8.
 */
final class ExternalizableInstrument {
    private ExternalizableInstrument() {
    }

    static void write(Instrument instrument, ObjectOutput out) throws IOException {
        out.writeLong(instrument.instrumentId());
        out.writeUTF(instrument.mnemonic());
    }

    static Instrument read(ObjectInput in) throws IOException {
        return new Instrument(in.readLong(), in.readUTF());
    }
}
