package org.nakcast.codecs.sample;

import java.io.Serializable;

/**
 * {@link Instrument} as a record.
 *
 * @param instrumentId the id
 * @param mnemonic     up to 8 ASCII characters
 */
public record InstrumentRecord(long instrumentId, String mnemonic) implements Serializable {
}
