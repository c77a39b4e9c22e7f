package org.nakcast.transport.publish;

import java.util.List;

import org.agrona.concurrent.status.AtomicCounter;
import org.nakcast.transport.PublisherEventListener;
import org.nakcast.transport.ReceiverDropped;
import org.nakcast.transport.media.DatagramSource;
import org.nakcast.transport.media.Line;
import org.nakcast.transport.media.MulticastAddress;
import org.nakcast.transport.status.DatagramCheck;
import org.nakcast.transport.status.SystemCounter;
import org.nakcast.transport.status.SystemCounters;

/**
 * Flow control {@code min}: the publisher sends at most {@code window} datagrams beyond what its
 * slowest live receiver has consumed, so no live receiver falls out of history. A receiver is live
 * from its first STATUS until it has been silent for the timeout, or stuck for it (a full window
 * behind what was sent, so that the publisher can send nothing until it moves, and for the timeout
 * neither moved nor had all that was sent: one that stood still while the publisher was held by
 * another had nothing to move for); then it is dropped, counted and reported, and the others go
 * on. With no live receiver there is nobody to send to: the publication answers offers with
 * NOT_CONNECTED until a receiver's first STATUS.
 *
 * <p>When the last live receiver is dropped as silent, what was offered before stays held where that
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
 *   <li>A receiver is pinned, per line, to the address its first STATUS on that line came from: its
 *   STATUS from another address change nothing and are counted
 *   ({@link SystemCounter#STATUS_WRONG_SOURCE}), so a stranger on another host can neither keep a
 *   vanished receiver alive nor move a live one. The pins of the last {@link #MAX_RECEIVERS}
 *   receivers no longer tracked (dropped, or pushed out of a full table) are kept, so that a
 *   stranger cannot take a dropped receiver's id either: the receiver comes back under its own
 *   pins. On an authenticated line the address is not asked: every STATUS that reaches flow
 *   control there was signed by a holder of the key, so its address proves nothing more, and a
 *   stranger that replays a receiver's signed STATUS from its own address before the publisher
 *   heard the receiver must not have the receiver pinned there.</li>
 *   <li>A receiver dropped as stuck benches its address: while benched, that address brings in no
 *   new receiver a full window behind what was sent, one that would hold the publisher at once (its
 *   STATUS for ids not tracked are counted, {@link SystemCounter#STATUS_FROM_BENCHED_HOSTS}, and
 *   change nothing), for {@link #BENCH_TIMEOUTS} timeouts, and on for one more timeout after each
 *   such STATUS. A receiver of that address that has caught up closer than that is let in, as the
 *   stuck one is once it catches up. A stranger reporting made-up receivers at a standstill, under
 *   new ids each time, holds the publisher for one timeout, not for as long as it keeps sending; one
 *   that reports them close to the front and moves them as the publisher goes is a receiver like any
 *   other to flow control (only authentication shuts it out).</li>
 * </ul>
 * The send limit saturates at {@link Long#MAX_VALUE}: no position overflows it.
 *
 * <p>Receivers are kept in fixed arrays: no allocation after construction but for the drop event.
 */
final class MinFlowControl implements FlowControl {
    /** The most receivers one stream waits for. */
    static final int MAX_RECEIVERS = 64;
    /** How many timeouts an address is benched for after its receiver was dropped as stuck. */
    static final int BENCH_TIMEOUTS = 8;
    /** The most addresses benched at once. */
    static final int MAX_BENCHED = 8;
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
    private final AtomicCounter receiversStuck;
    private final AtomicCounter statusWrongSource;
    private final AtomicCounter statusFromBenched;
    private final MulticastAddress[] lines;
    private final int[] receiverIds = new int[MAX_RECEIVERS];
    private final long[] positions = new long[MAX_RECEIVERS];
    private final long[] lastHeardNs = new long[MAX_RECEIVERS];
    private final long[] movedAtNs = new long[MAX_RECEIVERS];
    private final DatagramSource[][] pinned = new DatagramSource[MAX_RECEIVERS][Line.MAX_PER_TOPIC];
    private final int[] formerIds = new int[MAX_RECEIVERS];
    private final DatagramSource[][] formerPins = new DatagramSource[MAX_RECEIVERS][Line.MAX_PER_TOPIC];
    private final DatagramSource[] benched = new DatagramSource[MAX_BENCHED];
    /** What a STATUS on an authenticated line is taken to come from for its pins: an address not asked. */
    private final DatagramSource unasked = new DatagramSource();
    private final long[] benchedUntilNs = new long[MAX_BENCHED];
    private int count;
    private int formerCount;
    private int formerNext;
    private int benchedCount;
    /** The send limit while a receiver was last live: held for a timeout after the last one is dropped. */
    private long heldLimit = Long.MAX_VALUE;
    /** When the last live receiver was dropped; {@link #NOT_EMPTIED} while one is live, or none ever was. */
    private long emptiedAtNs = NOT_EMPTIED;

