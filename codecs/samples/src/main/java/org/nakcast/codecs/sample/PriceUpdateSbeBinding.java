package org.nakcast.codecs.sample;

import org.nakcast.codecs.sample.sbe.InstrumentDecoder;
import org.nakcast.codecs.sample.sbe.PriceUpdateDecoder;
import org.nakcast.codecs.sample.sbe.PriceUpdateEncoder;
import org.nakcast.codecs.sbe.SbeBinding;

/**
 * {@link PriceUpdate} on the generated {@code PriceUpdate} SBE flyweights.
 */
public final class PriceUpdateSbeBinding implements SbeBinding<PriceUpdate, PriceUpdateEncoder, PriceUpdateDecoder> {
    @Override
    public Class<PriceUpdate> messageClass() {
        return PriceUpdate.class;
    }

    @Override
    public Class<PriceUpdateEncoder> encoderClass() {
        return PriceUpdateEncoder.class;
    }

    @Override
    public Class<PriceUpdateDecoder> decoderClass() {
        return PriceUpdateDecoder.class;
    }

    @Override
    public PriceUpdateEncoder newEncoder() {
        return new PriceUpdateEncoder();
    }

    @Override
    public PriceUpdateDecoder newDecoder() {
        return new PriceUpdateDecoder();
    }

    @Override
    public int encodedLength(PriceUpdate message) {
        return PriceUpdateEncoder.BLOCK_LENGTH;
    }

    @Override
    public void encode(PriceUpdate message, PriceUpdateEncoder encoder) {
        encoder.instrument()
            .instrumentId(message.instrument().instrumentId())
            .mnemonic(message.instrument().mnemonic());
        encoder.qty(message.qty()).price(message.price());
    }

    @Override
    public PriceUpdate decode(PriceUpdateDecoder decoder) {
        final InstrumentDecoder instrument = decoder.instrument();
        return new PriceUpdate(new Instrument(instrument.instrumentId(), instrument.mnemonic()),
            decoder.qty(), decoder.price());
    }
}
