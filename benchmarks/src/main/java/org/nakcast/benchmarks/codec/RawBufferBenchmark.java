package org.nakcast.benchmarks.codec;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * The physical limit the codecs are measured against, in the same run: one {@code putLong} into
 * and one {@code getLong} from the same kind of off-heap buffer.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class RawBufferBenchmark {
    private final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(CodecBench.DATAGRAM_SIZE));
    private long value = 0x0102030405060708L;

    /**
     * Writes one long.
     */
    @Benchmark
    public void encode() {
        buffer.putLong(0, value++);
    }

    /**
     * @return the long read
     */
    @Benchmark
    public long decode() {
        return buffer.getLong(0);
    }
}
