package org.nakcast.transport.receive;

import java.util.SplittableRandom;

import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.nakcast.transport.media.DatagramSink;
import org.nakcast.transport.protocol.FrameType;
import org.nakcast.transport.protocol.NakFlyweight;
import org.nakcast.transport.status.SystemCounter;
import org.nakcast.transport.status.SystemCounters;

/**
 * One stream's NAKs: what to ask for, when, whether to keep quiet, and the sending. The stream says
 * what happened (a datagram arrived, a heartbeat told how far the publisher got and what it still
 * holds, messages were delivered or given up); this decides the rest, reading what its
 * {@link Resequencer} holds.
 *
 * <pre>
 *   oldest held      next to deliver          NAK horizon        highest seen
 *        |                |                        |                  |
 *   .....[ not asked for  ][ span: asked for if missing, up to the   ][ with two lines: waits
 *                          [ window's reach and the horizon          ][ for the line behind
 * </pre>
 *
 * <ul>
 *   <li>What: the missing ranges of the span ({@link MissingRanges}), lowest first, as many as one
 *       NAK datagram holds. The span runs from the next datagram to deliver up to the NAK horizon
 *       (the highest sequence known to exist; with two lines, what both told of, see
 *       {@link LineArbiter}) within the reorder window's reach; nothing below the oldest datagram
 *       the publisher holds is asked for but the first (answered by one UNRECOVERABLE).</li>
 *   <li>When: after a random delay that widens with the receivers heard ({@link NakScheduler},
 *       {@link GroupSizeEstimator}), again after the retry interval while anything is missing.</li>
 *   <li>Keeping quiet: when the NAKs heard from other receivers within the last retry interval
 *       together ask for everything this one would ({@link HeardNaks}), it waits another retry
 *       interval and a random group delay; a NAK that falls due is held against them again, so a
 *       NAK heard before the gap was found here silences it too.</li>
 * </ul>
 *
 * <p>Counts {@code NAKs sent}, {@code NAKs suppressed} and {@code gaps detected}; the sink counts
 * datagrams and bytes sent. Allocation-free. One receiving thread uses it.
 */
final class NakEmitter {
    private final int topicId;
    private final int sessionId;
    private final int receiverId;
    private final DatagramSink nakSink;
    private final NakScheduler schedule;
    private final MissingRanges missing;
    private final HeardNaks heard = new HeardNaks();
    private final GroupSizeEstimator group = new GroupSizeEstimator();
    private final NakFlyweight nak = new NakFlyweight();
    private final AtomicCounter naksSent;
    private final AtomicCounter naksSuppressed;
    private final AtomicCounter gaps;
    private final Resequencer sequencer;
    private final ReorderWindow window;
    /** With two lines: up to where gaps are NAKed; null with one line. */
    private LineArbiter lines;
    private long highestSeen;
    private long oldestHeld;
    /** The publisher was heard to hold nothing up to here, and the stream deals with it without asking again. */
    private long goneUpTo = -1;

    /**
     * @param settings the NAK timing and the largest datagram, which bounds a NAK's length
     * @param random the source of the NAK delays, seeded by the caller
     * @param nakSink where NAKs go (multicast to the control port)
     * @param nakBuffer where NAKs are built; must hold a NAK with one range
     * @param sequencer what the stream holds and delivers next
     * @throws IllegalArgumentException if {@code nakBuffer} cannot hold a NAK of one range
     */
    NakEmitter(int topicId, int sessionId, int receiverId, InboundStreamSettings settings, SplittableRandom random,
        DatagramSink nakSink, MutableDirectBuffer nakBuffer, Resequencer sequencer, SystemCounters counters) {
        final int nakLength = Math.min(nakBuffer.capacity(), settings.maxDatagramLength());
        if (NakFlyweight.maxRanges(nakLength) < 1) {
            throw new IllegalArgumentException("nakBuffer too small for one NAK range: " + nakBuffer.capacity());
        }
        this.topicId = topicId;
        this.sessionId = sessionId;
        this.receiverId = receiverId;
        this.nakSink = nakSink;
        this.schedule = new NakScheduler(settings.nakTiming(), random);
        this.missing = new MissingRanges(NakFlyweight.maxRanges(nakLength));
        this.nak.wrap(nakBuffer, 0);
        this.naksSent = counters.get(SystemCounter.NAKS_SENT);
        this.naksSuppressed = counters.get(SystemCounter.NAKS_SUPPRESSED);
        this.gaps = counters.get(SystemCounter.GAPS);
        this.sequencer = sequencer;
        this.window = sequencer.window();
    }

