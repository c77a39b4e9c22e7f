package org.nakcast.transport.publish;

import org.nakcast.transport.media.DatagramSource;

/**
 * Each source address's share of a publisher stream's repairs while repairs are short: what the
 * NAKs from one host may queue for repair, on top of the stream's {@link RepairBudget}, which bounds
 * what all of them send together. A source's bucket earns half of what the stream's budget earns
 * (half its rate, half its share of new data) and holds up to the stream's whole burst, so a
 * receiver that lost a burst has it repaired at once, while no one host, and no stranger asking for
 * the whole history again and again, fills the queue with more than half of the stream's repairs
 * when another host asks too: the others' NAKs find room.
 *
 * <p>A source is held to its share only when repairs are short, that is, repairs already wait in
 * the queue (for the budget, the send rate or the socket) and another source asked within
 * {@link #OTHERS_ACTIVE_NS}. Otherwise it has what it asks for, its bucket drained but never below
 * empty: a lone receiver with heavy loss, or several whose repairs the budget covers, are answered
 * as they were before shares, so shares never cost a repair the budget has room for. A lone
 * stranger, too, has the whole budget (a third of what the stream sends, at most); only
 * authentication tells it from a receiver.
 *
 * <pre>
 *   NAK from 10.0.0.7 for 300 datagrams; repairs wait; 10.0.0.8 asked 5 ms ago
 *      --> share of 10.0.0.7: room for 120 --> queue 120 (lowest first)
 *                                          \-> 180 refused, counted; its next NAK asks again
 * </pre>
 *
 * <p>A NAK is charged for every datagram it asks for that history holds, at the stream's datagram
 * length, and an answer that history no longer holds (one UNRECOVERABLE) at its own length, when it
 * is asked, whether or not another receiver asked for the same. Sources are told apart by address,
 * not port (a host is one source, however many receivers it runs); sources the media could not
 * tell share one bucket. At most {@link #SOURCES} are kept: a new one takes the place of the one
 * heard from longest ago, with a full bucket (so a stranger that changes its address gains no more
 * than the stream's budget gives it). Data sent earns lazily, a sum read when a bucket is used, so
 * sending costs one addition. Time is passed in; not thread-safe; allocation-free after
 * construction.
 */
final class RepairShares {
    /** The most sources whose shares a stream keeps. */
    static final int SOURCES = 16;
    /** How recently another source must have asked for a source to be held to its share. */
    static final long OTHERS_ACTIVE_NS = 100_000_000L;
    private static final int PERCENT = 100;
    private static final double NANOS_PER_SECOND = 1e9;

    private final long bytesPerSecond;
    private final long burstBytes;
    private final int percentOfData;
    private final DatagramSource[] sources = new DatagramSource[SOURCES];
    private final long[] tokens = new long[SOURCES];
    private final long[] refilledNs = new long[SOURCES];
    private final long[] dataSentMark = new long[SOURCES];
    private final long[] usedNs = new long[SOURCES];
    private int count;
    private int unknownSlot = -1;
    private long dataBytesSent;

    /**
     * @param streamBytesPerSecond the rate of the stream's repair budget; more than 0
     * @param burstBytes the stream's repair burst: the most one source may have at once
     * @param streamPercentOfData what each byte of new data earns the stream's budget, in percent
     */
    RepairShares(long streamBytesPerSecond, long burstBytes, int streamPercentOfData) {
        this.bytesPerSecond = Math.max(1, streamBytesPerSecond / 2);
        this.burstBytes = burstBytes;
        this.percentOfData = streamPercentOfData / 2;
        for (int i = 0; i < SOURCES; i++) {
            sources[i] = new DatagramSource();
        }
    }

    /** New data of {@code bytes} went out: every share earns from it when next used. */
    void onDataSent(int bytes) {
        dataBytesSent += bytes;
    }

    /**
     * Takes from {@code source}'s share what {@code count} repairs of {@code bytesEach} cost, or, if
     * it is held to its share, as many of them as its share still pays for.
     *
     * @param repairsWait whether repairs already wait in the stream's queue
     * @return how many of the {@code count} repairs may be queued, from 0 to {@code count}
     */
    long take(DatagramSource source, long count, int bytesEach, boolean repairsWait, long nowNs) {
        final int slot = slotOf(source, nowNs);
        refill(slot, nowNs);
        final long granted = repairsWait && othersAsked(slot, nowNs)
            ? Math.min(count, tokens[slot] / bytesEach)
            : count;
        tokens[slot] = Math.max(0, tokens[slot] - granted * bytesEach);
        usedNs[slot] = nowNs;
        return granted;
    }

    /** Whether a source other than {@code slot}'s asked within {@link #OTHERS_ACTIVE_NS}. */
    private boolean othersAsked(int slot, long nowNs) {
        for (int i = 0; i < count; i++) {
            if (i != slot && nowNs - usedNs[i] <= OTHERS_ACTIVE_NS) {
                return true;
            }
        }
        return false;
    }

    private int slotOf(DatagramSource source, long nowNs) {
        if (!source.isKnown()) {
            if (unknownSlot < 0) {
                unknownSlot = newSlot(source, nowNs);
            }
            return unknownSlot;
        }
        for (int i = 0; i < count; i++) {
            if (sources[i].sameAddressAs(source)) {
                return i;
            }
        }
        return newSlot(source, nowNs);
    }

    /** A slot for a source not kept yet: a free one, else the one used longest ago; its bucket full. */
    private int newSlot(DatagramSource source, long nowNs) {
        int slot = count;
        if (count < SOURCES) {
            count++;
        } else {
            slot = 0;
            for (int i = 1; i < SOURCES; i++) {
                if (usedNs[i] < usedNs[slot]) {
                    slot = i;
                }
            }
            if (slot == unknownSlot) {
                unknownSlot = -1;
            }
        }
        sources[slot].copy(source);
        tokens[slot] = burstBytes;
        refilledNs[slot] = nowNs;
        dataSentMark[slot] = dataBytesSent;
        return slot;
    }

    private void refill(int slot, long nowNs) {
        final long elapsedNs = nowNs - refilledNs[slot];
        long earned = (dataBytesSent - dataSentMark[slot]) * percentOfData / PERCENT;
        dataSentMark[slot] = dataBytesSent;
        if (elapsedNs > 0) {
            final long byTime = (long) ((double) elapsedNs * bytesPerSecond / NANOS_PER_SECOND);
            if (byTime > 0) {
                earned += byTime;
                refilledNs[slot] = nowNs;
            }
        }
        tokens[slot] = Math.min(burstBytes, tokens[slot] + earned);
    }
}
