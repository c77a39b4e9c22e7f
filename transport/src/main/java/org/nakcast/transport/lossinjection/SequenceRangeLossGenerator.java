package org.nakcast.transport.lossinjection;

import java.util.EnumSet;

import org.agrona.DirectBuffer;
import org.nakcast.transport.protocol.FrameType;
import org.nakcast.transport.protocol.HeaderFlyweight;

/**
 * Drops every datagram of the chosen types whose sequence lies in an inclusive range: a burst
 * loss at a known place, so a test can say exactly what must be repaired or reported lost.
 * Datagrams of other types, or too short to carry a header, pass.
 */
public final class SequenceRangeLossGenerator implements LossGenerator {
    private final long fromSequence;
    private final long toSequence;
    private final boolean[] dropsType = new boolean[256];

    /**
     * @param fromSequence first sequence dropped
     * @param toSequence last sequence dropped (inclusive)
     * @param types the datagram types to drop from, e.g. only DATA so retransmits get through
     */
    public SequenceRangeLossGenerator(long fromSequence, long toSequence, EnumSet<FrameType> types) {
        if (fromSequence > toSequence) {
            throw new IllegalArgumentException("empty range " + fromSequence + ".." + toSequence);
        }
        this.fromSequence = fromSequence;
        this.toSequence = toSequence;
        for (FrameType type : types) {
            dropsType[type.code()] = true;
        }
    }

    @Override
    public boolean shouldDrop(DirectBuffer buffer, int offset, int length) {
        if (length < HeaderFlyweight.HEADER_LENGTH || !dropsType[HeaderFlyweight.typeCodeAt(buffer, offset)]) {
            return false;
        }
        final long sequence = HeaderFlyweight.sequenceAt(buffer, offset);
        return sequence >= fromSequence && sequence <= toSequence;
    }
}
