package org.nakcast.benchmarks.codec;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.UnsafeBuffer;
import org.nakcast.codecs.CodecNames;
import org.nakcast.codecs.CodecRegistry;
import org.nakcast.codecs.FlyweightCodec;
import org.nakcast.codecs.sample.Instrument;
import org.nakcast.codecs.sample.PriceUpdate;
import org.nakcast.codecs.sample.SampleMessages;
import org.nakcast.codecs.sample.sbe.InstrumentDecoder;
import org.nakcast.codecs.sample.sbe.PriceUpdateDecoder;
import org.nakcast.codecs.sample.sbe.PriceUpdateEncoder;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The zero-copy path of the {@code flyweight} codec on the sample price update, as a publisher and
 * a subscriber use it: encode = claim (header written, region bounded) and set every field in
 * place, then take the encoded length; decode = check the header against the region and read every
 * field (the mnemonic into a reused array).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class FlyweightCodecBenchmark {
    private FlyweightCodec<PriceUpdate, PriceUpdateEncoder, PriceUpdateDecoder> codec;
    private PriceUpdate values;
    private final UnsafeBuffer encodeBuffer = new UnsafeBuffer(ByteBuffer.allocateDirect(CodecBench.DATAGRAM_SIZE));
    private final UnsafeBuffer decodeBuffer = new UnsafeBuffer(ByteBuffer.allocateDirect(CodecBench.DATAGRAM_SIZE));
    private final byte[] mnemonic = new byte[Instrument.MNEMONIC_LENGTH];
    private int encodedLength;

    /**
     * Makes the codec and encodes the message once for the decode benchmark.
     */
    @Setup
    @SuppressWarnings("unchecked")
    public void setUp() {
        codec = (FlyweightCodec<PriceUpdate, PriceUpdateEncoder, PriceUpdateDecoder>) CodecRegistry.create()
            .create(SampleMessages.priceUpdateSpec(CodecNames.FLYWEIGHT));
        values = SampleMessages.samplePriceUpdate();
        encodedLength = codec.encode(values, decodeBuffer, 0, CodecBench.DATAGRAM_SIZE);
    }

    /**
     * @return the encoded length, the length a publisher commits
     */
    @Benchmark
    public int encode() {
        PriceUpdateFields.write(codec.encoder(encodeBuffer, 0, CodecBench.DATAGRAM_SIZE),
            values.instrument().instrumentId(), values);
        return codec.encodedLength();
    }

    /**
     * @return every field read, folded into one number (JMH consumes it, so no read can be dropped)
     */
    @Benchmark
    public long decode() {
        final PriceUpdateDecoder decoder = codec.decoder(decodeBuffer, 0, encodedLength);
        final InstrumentDecoder instrument = decoder.instrument();
        return instrument.instrumentId() + instrument.getMnemonic(mnemonic, 0) + decoder.qty()
            + Double.doubleToRawLongBits(decoder.price());
    }
}
