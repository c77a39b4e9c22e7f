package org.nakcast.recorder;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import org.agrona.concurrent.UnsafeBuffer;
import org.nakcast.transport.OfferResult;
import org.nakcast.transport.BytePublication;

/**
 * What the recorder's integration tests publish, and how they wait: message {@code i} is
 * {@code 8 + i % spread} bytes, its index in the first 8 and every other byte following from it.
 */
final class TestTraffic {
    private final UnsafeBuffer out = new UnsafeBuffer(new byte[512]);
    private final int spread;

    /** @param spread how many lengths the messages take, from 8 bytes up (at most 504) */
    TestTraffic(int spread) {
        this.spread = spread;
    }

    /** The length of message {@code index}. */
    int lengthOf(long index) {
        return 8 + (int) (index % spread);
    }

    /** Offers messages {@code from} to {@code to - 1}, running {@code meanwhile} while an offer is not taken. */
    void publish(BytePublication publication, long from, long to, Runnable meanwhile) {
        for (long index = from; index < to; index++) {
            out.putLong(0, index);
            for (int i = 8; i < lengthOf(index); i++) {
                out.putByte(i, (byte) (index + i));
            }
            while (!OfferResult.isTaken(publication.offer(out, 0, lengthOf(index)))) {
                meanwhile.run();
            }
        }
    }

    /**
     * Runs {@code work} until {@code done}, leaving the CPU to the nodes' threads in between; fails
     * after 30 s, saying {@code what} (a busy loop is beyond the reach of {@code @Timeout}).
     */
    static void until(BooleanSupplier done, Runnable work, Supplier<Object> what) {
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadlineNs) {
                throw new AssertionError("not done after 30 s: " + what.get());
            }
            work.run();
            LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(50));
        }
    }
}
