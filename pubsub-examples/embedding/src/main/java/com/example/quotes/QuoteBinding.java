package com.example.quotes;

import com.example.quotes.sbe.QuoteDecoder;
import com.example.quotes.sbe.QuoteEncoder;
import org.nakcast.codecs.sbe.SbeBinding;

/**
 * Ties {@link Quote} to the flyweights sbe-tool generated for it, so that a topic whose codec is
 * {@code flyweight} carries quotes. Listed in
 * {@code META-INF/services/org.nakcast.codecs.sbe.SbeBinding}, where nakcast finds it.
 */
public final class QuoteBinding implements SbeBinding<Quote, QuoteEncoder, QuoteDecoder> {
    @Override
    public Class<Quote> messageClass() {
        return Quote.class;
    }

    @Override
    public Class<QuoteEncoder> encoderClass() {
        return QuoteEncoder.class;
    }

    @Override
    public Class<QuoteDecoder> decoderClass() {
        return QuoteDecoder.class;
    }

    @Override
    public QuoteEncoder newEncoder() {
        return new QuoteEncoder();
    }

    @Override
    public QuoteDecoder newDecoder() {
        return new QuoteDecoder();
    }

    @Override
    public int encodedLength(Quote quote) {
        return QuoteEncoder.BLOCK_LENGTH;
    }

    @Override
    public void encode(Quote quote, QuoteEncoder encoder) {
        encoder.sequence(quote.sequence()).instrumentId(quote.instrumentId())
            .bidTicks(quote.bidTicks()).askTicks(quote.askTicks());
    }

    @Override
    public Quote decode(QuoteDecoder decoder) {
        return new Quote(decoder.sequence(), decoder.instrumentId(), decoder.bidTicks(), decoder.askTicks());
    }
}
