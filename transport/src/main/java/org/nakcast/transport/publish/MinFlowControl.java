package org.nakcast.transport.publish;

import org.agrona.concurrent.status.AtomicCounter;
import org.nakcast.transport.PublisherEventListener;
import org.nakcast.transport.ReceiverDropped;
import org.nakcast.transport.protocol.DatagramCheck;
import org.nakcast.transport.status.SystemCounter;
import org.nakcast.transport.status.SystemCounters;

/**
 * Flow control {@code min}: the publisher sends at most {@code window} datagrams beyond what its
 * slowest live receiver has consumed, so no live receiver falls out of history. A receiver is live
 * from its first STATUS until it has been silent for the timeout; then it is dropped, counted and
 * reported, and the others go on. With no live receiver there is nobody to send to: the
 * publication answers offers with NOT_CONNECTED until a receiver's first STATUS.
 *
 * <p>When the last live receiver is dropped, what was offered before stays held where that
 * receiver left it for one more timeout before it is sent to nobody: a receiver dropped only
 * because its STATUS were lost on the way is heard again within that time (it sends one at least
 * every quarter of the timeout), and finds what it needs still in history instead of overwritten
 * by datagrams that went out while nobody was waited for.
 *
 * <p>What a STATUS is believed:
 * <ul>
 *   <li>A position beyond what the stream has sent cannot come from a receiver (it can only have
 *   consumed what was sent): the STATUS is refused and counted as malformed
 *   ({@link DatagramCheck#STATUS_BEYOND_SENT}); the receiver's earlier position stands.</li>
 *   <li>Otherwise the latest STATUS to arrive is the receiver's position, lower or higher than the
 *   one before: a receiver that restarted under the same id is where it says. A STATUS overtaken
 *   on the way by a later one moves the receiver back until its next STATUS (at most a millisecond
 *   later while it moves): it only ever holds the publisher back for longer, never lets it run
 *   ahead of the receiver.</li>
 *   <li>At most {@link #MAX_RECEIVERS} receivers are tracked. When the table is full a newcomer
 *   slower than the fastest tracked receiver takes that one's place; a newcomer that is not is
 *   turned away. Either way one is counted ({@link SystemCounter#FLOW_CONTROL_RECEIVERS_TURNED_AWAY}).
 *   The slowest reporting receiver is therefore always waited for, however many ids are made up:
 *   those turned away are ahead of every tracked one.</li>
 * </ul>
 * The send limit saturates at {@link Long#MAX_VALUE}: no position overflows it.
 *
 * <p>Receivers are kept in fixed arrays: no allocation after construction but for the drop event.
 */
final class MinFlowControl implements FlowControl {
    /** The most receivers one stream waits for. */
    static final int MAX_RECEIVERS = 64;
    private static final long NOT_EMPTIED = Long.MIN_VALUE;

    private final int topicId;
    private final int sessionId;
    private final long window;
    private final long timeoutNs;
    private final int historyDatagrams;
    private final PublisherEventListener events;
    private final SystemCounters counters;
    private final AtomicCounter receiversDropped;
    private final AtomicCounter receiversTurnedAway;
    private final int[] receiverIds = new int[MAX_RECEIVERS];
    private final long[] positions = new long[MAX_RECEIVERS];
    private final long[] lastHeardNs = new long[MAX_RECEIVERS];
    private int count;
    /** The send limit while a receiver was last live: held for a timeout after the last one is dropped. */
    private long heldLimit = Long.MAX_VALUE;
    /** When the last live receiver was dropped; {@link #NOT_EMPTIED} while one is live, or none ever was. */
    private long emptiedAtNs = NOT_EMPTIED;

    /**
     * @param window how many datagrams beyond the slowest receiver may be sent; at most the history
     * @param timeoutNs how long a receiver may be silent before it is dropped
     * @param historyDatagrams the history's size, for the drop event
     * @param counters where dropped and turned-away receivers and refused STATUS are counted
     */
    MinFlowControl(int topicId, int sessionId, long window, long timeoutNs, int historyDatagrams,
        PublisherEventListener events, SystemCounters counters) {
        this.topicId = topicId;
        this.sessionId = sessionId;
        this.window = window;
        this.timeoutNs = timeoutNs;
        this.historyDatagrams = historyDatagrams;
        this.events = events;
        this.counters = counters;
        this.receiversDropped = counters.get(SystemCounter.RECEIVERS_DROPPED);
        this.receiversTurnedAway = counters.get(SystemCounter.FLOW_CONTROL_RECEIVERS_TURNED_AWAY);
    }

    @Override
    public void onStatus(int receiverId, long nextNeeded, long sentUpTo, long nowNs) {
        if (nextNeeded > sentUpTo) {
            counters.countMalformed(DatagramCheck.STATUS_BEYOND_SENT);
            return;
        }
        int index = indexOf(receiverId);
        if (index < 0) {
            index = count < MAX_RECEIVERS ? count++ : placeFor(nextNeeded);
            if (index < 0) {
                return;
            }
            receiverIds[index] = receiverId;
        }
        positions[index] = nextNeeded;
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
        if (count > 0) {
            heldLimit = slowest > Long.MAX_VALUE - window ? Long.MAX_VALUE : slowest + window;
            emptiedAtNs = NOT_EMPTIED;
            return heldLimit;
        }
        return emptiedAtNs != NOT_EMPTIED && nowNs - emptiedAtNs <= timeoutNs ? heldLimit : Long.MAX_VALUE;
    }

    @Override
    public boolean hasReceivers() {
        return count > 0;
    }

    @Override
    public boolean receiversHave(long sequence) {
        for (int i = 0; i < count; i++) {
            if (positions[i] < sequence) {
                return false;
            }
        }
        return true;
    }

    /** How many receivers it waits for now. */
    int liveReceivers() {
        return count;
    }

    /**
     * The full table's place for a newcomer at {@code position}: the fastest tracked receiver's,
     * if the newcomer is slower; else -1. Counts one receiver turned away either way.
     */
    private int placeFor(long position) {
        int fastest = 0;
        for (int i = 1; i < count; i++) {
            if (positions[i] > positions[fastest]) {
                fastest = i;
            }
        }
        receiversTurnedAway.increment();
        return position < positions[fastest] ? fastest : -1;
    }

    private void drop(int index, long sentUpTo, long nowNs) {
        final ReceiverDropped event = new ReceiverDropped(topicId, sessionId, receiverIds[index],
            sentUpTo - positions[index], nowNs - lastHeardNs[index], historyDatagrams);
        count--;
        receiverIds[index] = receiverIds[count];
        positions[index] = positions[count];
        lastHeardNs[index] = lastHeardNs[count];
        receiversDropped.increment();
        if (count == 0) {
            emptiedAtNs = nowNs;
        }
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
