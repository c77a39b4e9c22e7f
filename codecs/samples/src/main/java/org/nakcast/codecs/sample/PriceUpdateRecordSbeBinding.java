package org.nakcast.codecs.sample;

import org.nakcast.codecs.sample.sbe.InstrumentDecoder;
import org.nakcast.codecs.sample.sbe.PriceUpdateDecoder;
import org.nakcast.codecs.sample.sbe.PriceUpdateEncoder;
import org.nakcast.codecs.sbe.SbeBinding;

/**
 * {@link PriceUpdateRecord} on the same {@code PriceUpdate} SBE flyweights as {@link PriceUpdate}:
 * the wire does not know whether the object was a class or a record.
 */
public final class PriceUpdateRecordSbeBinding
    implements SbeBinding<PriceUpdateRecord, PriceUpdateEncoder, PriceUpdateDecoder> {
    @Override
    public Class<PriceUpdateRecord> messageClass() {
        return PriceUpdateRecord.class;
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
    public int encodedLength(PriceUpdateRecord message) {
        return PriceUpdateEncoder.BLOCK_LENGTH;
    }

    @Override
    public void encode(PriceUpdateRecord message, PriceUpdateEncoder encoder) {
        encoder.instrument()
            .instrumentId(message.instrument().instrumentId())
            .mnemonic(message.instrument().mnemonic());
        encoder.qty(message.qty()).price(message.price());
    }

    @Override
    public PriceUpdateRecord decode(PriceUpdateDecoder decoder) {
        final InstrumentDecoder instrument = decoder.instrument();
        return new PriceUpdateRecord(new InstrumentRecord(instrument.instrumentId(), instrument.mnemonic()),
            decoder.qty(), decoder.price());
    }
}
