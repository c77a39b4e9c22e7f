package org.nakcast.benchmarks.throughput;

import java.nio.ByteBuffer;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.nakcast.transport.RawPublication;

/**
 * The publisher's hot loop: offers messages numbered 0, 1, 2, ... (the number in the first eight
 * bytes, little-endian) as fast as the publication takes them, for a given number of seconds, and
 * records how many it had offered at the end of each second. On back-pressure it backs off (spin,
 * yield, then park up to 1 ms) so that on a small machine the node's own thread gets the CPU.
 * Allocates nothing while it runs.
 */
final class PublisherLoop {
    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    /** The clock is read after every this many accepted offers, and after every refusal. */
    private static final long CLOCK_CHECK_MASK = 63;

    private final RawPublication publication;
    private final int messageLength;
    private final int seconds;
    private final UnsafeBuffer message;
    private final IdleStrategy idle = new BackoffIdleStrategy();
    private final PerSecondCounts offeredPerSecond;

    /**
     * @param publication where the messages go
     * @param messageLength bytes per message, at least 8
     * @param seconds how long {@link #run()} offers
     */
    PublisherLoop(RawPublication publication, int messageLength, int seconds) {
        this.publication = publication;
        this.messageLength = messageLength;
        this.seconds = seconds;
        this.message = new UnsafeBuffer(ByteBuffer.allocateDirect(messageLength));
        this.offeredPerSecond = new PerSecondCounts(seconds);
    }

    /**
     * Offers until the seconds given at construction are over.
     *
     * @return how many messages were offered (and taken)
     * @throws IllegalStateException if the publication refuses for another reason than back-pressure
     */
    long run() {
        final long startNs = System.nanoTime();
        final long endNs = startNs + seconds * NANOS_PER_SECOND;
        long nextSecondNs = startNs + NANOS_PER_SECOND;
        long sequence = 0;
        while (true) {
            message.putLong(0, sequence);
            final long result = publication.offer(message, 0, messageLength);
            if (result == RawPublication.OK) {
                sequence++;
                idle.reset();
                if ((sequence & CLOCK_CHECK_MASK) != 0) {
                    continue;
                }
            } else if (result == RawPublication.BACK_PRESSURED) {
                idle.idle();
            } else {
                throw new IllegalStateException("offer refused with code " + result + " at message " + sequence);
            }
            final long nowNs = System.nanoTime();
            while (nowNs >= nextSecondNs) {
                offeredPerSecond.record(sequence);
                nextSecondNs += NANOS_PER_SECOND;
            }
            if (nowNs >= endNs) {
                return sequence;
            }
        }
    }

    /** Messages offered by the end of each second of {@link #run()}. */
    PerSecondCounts offeredPerSecond() {
        return offeredPerSecond;
    }
}
