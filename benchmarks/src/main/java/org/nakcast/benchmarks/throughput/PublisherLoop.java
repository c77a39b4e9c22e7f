package org.nakcast.benchmarks.throughput;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.nakcast.transport.OfferResult;

/**
 * The publisher's hot loop: offers messages numbered 0, 1, 2, ... ({@link SequencedPublisher}) as
 * fast as the publication takes them, for a given number of seconds, and records at the end of
 * each second how many it had offered and the CPU time its JVM had used ({@link ProcessCpu}). On
 * back-pressure, or while a flow-controlled topic has heard no receiver yet, it backs off (spin,
 * yield, then park up to 1 ms) so that on a small machine the node's own thread gets the CPU.
 * Allocates nothing while it runs.
 */
final class PublisherLoop {
    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    /** The clock is read after every this many accepted offers, and after every refusal. */
    private static final long CLOCK_CHECK_MASK = 63;

    private final SequencedPublisher publisher;
    private final int seconds;
    private final IdleStrategy idle = new BackoffIdleStrategy();
    private final PerSecondCounts offeredPerSecond;
    private final PerSecondCounts cpuNanosPerSecond;

    /**
     * @param publisher offers each message
     * @param seconds how long {@link #run()} offers
     */
    PublisherLoop(SequencedPublisher publisher, int seconds) {
        this.publisher = publisher;
        this.seconds = seconds;
        this.offeredPerSecond = new PerSecondCounts(seconds);
        this.cpuNanosPerSecond = new PerSecondCounts(seconds);
    }

    /**
     * Offers until the seconds given at construction are over.
     *
     * @return how many messages were offered (and taken)
     * @throws IllegalStateException if the publication refuses for another reason than back-pressure
     *     or no receiver yet
     */
    long run() {
        final long startNs = System.nanoTime();
        final long endNs = startNs + seconds * NANOS_PER_SECOND;
        long nextSecondNs = startNs + NANOS_PER_SECOND;
        long sequence = 0;
        while (true) {
            final long result = publisher.offer(sequence);
            if (OfferResult.isTaken(result)) {
                sequence++;
                idle.reset();
                if ((sequence & CLOCK_CHECK_MASK) != 0) {
                    continue;
                }
            } else if (result == OfferResult.BACK_PRESSURED || result == OfferResult.NOT_CONNECTED) {
                idle.idle();
            } else {
                throw new IllegalStateException("offer refused with code " + result + " at message " + sequence);
            }
            final long nowNs = System.nanoTime();
            while (nowNs >= nextSecondNs) {
                offeredPerSecond.record(sequence);
                cpuNanosPerSecond.record(ProcessCpu.nanos());
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

    /** The JVM's CPU nanoseconds used by the end of each second of {@link #run()}. */
    PerSecondCounts cpuNanosPerSecond() {
        return cpuNanosPerSecond;
    }
}
