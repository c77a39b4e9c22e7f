package org.nakcast.transport.receive;

import org.agrona.concurrent.UnsafeBuffer;
import org.nakcast.transport.protocol.FrameType;
import org.nakcast.transport.protocol.HeartbeatFlyweight;

/**
 * One HEARTBEAT datagram, rewritten for each use, for tests that hand a stream its heartbeats
 * directly: the publisher has sent up to a sequence, holds everything from 0, and its session has
 * just begun. Allocation-free once made.
 */
final class HeartbeatDatagram {
    private final HeartbeatFlyweight heartbeat = new HeartbeatFlyweight();
    private final int topicId;
    private final int sessionId;

    HeartbeatDatagram(int topicId, int sessionId) {
        this.topicId = topicId;
        this.sessionId = sessionId;
        heartbeat.wrap(new UnsafeBuffer(new byte[HeartbeatFlyweight.HEARTBEAT_LENGTH]), 0);
    }

    /** The heartbeat of a publisher that has sent up to {@code highestSequence} (-1: nothing yet). */
    HeartbeatFlyweight saying(long highestSequence) {
        heartbeat.writeHeader(FrameType.HEARTBEAT, HeartbeatFlyweight.HEARTBEAT_LENGTH, sessionId, topicId,
            highestSequence);
        heartbeat.endOfStream(false).oldestSequence(0).publisherId(0).sessionAgeNs(0);
        return heartbeat;
    }
}
