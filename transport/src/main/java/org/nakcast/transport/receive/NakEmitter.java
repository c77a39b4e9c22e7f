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
 * what happened (a gap found, a repair arrived, messages delivered or given up) and which span of
 * its reorder window may be asked for; this decides the rest.
 *
 * <ul>
 *   <li>What: the missing ranges of the span ({@link MissingRanges}), lowest first, as many as one
 *       NAK datagram holds.</li>
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

    /**
     * @param settings the NAK timing and the largest datagram, which bounds a NAK's length
     * @param random the source of the NAK delays, seeded by the caller
     * @param nakSink where NAKs go (multicast to the control port)
     * @param nakBuffer where NAKs are built; must hold a NAK with one range
     * @throws IllegalArgumentException if {@code nakBuffer} cannot hold a NAK of one range
     */
    NakEmitter(int topicId, int sessionId, int receiverId, InboundStreamSettings settings, SplittableRandom random,
        DatagramSink nakSink, MutableDirectBuffer nakBuffer, SystemCounters counters) {
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
    }

    /** A new gap was found: counted, and a NAK scheduled after the random delay. */
    void gapFound(long nowNs) {
        gaps.increment();
        schedule.onGapFound(nowNs, group.estimate(nowNs));
    }

    /** A datagram known to be missing must be asked for: a NAK is scheduled if none is. */
    void armIfIdle(long nowNs) {
        if (schedule.deadlineNs() == NakScheduler.NO_DEADLINE) {
            schedule.onGapFound(nowNs, group.estimate(nowNs));
        }
    }

    /** A datagram at or below the highest seen arrived: a repair (or a late original), timed for the estimate. */
    void repaired(long sequence, boolean retransmit, long nowNs) {
        schedule.onRepaired(sequence, retransmit, nowNs);
    }

    /** A repair let the stream deliver up to {@code expected}, with more still missing after it. */
    void deliveredUpTo(long expected, long nowNs) {
        schedule.onDeliveredUpTo(expected, nowNs, group.estimate(nowNs));
    }

    /** The stream gave up what it was asking for. */
    void skipped() {
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
     * missing in [{@code from}, {@code to}] of {@code window}, this stream's own NAK waits.
     *
     * @param oldestHeld the oldest datagram the publisher still holds; nothing below it is asked for
     */
    void heardNak(NakFlyweight nakHeard, ReorderWindow window, long from, long to, long oldestHeld, long nowNs) {
        heard.add(nakHeard, nowNs);
        if (missing.collect(window, from, to, oldestHeld) > 0
            && heard.cover(missing, nowNs - schedule.retryIntervalNs())) {
            suppress(nowNs);
        }
    }

    /** Whether anything in [{@code from}, {@code to}] of {@code window} is missing: a gap. */
    boolean anyMissing(ReorderWindow window, long from, long to, long oldestHeld) {
        return missing.collect(window, from, to, oldestHeld) > 0;
    }

    /**
     * Sends a NAK for what is missing in [{@code from}, {@code to}] of {@code window}, if one is due
     * and others have not asked for all of it lately.
     *
     * @return work done: 1 if a NAK was due (sent, refused, or kept back), else 0
     */
    int poll(ReorderWindow window, long from, long to, long oldestHeld, long nowNs) {
        if (!schedule.isDue(nowNs)) {
            return 0;
        }
        final int ranges = missing.collect(window, from, to, oldestHeld);
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
