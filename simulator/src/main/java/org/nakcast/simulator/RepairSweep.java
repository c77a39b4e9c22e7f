package org.nakcast.simulator;

import java.util.Map;
import java.util.TreeMap;

import org.agrona.collections.Long2LongHashMap;

/**
 * The checker's model of one session's repairs: the datagrams its publisher read a NAK for while
 * it surely held them, and has not resent since. A publisher resends what it was asked for in one
 * ascending sweep that goes round; within one pass (its resends handed to the media at one instant,
 * each higher than the last) the sweep meets every datagram queued in between, and passes one only
 * when it was resent within the hold-off or is no longer held. A NAK for a datagram resent within the
 * hold-off is answered by that resend.
 *
 * <pre>
 *   asked 4..6, then 10..12, then 5..11:   must be resent: 4 5 6 7 8 9 10 11 12
 *   resent at one instant: 4 .. 11, 20      12 passed, asked, held, not resent lately: violation
 * </pre>
 *
 * <p>Only a pass at one instant is judged: between instants the sweep may have moved on over what
 * the hold-off skipped without a datagram on the wire. A session that may have filled its queue of
 * 256 ranges (the queue then refuses ranges, which its receivers ask for again) is judged no more.
 */
final class RepairSweep {
    /** Past this many runs of datagrams waiting, the publisher's queue may have refused some. */
    private static final int RUNS_JUDGED = 128;

    private final long holdOffNs;
    /** Each datagram waiting for its resend, with the step it was asked for in. */
    private final TreeMap<Long, Long> waiting = new TreeMap<>();
    /**
     * Each datagram asked for while resent within the hold-off, with the step: the sweep may drop it
     * unsent and go on past it, with nothing on the wire.
     */
    private final TreeMap<Long, Long> droppable = new TreeMap<>();
    private final Long2LongHashMap resentNs = new Long2LongHashMap(Long.MIN_VALUE);
    /** Counts what the publisher did (NAK ranges read, datagrams resent), in order, for telling which came first. */
    private long step;
    private long lastResent = -1;
    private long lastResentNs = Long.MIN_VALUE;
    /** How many runs of consecutive datagrams are waiting, kept as they come and go. */
    private int runs;
    private boolean queueMayHaveFilled;

    /** @param holdOffNs a datagram resent less than this long ago is not resent again */
    RepairSweep(long holdOffNs) {
        this.holdOffNs = holdOffNs;
    }

    /**
     * The publisher read a NAK for {@code from..to}; of it, {@code heldFrom..sentUpTo} is surely held
     * and sent. What it resent within the hold-off is answered already: its sweep may drop it unsent.
     */
    void asked(long from, long to, long heldFrom, long sentUpTo, long nowNs) {
        step++;
        for (long sequence = Math.max(from, heldFrom); sequence <= Math.min(to, sentUpTo); sequence++) {
            if (resentNs.get(sequence) <= nowNs - holdOffNs) {
                waitFor(sequence);
            } else {
                droppable.putIfAbsent(sequence, step);
            }
        }
        queueMayHaveFilled |= runs >= RUNS_JUDGED;
    }

    /**
     * The publisher handed a RETRANSMIT of {@code sequence} to its media.
     *
     * @param heldFrom the first datagram the session surely holds now
     * @return a datagram the sweep passed that it should have resent, or -1
     */
    long resent(long sequence, long heldFrom, long nowNs) {
        if (sequence == lastResent && nowNs == lastResentNs) {
            return -1; // the same datagram on the second line
        }
        step++;
        long passedOver = -1;
        if (!queueMayHaveFilled && nowNs == lastResentNs && sequence > lastResent) {
            for (Map.Entry<Long, Long> waits : waiting.subMap(lastResent, false, sequence, false).entrySet()) {
                final long skipped = waits.getKey();
                if (skipped >= heldFrom && resentNs.get(skipped) <= nowNs - holdOffNs
                    && !behindTheSweep(skipped, waits.getValue(), sequence)) {
                    passedOver = skipped;
                    break;
                }
            }
        }
        if (waiting.remove(sequence) != null) {
            runs -= 1 - neighboursWaiting(sequence);
        }
        droppable.remove(sequence);
        resentNs.put(sequence, nowNs);
        lastResent = sequence;
        lastResentNs = nowNs;
        return passedOver;
    }

    /**
     * Whether datagram {@code skipped}, asked for at step {@code askedStep}, may have been behind the
     * sweep when it was asked: before it, a datagram between it and {@code resent} was asked for that
     * the sweep may have dropped for the hold-off, going on past it with nothing on the wire.
     */
    private boolean behindTheSweep(long skipped, long askedStep, long resent) {
        for (long droppedStep : droppable.subMap(skipped, false, resent, false).values()) {
            if (droppedStep < askedStep) {
                return true;
            }
        }
        return false;
    }

    /** {@code sequence} waits from this step on, unless it waits already: a new run, or joins or grows one. */
    private void waitFor(long sequence) {
        if (waiting.putIfAbsent(sequence, step) == null) {
            runs += 1 - neighboursWaiting(sequence);
        }
    }

    /** How many of the datagrams just below and just above {@code sequence} are waiting. */
    private int neighboursWaiting(long sequence) {
        return (waiting.containsKey(sequence - 1) ? 1 : 0) + (waiting.containsKey(sequence + 1) ? 1 : 0);
    }
}