    /** Makes the stream's gaps wait for both lines, or the one up, to go past them (see {@link LineArbiter}). */
    void arbitratedBy(LineArbiter arbiter) {
        lines = arbiter;
    }

    /** The stream starts at {@code sequence}: nothing before it is asked for. */
    void startAt(long sequence) {
        highestSeen = sequence - 1;
    }

    /** The highest sequence known to exist (seen, or told of by a heartbeat). */
    long highestSeen() {
        return highestSeen;
    }

    /** A heartbeat told the oldest datagram its publisher still holds. */
    void oldestHeld(long oldest) {
        oldestHeld = Math.max(oldestHeld, oldest);
    }

    /**
     * The publisher said it holds nothing up to {@code sequence}, and the stream will give up or
     * recover what it misses there without the publisher once delivery reaches it (the recovery
     * under way ends, or its delivery queue takes the held datagram before it): until then
     * ({@link #forgetGone}) no NAK asks for any of it again, so a stream that recovers from a
     * recorder, or waits for a slow poller, does not keep the publisher answering the same gone
     * datagrams, and retransmitting its oldest, at every retry.
     */
    void goneUpTo(long sequence) {
        goneUpTo = Math.max(goneUpTo, sequence);
    }

    /**
     * Delivery reached what the stream waited to give up: NAKs ask again for whatever it still misses
     * (one is scheduled if none is).
     */
    void forgetGone(long nowNs) {
        if (goneUpTo < 0) {
            return;
        }
        goneUpTo = -1;
        if (schedule.deadlineNs() == NakScheduler.NO_DEADLINE
            && missing.collect(window, sequencer.next(), spanEnd(), oldestHeld) > 0) {
            schedule.onGapFound(nowNs, group.estimate(nowNs));
        }
    }

    /** The first datagram a NAK may ask for: the next to deliver, unless it is known to be gone. */
    private long spanStart() {
        return Math.max(sequencer.next(), goneUpTo + 1);
    }

    /**
     * Notes that {@code sequence} exists: with its datagram in hand (DATA, or RETRANSMIT), or without
     * it (a heartbeat's highest). Anything newly known to exist but not in hand is a new gap.
     */
    void seen(long sequence, boolean inHand, long nowNs) {
        if (sequence <= highestSeen) {
            return;
        }
        final boolean newGap = sequence > highestSeen + 1 || !inHand;
        highestSeen = sequence;
        if (newGap && lines == null) {
            gapFound(nowNs);
        }
    }

    /** The first copy of datagram {@code sequence} arrived: a repair if it was known to exist. */
    void arrived(long sequence, boolean retransmit, long nowNs) {
        if (sequence <= highestSeen) {
            schedule.onRepaired(sequence, retransmit, nowNs);
        }
        seen(sequence, true, nowNs);
    }

    /**
     * The stream delivered what it could; {@code byRepair} if a RETRANSMIT let it. With nothing known
     * to be missing no NAK is due; after a repair with more missing, the next NAK is timed anew.
     */
    void delivered(boolean byRepair, long nowNs) {
        final long next = sequencer.next();
        if (next > highestSeen) {
            schedule.cancel();
        } else if (byRepair) {
            schedule.onDeliveredUpTo(next, nowNs, group.estimate(nowNs));
        }
    }

    /**
     * With two lines: a gap counts as found, and a NAK is scheduled, once the horizon (what both lines,
     * or the one up, told of) passes it. Looks only at what the horizon newly passed.
     */
    void findGapsBelowHorizon(long nowNs) {
        if (lines == null) {
            return;
        }
        final long from = Math.max(lines.newlyBelowHorizon(highestSeen, sequencer.next()), goneUpTo + 1);
        final long horizon = lines.gapsFoundUpTo();
        if (from <= horizon && missing.collect(window, from, horizon, oldestHeld) > 0) {
            lines.onGapBothMissed();
            gapFound(nowNs);
        }
    }

