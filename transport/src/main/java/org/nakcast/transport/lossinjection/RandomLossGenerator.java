package org.nakcast.transport.lossinjection;

import java.util.EnumSet;
import java.util.SplittableRandom;

import org.agrona.DirectBuffer;
import org.nakcast.transport.protocol.FrameType;
import org.nakcast.transport.protocol.HeaderFlyweight;

/**
 * Drops a seeded-random fraction of the datagrams of chosen types: the same seed gives the same
 * drop pattern for the same traffic, so a failing loss test can be replayed.
 */
public final class RandomLossGenerator implements LossGenerator {
    private final SplittableRandom random;
    private final double rate;
    private final boolean[] dropsType = new boolean[256];

    /**
     * @param seed seeds the pattern
     * @param rate fraction of matching datagrams to drop, 0.0 to 1.0
     * @param types the datagram types to drop from
     */
    public RandomLossGenerator(long seed, double rate, EnumSet<FrameType> types) {
        if (rate < 0.0 || rate > 1.0) {
            throw new IllegalArgumentException("loss rate must be within 0.0..1.0, was " + rate);
        }
        this.random = new SplittableRandom(seed);
        this.rate = rate;
        for (FrameType type : types) {
            dropsType[type.code()] = true;
        }
    }

    /** Drops {@code rate} of DATA datagrams (first sends, not retransmits). */
    public static RandomLossGenerator data(long seed, double rate) {
        return new RandomLossGenerator(seed, rate, EnumSet.of(FrameType.DATA));
    }

    @Override
    public boolean shouldDrop(DirectBuffer buffer, int offset, int length) {
        if (length < HeaderFlyweight.HEADER_LENGTH) {
            return false;
        }
        return dropsType[HeaderFlyweight.typeCodeAt(buffer, offset)] && random.nextDouble() < rate;
    }
}
