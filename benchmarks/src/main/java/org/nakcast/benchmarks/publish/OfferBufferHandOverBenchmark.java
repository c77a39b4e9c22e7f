package org.nakcast.benchmarks.publish;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

import org.agrona.BitUtil;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.ControlledMessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.nakcast.config.ByteSize;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What handing a 70-byte message to the sending thread costs the application's thread, through the
 * ring a publication's offer buffer is ({@code OfferBuffer}: Agrona's {@link OneToOneRingBuffer},
 * written by {@code offer}, read by the sender's {@code controlledRead} up to 256 messages at a
 * time), in two ways:
 *
 * <pre>
 *   handOver:   writer thread --offer--> ring --controlledRead--> reader thread (another core)
 *               the reader keeps up, so the ring stays near empty and it reads each message soon
 *               after it is written
 *   sameThread: one thread offers 64 messages, then reads them; the ring's lines stay in its caches
 *               (offerAndRead)
 * </pre>
 *
 * <p>{@code handOver}'s {@code offer} is the writer's time per message taken (it tries again while
 * the ring is full, which near empty it seldom is); {@code sameThread} is one message's offer and
 * read ({@code offerAndRead}). The gap between the two is what the other core's reading costs the
 * writer: on two cores, {@code ops/throughput} saw the application's thread spend about three times
 * as much per offer while its offer buffer was near empty as while it was full (benchmarks README,
 * "The offer buffer"). The ring's length is the topic's {@code offer-buffer}. Agrona needs the
 * flags of {@code ops/jvm.options}; JMH's forks inherit them:
 *
 * <pre>
 *   java @ops/jvm.options -jar benchmarks/target/nakcast-benchmarks.jar OfferBufferHandOverBenchmark \
 *       -f 2 -wi 3 -i 6 -w 1s -r 2s -prof gc
 * </pre>
 */
@State(Scope.Group)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class OfferBufferHandOverBenchmark {
    private static final int MESSAGE_TYPE = 1;
    private static final int MESSAGE_LENGTH = 70;
    private static final int BATCH = 64;
    private static final int READ_LIMIT = 256;

    /** The ring's length: the topic's {@code offer-buffer}. */
    @Param({"2m", "16m"})
    public String capacity;

    private final UnsafeBuffer message = new UnsafeBuffer(new byte[MESSAGE_LENGTH]);
    private final SequenceReader reader = new SequenceReader();
    private OneToOneRingBuffer ring;
    private long sequence;

    /** A ring of {@link #capacity}, allocated as an offer buffer allocates its own. */
    @Setup
    public void setup() {
        final int length = BitUtil.findNextPositivePowerOfTwo((int) ByteSize.parse(capacity).bytes());
        ring = new OneToOneRingBuffer(new UnsafeBuffer(
            ByteBuffer.allocateDirect(length + RingBufferDescriptor.TRAILER_LENGTH)));
    }

    /**
     * The writer's side of the hand-over: one message taken.
     *
     * @return its sequence number
     */
    @Benchmark
    @Group("handOver")
    @GroupThreads(1)
    public long offer() {
        sequence++;
        message.putLong(0, sequence);
        while (!ring.write(MESSAGE_TYPE, message, 0, MESSAGE_LENGTH)) {
            Thread.onSpinWait();
        }
        return sequence;
    }

    /**
     * The reader's side of the hand-over: what is in the ring, up to the sender's limit.
     *
     * @return how many messages it read
     */
    @Benchmark
    @Group("handOver")
    @GroupThreads(1)
    public int read() {
        return ring.controlledRead(reader, READ_LIMIT);
    }

    /**
     * One thread offers {@value #BATCH} messages and reads them back.
     *
     * @return how many it read
     */
    @Benchmark
    @Group("sameThread")
    @GroupThreads(1)
    @OperationsPerInvocation(BATCH)
    public int offerAndRead() {
        for (int i = 0; i < BATCH; i++) {
            sequence++;
            message.putLong(0, sequence);
            ring.write(MESSAGE_TYPE, message, 0, MESSAGE_LENGTH);
        }
        return ring.controlledRead(reader, READ_LIMIT);
    }

    /** Reads each message's sequence number, as the sender reads what it packs. */
    private static final class SequenceReader implements ControlledMessageHandler {
        private long lastSequence;

        @Override
        public Action onMessage(int msgTypeId, MutableDirectBuffer buffer, int index, int length) {
            lastSequence = buffer.getLong(index);
            return Action.CONTINUE;
        }
    }
}
