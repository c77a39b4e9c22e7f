package org.nakcast.transport.publish;

import org.agrona.concurrent.status.AtomicCounter;
import org.nakcast.transport.PublisherEventListener;
import org.nakcast.transport.ReceiverDropped;

/**
 * Flow control {@code min}: the publisher sends at most {@code window} datagrams beyond what its
 * slowest live receiver has consumed, so no live receiver falls out of history. A receiver is live
 * from its first STATUS until it has been silent for the timeout; then it is dropped, counted and
 * reported, and the others go on. With no live receiver there is nobody to send to: the
 * publication answers offers with NOT_CONNECTED until a receiver's first STATUS.
 *
 * <p>Receivers are kept in fixed arrays (at most {@link #MAX_RECEIVERS}; more are not waited for):
 * no allocation after construction but for the drop event.
 */
final class MinFlowControl implements FlowControl {
    /** The most receivers one stream waits for. */
    static final int MAX_RECEIVERS = 64;

    private final int topicId;
    private final int sessionId;
    private final long window;
    private final long timeoutNs;
    private final int historyDatagrams;
    private final PublisherEventListener events;
    private final AtomicCounter receiversDropped;
    private final int[] receiverIds = new int[MAX_RECEIVERS];
    private final long[] positions = new long[MAX_RECEIVERS];
    private final long[] lastHeardNs = new long[MAX_RECEIVERS];
    private int count;

    /**
     * @param window how many datagrams beyond the slowest receiver may be sent; at most the history
     * @param timeoutNs how long a receiver may be silent before it is dropped
     * @param historyDatagrams the history's size, for the drop event
     */
    MinFlowControl(int topicId, int sessionId, long window, long timeoutNs, int historyDatagrams,
        PublisherEventListener events, AtomicCounter receiversDropped) {
        this.topicId = topicId;
        this.sessionId = sessionId;
        this.window = window;
        this.timeoutNs = timeoutNs;
        this.historyDatagrams = historyDatagrams;
        this.events = events;
        this.receiversDropped = receiversDropped;
    }

    @Override
    public void onStatus(int receiverId, long nextNeeded, long nowNs) {
        int index = indexOf(receiverId);
        if (index < 0) {
            if (count == MAX_RECEIVERS) {
                return;
            }
            index = count++;
            receiverIds[index] = receiverId;
            positions[index] = nextNeeded;
        }
        positions[index] = Math.max(positions[index], nextNeeded);
        lastHeardNs[index] = nowNs;
    }

    @Override
    public long sendLimit(long sentUpTo, long nowNs) {
        long slowest = Long.MAX_VALUE;
        for (int i = count - 1; i >= 0; i--) {
            if (nowNs - lastHeardNs[i] > timeoutNs) {
                drop(i, sentUpTo, nowNs);
            } else {
                slowest = Math.min(slowest, positions[i]);
            }
        }
        return slowest == Long.MAX_VALUE ? Long.MAX_VALUE : slowest + window;
    }

    @Override
    public boolean hasReceivers() {
        return count > 0;
    }

    /** How many receivers it waits for now. */
    int liveReceivers() {
        return count;
    }

    private void drop(int index, long sentUpTo, long nowNs) {
        final ReceiverDropped event = new ReceiverDropped(topicId, sessionId, receiverIds[index],
            Math.max(0, sentUpTo - positions[index]), nowNs - lastHeardNs[index], historyDatagrams);
        count--;
        receiverIds[index] = receiverIds[count];
        positions[index] = positions[count];
        lastHeardNs[index] = lastHeardNs[count];
        receiversDropped.increment();
        events.onReceiverDropped(event);
    }

    private int indexOf(int receiverId) {
        for (int i = 0; i < count; i++) {
            if (receiverIds[i] == receiverId) {
                return i;
            }
        }
        return -1;
    }
}
