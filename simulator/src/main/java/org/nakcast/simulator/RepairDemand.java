package org.nakcast.simulator;

import org.agrona.DirectBuffer;
import org.agrona.collections.LongHashSet;
import org.agrona.concurrent.UnsafeBuffer;
import org.nakcast.transport.protocol.HeaderFlyweight;

/**
 * The distinct datagrams some receiver needed again in a run, by (session, sequence): a DATA or
 * RETRANSMIT copy the network lost, held back by a stall, duplicated or overtook, or a full socket
 * dropped. However many receivers needed one, one repair serves them all, so this is what the
 * publishers' retransmits are held to.
 */
final class RepairDemand {
    private final LongHashSet datagrams = new LongHashSet();
    private final UnsafeBuffer view = new UnsafeBuffer(new byte[0]);

    /** A copy of this datagram went wrong on its way to some receiver; counted once per datagram. */
    void note(DirectBuffer buffer, int offset, int length) {
        if (SimNetwork.carriesData(buffer, offset, length)) {
            datagrams.add(((long) HeaderFlyweight.sessionIdAt(buffer, offset) << 32)
                ^ HeaderFlyweight.sequenceAt(buffer, offset));
        }
    }

    /** The same for a datagram held as bytes. */
    void note(byte[] datagram) {
        view.wrap(datagram);
        note(view, 0, datagram.length);
    }

    /** How many distinct datagrams were needed again. */
    long distinct() {
        return datagrams.size();
    }
}
