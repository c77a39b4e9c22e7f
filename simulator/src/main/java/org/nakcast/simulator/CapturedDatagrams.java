package org.nakcast.simulator;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.IntPredicate;

import org.agrona.concurrent.UnsafeBuffer;
import org.nakcast.transport.protocol.FrameType;
import org.nakcast.transport.protocol.HeaderFlyweight;

/**
 * The signed datagrams a stranger captured off an authenticated segment, to send again: up to
 * {@value #CAPACITY}, each with the line and port it was read on, the host whose address it came
 * from and the session it names; once full, each new one takes the place of one drawn at random.
 */
final class CapturedDatagrams {
    static final int CAPACITY = 256;

    /** One datagram captured, its bytes as they were, trailer and all. */
    record Captured(int line, FrameType.Port port, int source, int sessionId, byte[] datagram) {
    }

    private final List<Captured> kept = new ArrayList<>(CAPACITY);

    /** Keeps {@code arrival}, read on {@code port} of {@code line}, if it is long enough to name a session. */
    void capture(int line, FrameType.Port port, SimSocket.Arrival arrival, SplittableRandom random) {
        final byte[] datagram = arrival.datagram();
        if (datagram.length < HeaderFlyweight.HEADER_LENGTH) {
            return;
        }
        final Captured captured = new Captured(line, port, arrival.source(),
            HeaderFlyweight.sessionIdAt(new UnsafeBuffer(datagram), 0), datagram);
        if (kept.size() < CAPACITY) {
            kept.add(captured);
        } else {
            kept.set(random.nextInt(CAPACITY), captured);
        }
    }

    /**
     * A datagram captured of a session {@code live} says is live, the first such from a place drawn
     * at random; null if none is.
     */
    Captured pick(SplittableRandom random, IntPredicate live) {
        if (kept.isEmpty()) {
            return null;
        }
        final int start = random.nextInt(kept.size());
        for (int i = 0; i < kept.size(); i++) {
            final Captured captured = kept.get((start + i) % kept.size());
            if (live.test(captured.sessionId())) {
                return captured;
            }
        }
        return null;
    }
}
