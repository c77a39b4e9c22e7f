package org.nakcast.transport.receive;

import org.agrona.concurrent.status.AtomicCounter;
import org.nakcast.transport.status.StreamCounters;

/**
 * A receiving stream's position and lag, published in the node's counters file for
 * {@code nakcast stat}: where delivery stands, and how many datagrams known to exist (sent, or
 * announced by a heartbeat) it has not delivered yet, held or missing.
 */
final class ReceiverPositionCounters {
    private final StreamCounters counters;
    private final AtomicCounter position;
    private final AtomicCounter lag;

    ReceiverPositionCounters(StreamCounters counters, String topicName, int topicId, int sessionId) {
        this.counters = counters;
        this.position = counters.receiverPosition(topicName, topicId, sessionId);
        this.lag = counters.receiverLag(topicName, topicId, sessionId);
    }

    /** Publishes the stream's state: the next datagram to deliver and the highest known to exist. */
    void update(long nextToDeliver, long highestKnown) {
        position.setOrdered(nextToDeliver);
        lag.setOrdered(highestKnown + 1 - nextToDeliver);
    }

    /** Gives both counters back; the stream has ended. */
    void free() {
        counters.free(position);
        counters.free(lag);
    }
}