    /**
     * @param lines the addresses of the stream's lines, in order: a STATUS is pinned per line
     * @param window how many datagrams beyond the slowest receiver may be sent; at most the history
     * @param timeoutNs how long a receiver may be silent, or stuck, before it is dropped
     * @param historyDatagrams the history's size, for the drop event
     * @param counters where dropped and turned-away receivers and refused STATUS are counted
     */
    MinFlowControl(int topicId, int sessionId, List<MulticastAddress> lines, long window, long timeoutNs,
        int historyDatagrams, PublisherEventListener events, SystemCounters counters) {
        this.topicId = topicId;
        this.lines = lines.toArray(MulticastAddress[]::new);
        this.sessionId = sessionId;
        this.window = window;
        this.timeoutNs = timeoutNs;
        this.historyDatagrams = historyDatagrams;
        this.events = events;
        this.counters = counters;
        this.receiversDropped = counters.get(SystemCounter.RECEIVERS_DROPPED);
        this.receiversTurnedAway = counters.get(SystemCounter.FLOW_CONTROL_RECEIVERS_TURNED_AWAY);
        this.receiversStuck = counters.get(SystemCounter.RECEIVERS_STUCK);
        this.statusWrongSource = counters.get(SystemCounter.STATUS_WRONG_SOURCE);
        this.statusFromBenched = counters.get(SystemCounter.STATUS_FROM_BENCHED_HOSTS);
        for (int i = 0; i < MAX_RECEIVERS; i++) {
            for (int line = 0; line < Line.MAX_PER_TOPIC; line++) {
                pinned[i][line] = new DatagramSource();
                formerPins[i][line] = new DatagramSource();
            }
        }
        for (int i = 0; i < MAX_BENCHED; i++) {
            benched[i] = new DatagramSource();
        }
    }

    @Override
    public void onStatus(MulticastAddress on, DatagramSource source, int receiverId, long nextNeeded, long sentUpTo,
        long nowNs) {
        if (nextNeeded > sentUpTo) {
            counters.countMalformed(DatagramCheck.STATUS_BEYOND_SENT);
            return;
        }
        final int line = lineOf(on);
        final DatagramSource from = on.authKeys() == null ? source : unasked;
        int index = indexOf(receiverId);
        if (index >= 0) {
            if (!comesFrom(pinned[index][line], from)) {
                statusWrongSource.increment();
                return;
            }
        } else {
            final int former = formerIndexOf(receiverId);
            if (former >= 0 && !mayComeFrom(formerPins[former][line], from)) {
                statusWrongSource.increment();
                return;
            }
            if (isBenched(source, nextNeeded, sentUpTo, nowNs)) {
                statusFromBenched.increment();
                return;
            }
            index = count < MAX_RECEIVERS ? count++ : placeFor(nextNeeded);
            if (index < 0) {
                return;
            }
            receiverIds[index] = receiverId;
            for (int pin = 0; pin < Line.MAX_PER_TOPIC; pin++) {
                if (former >= 0) {
                    pinned[index][pin].copy(formerPins[former][pin]);
                } else {
                    pinned[index][pin].unknown();
                }
            }
            comesFrom(pinned[index][line], from);
            movedAtNs[index] = nowNs;
        }
        if (positions[index] != nextNeeded) {
            movedAtNs[index] = nowNs;
        }
        positions[index] = nextNeeded;
        lastHeardNs[index] = nowNs;
    }

