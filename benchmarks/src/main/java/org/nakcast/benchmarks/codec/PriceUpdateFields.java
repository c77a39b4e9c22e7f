package org.nakcast.benchmarks.codec;

import org.nakcast.codecs.sample.PriceUpdate;
import org.nakcast.codecs.sample.sbe.PriceUpdateEncoder;

/**
 * Sets every field of a claimed {@link PriceUpdateEncoder} in place, as a publisher on the
 * zero-copy path does: the codec benchmark and the throughput runs write their flyweights the
 * same way. Allocates nothing.
 */
public final class PriceUpdateFields {
    private PriceUpdateFields() {
    }

    /**
     * @param encoder the claimed encoder, its header written
     * @param instrumentId the instrument id to write (a throughput run puts the message's number there)
     * @param values the mnemonic, quantity and price to write
     */
    public static void write(PriceUpdateEncoder encoder, long instrumentId, PriceUpdate values) {
        encoder.instrument().instrumentId(instrumentId).mnemonic(values.instrument().mnemonic());
        encoder.qty(values.qty()).price(values.price());
    }
}
