package org.nakcast.codecs.sample;

import java.io.Serializable;
import java.util.Objects;

/**
 * What is traded: an id and a mnemonic of up to 8 ASCII characters. A plain mutable class with a
 * no-argument constructor, as the object codecs expect; see {@link InstrumentRecord} for the record.
 */
public class Instrument implements Serializable {
    /** The longest mnemonic, in ASCII characters. */
    public static final int MNEMONIC_LENGTH = 8;

    private static final long serialVersionUID = 1L;

    private long instrumentId;
    private String mnemonic;

    /**
     * An empty instrument, for decoders.
     */
    public Instrument() {
    }

    /**
     * @param instrumentId the id
     * @param mnemonic     up to {@value #MNEMONIC_LENGTH} ASCII characters
     */
    public Instrument(long instrumentId, String mnemonic) {
        this.instrumentId = instrumentId;
        this.mnemonic = mnemonic;
    }

    /**
     * @return the id
     */
    public long instrumentId() {
        return instrumentId;
    }

    /**
     * @param instrumentId the id
     * @return this
     */
    public Instrument instrumentId(long instrumentId) {
        this.instrumentId = instrumentId;
        return this;
    }

    /**
     * @return up to {@value #MNEMONIC_LENGTH} ASCII characters
     */
    public String mnemonic() {
        return mnemonic;
    }

    /**
     * @param mnemonic up to {@value #MNEMONIC_LENGTH} ASCII characters
     * @return this
     */
    public Instrument mnemonic(String mnemonic) {
        this.mnemonic = mnemonic;
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
        final Instrument that = (Instrument) other;
        return instrumentId == that.instrumentId && Objects.equals(mnemonic, that.mnemonic);
    }

    @Override
    public int hashCode() {
        return Objects.hash(instrumentId, mnemonic);
    }

    @Override
    public String toString() {
        return "Instrument{" + instrumentId + ", " + mnemonic + "}";
    }
}