    @Override
    public long sendLimit(long sentUpTo, long nowNs) {
        long slowest = Long.MAX_VALUE;
        for (int i = count - 1; i >= 0; i--) {
            if (nowNs - lastHeardNs[i] > timeoutNs) {
                drop(i, ReceiverDropped.Cause.SILENT, nowNs - lastHeardNs[i], sentUpTo, nowNs);
            } else if (positions[i] <= sentUpTo - window && nowNs - movedAtNs[i] > timeoutNs) {
                receiversStuck.increment();
                bench(i, nowNs);
                drop(i, ReceiverDropped.Cause.STUCK, nowNs - movedAtNs[i], sentUpTo, nowNs);
            } else {
                if (positions[i] >= sentUpTo) {
                    // it has all that was sent: standing still is not lagging, its stuck clock starts anew
                    movedAtNs[i] = nowNs;
                }
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

    /**
     * A quarter of the window: a receiver that keeps up reports its position at least three
     * quarters of a window before the publisher would have to wait for it.
     */
    @Override
    public long statusWantedEvery() {
        return Math.max(1, window / 4);
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
        if (position >= positions[fastest]) {
            return -1;
        }
        remember(fastest);
        return fastest;
    }

    private void drop(int index, ReceiverDropped.Cause cause, long forNs, long sentUpTo, long nowNs) {
        final ReceiverDropped event = new ReceiverDropped(topicId, sessionId, receiverIds[index], cause,
            sentUpTo - positions[index], forNs, historyDatagrams);
        remember(index);
        count--;
        receiverIds[index] = receiverIds[count];
        positions[index] = positions[count];
        lastHeardNs[index] = lastHeardNs[count];
        movedAtNs[index] = movedAtNs[count];
        final DatagramSource[] freed = pinned[index];
        pinned[index] = pinned[count];
        pinned[count] = freed;
        receiversDropped.increment();
        if (count == 0) {
            // held for a receiver whose STATUS were lost, not for one heard standing still
            emptiedAtNs = cause == ReceiverDropped.Cause.SILENT ? nowNs : NOT_EMPTIED;
        }
        events.onReceiverDropped(event);
    }

    /**
     * Whether a STATUS from {@code source} on a receiver's line may move it ({@link #mayComeFrom});
     * the first known address heard on the line pins it.
     */
    private static boolean comesFrom(DatagramSource pin, DatagramSource source) {
        if (!mayComeFrom(pin, source)) {
            return false;
        }
        if (source.isKnown() && !pin.isKnown()) {
            pin.copy(source);
        }
        return true;
    }

    /**
     * Whether {@code source} may be the receiver's whose pin on the line is {@code pin}: the pinned
     * address, or any while none is pinned, or one the media could not tell. Pins nothing.
     */
    private static boolean mayComeFrom(DatagramSource pin, DatagramSource source) {
        return !source.isKnown() || !pin.isKnown() || pin.sameAddressAs(source);
    }

    /** Keeps the pins of receiver {@code index}, no longer to be tracked, in place of the oldest kept. */
    private void remember(int index) {
        int slot = formerIndexOf(receiverIds[index]);
        if (slot < 0) {
            slot = formerCount < MAX_RECEIVERS ? formerCount++ : formerNext;
            formerNext = (slot + 1) % MAX_RECEIVERS;
            formerIds[slot] = receiverIds[index];
        }
        for (int line = 0; line < Line.MAX_PER_TOPIC; line++) {
            formerPins[slot][line].copy(pinned[index][line]);
        }
    }

    private int formerIndexOf(int receiverId) {
        for (int i = 0; i < formerCount; i++) {
            if (formerIds[i] == receiverId) {
                return i;
            }
        }
        return -1;
    }

    /** Benches every address the stuck receiver {@code index} was heard from. */
    private void bench(int index, long nowNs) {
        for (DatagramSource source : pinned[index]) {
            if (!source.isKnown()) {
                continue;
            }
            int slot = benchSlotOf(source);
            if (slot < 0) {
                slot = benchedCount < MAX_BENCHED ? benchedCount++ : soonestUnbenched();
                benched[slot].copy(source);
            }
            benchedUntilNs[slot] = nowNs + BENCH_TIMEOUTS * timeoutNs;
        }
    }

    /**
     * Whether a new receiver's STATUS from {@code source} is turned away: its address is benched and
     * it is a full window behind what was sent, so it would hold the publisher at once. Such a
     * STATUS keeps the address benched for one more timeout. A receiver of a benched address that is
     * not that far behind is let in: a real receiver dropped as stuck comes back once it has caught
     * up. A bench that ended is freed.
     */
    private boolean isBenched(DatagramSource source, long nextNeeded, long sentUpTo, long nowNs) {
        final int slot = benchSlotOf(source);
        if (slot < 0) {
            return false;
        }
        if (nowNs - benchedUntilNs[slot] > 0) {
            benchedCount--;
            benched[slot].copy(benched[benchedCount]);
            benchedUntilNs[slot] = benchedUntilNs[benchedCount];
            return false;
        }
        if (nextNeeded > sentUpTo - window) {
            return false;
        }
        benchedUntilNs[slot] = Math.max(benchedUntilNs[slot], nowNs + timeoutNs);
        return true;
    }

    private int benchSlotOf(DatagramSource source) {
        for (int i = 0; i < benchedCount; i++) {
            if (benched[i].sameAddressAs(source)) {
                return i;
            }
        }
        return -1;
    }

    private int soonestUnbenched() {
        int soonest = 0;
        for (int i = 1; i < MAX_BENCHED; i++) {
            if (benchedUntilNs[i] - benchedUntilNs[soonest] < 0) {
                soonest = i;
            }
        }
        return soonest;
    }

    /** The index of the stream's line at {@code address}; 0 for one it does not travel on. */
    private int lineOf(MulticastAddress address) {
        for (int i = 1; i < lines.length; i++) {
            if (lines[i].equals(address)) {
                return i;
            }
        }
        return 0;
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
