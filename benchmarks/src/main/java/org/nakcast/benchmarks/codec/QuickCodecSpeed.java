package org.nakcast.benchmarks.codec;

import org.nakcast.codecs.CodecNames;

/**
 * A quick look at one codec's encode and decode rates on the sample {@code PriceUpdate}, for
 * {@code ops/quickstart}: the operations of the JMH benchmarks ({@link FlyweightCodecBenchmark}
 * for {@code flyweight}, its zero-copy path; {@link ObjectCodecBenchmark} for every other codec)
 * called in a plain timed loop, one thread, after a warm-up. Seconds rather than minutes, and
 * without JMH's forks and statistics: {@code ops/codec-bench} gives the JMH figures.
 *
 * <p>Measure one codec per JVM: a loop that has run several codecs has their profiles mixed, and
 * the later ones come out slower than they are. The loop itself allocates nothing; what the codec
 * allocates is its own.
 */
public final class QuickCodecSpeed {
    /** Operations between two reads of the clock. */
    private static final int BATCH = 256;
    private static final double NANOS_PER_SECOND = 1e9;

    private final long warmupNs;
    private final long measureNs;
    /** Every result summed: a volatile write the JIT must keep, so it cannot drop the work. */
    private volatile long sink;

    /**
     * @param warmupNs how long each operation runs before it is timed
     * @param measureNs how long each operation is timed
     */
    public QuickCodecSpeed(long warmupNs, long measureNs) {
        this.warmupNs = warmupNs;
        this.measureNs = measureNs;
    }

    /**
     * Measures encode, then decode.
     *
     * @param codecName a built-in codec's name
     * @return the rates and the encoded sample's length
     */
    public Speed measure(String codecName) {
        final Operation encode;
        final Operation decode;
        if (CodecNames.FLYWEIGHT.equals(codecName)) {
            final FlyweightCodecBenchmark flyweight = new FlyweightCodecBenchmark();
            flyweight.setUp();
            encode = flyweight::encode;
            decode = flyweight::decode;
        } else {
            final ObjectCodecBenchmark object = new ObjectCodecBenchmark();
            object.codec = codecName;
            object.setUp();
            encode = object::encode;
            decode = () -> object.decode() == null ? 0 : 1;
        }
        final int bytes = (int) encode.run();
        return new Speed(rate(encode), rate(decode), bytes);
    }

    private double rate(Operation operation) {
        loop(operation, warmupNs);
        final long startNs = System.nanoTime();
        final long operations = loop(operation, measureNs);
        return operations * NANOS_PER_SECOND / (System.nanoTime() - startNs);
    }

    /** Runs the operation in batches until {@code durationNs} is over; returns how many times it ran. */
    private long loop(Operation operation, long durationNs) {
        final long endNs = System.nanoTime() + durationNs;
        long operations = 0;
        long results = 0;
        do {
            for (int i = 0; i < BATCH; i++) {
                results += operation.run();
            }
            operations += BATCH;
        } while (System.nanoTime() < endNs);
        sink += results;
        return operations;
    }

    /** One encode or one decode, answering a number drawn from its result. */
    @FunctionalInterface
    private interface Operation {
        long run();
    }

    /**
     * One codec's rates.
     *
     * @param encodePerSecond encodes per second, one thread
     * @param decodePerSecond decodes per second, one thread
     * @param bytes the encoded sample's length
     */
    public record Speed(double encodePerSecond, double decodePerSecond, int bytes) {
        /** The rate the codec allows end to end: the lower of the two. */
        public double min() {
            return Math.min(encodePerSecond, decodePerSecond);
        }
    }
}