    /**
     * Keeps one promise: while the next datagram to deliver is known to exist but is neither in
     * hand nor asked for, a NAK is scheduled. A datagram dropped because the window was full (the
     * consumer was slow, or the gap ahead of it long) is not a new gap when it arrives, and must
     * still be asked for once the window has moved, even if nothing else arrives.
     */
    void armForMissingHead(long nowNs) {
        final long next = spanStart();
        if (next <= horizon() && !window.contains(next) && schedule.deadlineNs() == NakScheduler.NO_DEADLINE) {
            schedule.onGapFound(nowNs, group.estimate(nowNs));
        }
    }

    /** Up to where gaps are NAKed: what the stream has seen, and with two lines what both told of. */
    private long horizon() {
        return lines == null ? highestSeen : Math.min(highestSeen, lines.horizon());
    }

    /** The last datagram a NAK may ask for: below the NAK horizon, within the reorder window's reach. */
    private long spanEnd() {
        return Math.min(horizon(), sequencer.next() + window.capacity() - 1);
    }

    /** A new gap was found: counted, and a NAK scheduled after the random delay. */
    void gapFound(long nowNs) {
        gaps.increment();
        schedule.onGapFound(nowNs, group.estimate(nowNs));
    }

    /** The stream gave up what it was asking for, up to {@code lastLost}. */
    void skipped(long lastLost) {
        highestSeen = Math.max(highestSeen, lastLost);
        schedule.onSkipped();
    }

    /** Nothing is missing any more, or the stream asks for nothing again: no NAK is due. */
    void cancel() {
        schedule.cancel();
    }

    /** Another receiver was heard (its NAK or STATUS): the group the delays widen with. */
    void heardFrom(int otherReceiverId, long nowNs) {
        group.onHeard(otherReceiverId, nowNs);
    }

    /**
     * Another receiver's NAK for this stream: kept, and if the NAKs heard lately cover what is
     * missing in the span, this stream's own NAK waits.
     */
    void heardNak(NakFlyweight nakHeard, long nowNs) {
        heard.add(nakHeard, nowNs);
        if (missing.collect(window, spanStart(), spanEnd(), oldestHeld) > 0
            && heard.cover(missing, nowNs - schedule.retryIntervalNs())) {
            suppress(nowNs);
        }
    }

    /**
     * Sends a NAK for what is missing in the span, if one is due and others have not asked for all
     * of it lately.
     *
     * @return work done: 1 if a NAK was due (sent, refused, or kept back), else 0
     */
    int poll(long nowNs) {
        if (!schedule.isDue(nowNs)) {
            return 0;
        }
        final int ranges = missing.collect(window, spanStart(), spanEnd(), oldestHeld);
        if (ranges == 0) {
            schedule.cancel();
            return 0;
        }
        if (heard.cover(missing, nowNs - schedule.retryIntervalNs())) {
            suppress(nowNs);
            return 1;
        }
        final int length = NakFlyweight.lengthFor(ranges);
        nak.writeHeader(FrameType.NAK, length, sessionId, topicId, 0);
        nak.receiverId(receiverId).rangeCount(ranges);
        for (int i = 0; i < ranges; i++) {
            nak.range(i, missing.from(i), missing.to(i));
        }
        if (nakSink.send(nak.buffer(), 0, length)) {
            naksSent.increment();
            schedule.onNakSent(missing.highest(), nowNs);
        } else {
            schedule.onSendFailed(nowNs);
        }
        return 1;
    }

    private void suppress(long nowNs) {
        schedule.onSuppressed(missing.highest(), nowNs, group.estimate(nowNs));
        naksSuppressed.increment();
    }

    /** When the next NAK is due, or {@link NakScheduler#NO_DEADLINE}. */
    long deadlineNs() {
        return schedule.deadlineNs();
    }

    /** The current estimate of the repair time, which the NAK delays follow. */
    long repairEstimateNs() {
        return schedule.repairEstimateNs();
    }

    /** How many receivers listen to this stream, as far as it can tell. */
    int groupSizeEstimate(long nowNs) {
        return group.estimate(nowNs);
    }
}
