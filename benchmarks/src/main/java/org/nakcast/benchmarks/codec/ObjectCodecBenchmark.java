package org.nakcast.benchmarks.codec;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.UnsafeBuffer;
import org.nakcast.codecs.Codec;
import org.nakcast.codecs.CodecNames;
import org.nakcast.codecs.CodecRegistry;
import org.nakcast.codecs.sample.SampleMessages;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The object path of every codec on the sample {@code PriceUpdate}: encode an object into an
 * off-heap buffer the size of a datagram, and decode one back into a new object. For
 * {@code flyweight} this is the object path too (the fields are copied from and into a
 * {@code PriceUpdate}); its zero-copy path is {@link FlyweightCodecBenchmark}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class ObjectCodecBenchmark {
    /** The codec under test, by registry name. */
    @Param({CodecNames.FLYWEIGHT, CodecNames.FST, CodecNames.FST_UNSHARED, CodecNames.JDK,
        CodecNames.JDK_EXTERNALIZABLE, CodecNames.KRYO})
    public String codec;

    private Codec<Object> subject;
    private Object message;
    private final UnsafeBuffer encodeBuffer = new UnsafeBuffer(ByteBuffer.allocateDirect(CodecBench.DATAGRAM_SIZE));
    private final UnsafeBuffer decodeBuffer = new UnsafeBuffer(ByteBuffer.allocateDirect(CodecBench.DATAGRAM_SIZE));
    private int encodedLength;

    /**
     * Makes the codec and encodes the message once for the decode benchmark.
     */
    @Setup
    @SuppressWarnings("unchecked")
    public void setUp() {
        subject = (Codec<Object>) CodecRegistry.create().create(SampleMessages.priceUpdateSpec(codec));
        message = SampleMessages.samplePriceUpdate(codec);
        encodedLength = subject.encode(message, decodeBuffer, 0, CodecBench.DATAGRAM_SIZE);
    }

    /**
     * @return the encoded length, so the work cannot be dropped
     */
    @Benchmark
    public int encode() {
        return subject.encode(message, encodeBuffer, 0, CodecBench.DATAGRAM_SIZE);
    }

    /**
     * @return the decoded message
     */
    @Benchmark
    public Object decode() {
        return subject.decode(decodeBuffer, 0, encodedLength);
    }
}
