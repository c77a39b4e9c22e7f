package org.nakcast.transport.receive;

import java.util.Objects;
import java.util.SplittableRandom;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.nakcast.transport.LineDown;
import org.nakcast.transport.LineUp;
import org.nakcast.transport.LossEvent;
import org.nakcast.transport.StreamEventListener;
import org.nakcast.transport.StreamStarted;
import org.nakcast.transport.media.DatagramSink;
import org.nakcast.transport.protocol.DataFlyweight;
import org.nakcast.transport.protocol.HeartbeatFlyweight;
import org.nakcast.transport.protocol.MessageFrame;
import org.nakcast.transport.protocol.NakFlyweight;
import org.nakcast.transport.status.SystemCounter;
import org.nakcast.transport.status.SystemCounters;

/**
 * The receiving side of one publisher stream (session x topic): puts datagrams back in sequence,
 * delivers each message exactly once and in order, NAKs what is missing, and reports what can
 * never come back. Pure: no I/O, no clock, no threads; the caller hands in datagrams that passed
 * the checks, the time, and polls for due NAKs.
 *
 * <pre>
 *   onData(seq)  seq &lt; expected          duplicate: counted, dropped
 *                seq == expected         delivered, then every held datagram that follows
 *                expected &lt; seq &lt; +cap   held in the reorder window until the gap is repaired
 *                seq &gt;= expected + cap    dropped (window full); asked for again later
 *   a gap found (by data or a heartbeat) -&gt; NAK after a random delay, longer the more receivers
 *                                           listen -&gt; retries, doubling
 *   UNRECOVERABLE -&gt; one LossEvent, then go on after the gap, or drop the stream
 * </pre>
 *
 * <p>Start: its caller decides where a stream starts ({@link #startAt}, {@link #startAtSessionStart},
 * {@link #resumeAt}), and until it has decided ({@link #holdUntilStarted}) the datagrams that arrive
 * are held, neither delivered nor asked for. Left to itself, a stream starts at the first DATA or
 * HEARTBEAT heard ("late join = now"); a RETRANSMIT never starts one (it was meant for others and
 * would start this receiver in the past). Nothing before the start is asked for, and a message
 * begun before it is skipped, not lost.
 *
 * <p>Reach: a DATA, RETRANSMIT, HEARTBEAT or UNRECOVERABLE whose sequence its publisher cannot
 * have reached yet, or an UNRECOVERABLE that claims more lost messages than its datagrams can hold,
 * passed the stateless checks but is corrupt or forged: it is counted as malformed and ignored (see
 * {@link StreamReach}).
 *
 * <p>Its NAKs are its {@link NakEmitter}'s: the stream tells it of gaps found, repairs and
 * deliveries, and which span may be asked for (the missing ranges the reorder window could hold,
 * below the NAK horizon); the emitter decides when to ask, whether to keep quiet, and sends.
 *
 * <p>An UNRECOVERABLE for [from, to] means the publisher's history (a contiguous ring) no longer
 * reaches {@code to}: everything up to {@code to} is gone. The stream gives up [expected, to]
 * (held datagrams in it included) and reports that range; the lost message count is exact
 * because the wire carries the index of the first message after the range. One exception: a
 * stream that started from a HEARTBEAT and lost its very first datagrams for good never learned
 * the message index there, and reports 0 lost messages for that first range (unless the heartbeat
 * said the publisher had sent nothing yet: then the index is 0).
 *
 * <p>The handler and listener run inside these methods. A handler that throws loses the rest of
 * that datagram's messages but never sees a message twice. Wire input never makes these methods
 * throw. Not thread-safe: one receiving thread owns the stream. Allocation-free after
 * construction, except for loss events and the first growth of the reassembly buffer.
 */
public final class InboundStream {
    /** What {@link #nakDeadlineNs()} answers when no NAK is due. */
    public static final long NO_DEADLINE = NakScheduler.NO_DEADLINE;

    private final int topicId;
    private final int sessionId;
    private final int receiverId;
    private final boolean dropOnLoss;
    private final StreamEventListener listener;
    private final DatagramSink nakSink;
    private final ReorderWindow window;
    private final MessageDelivery delivery;
    private final NakEmitter naks;
    private final UnsafeBuffer datagramView = new UnsafeBuffer();
    private final DataFlyweight dataHeader = new DataFlyweight();
    private final AtomicCounter duplicates;
    private final AtomicCounter windowOverflows;
    private final AtomicCounter unrecoverableRanges;
    private final AtomicCounter lostMessages;
    private final AtomicCounter streamsDropped;
    private final AtomicCounter deliveryQueueFull;
    private final AtomicCounter linesDown;
    private final StreamReach reach;
    private final SessionLife life = new SessionLife();

    private boolean started;
    private boolean holding;
    private long firstHeld = -1;
    private long highestHeld = -1;
    private boolean dropped;
    private long lastSequence = Long.MAX_VALUE;
    private long oldestHeld;
    private StatusReporter status;
    private ReceiverPositionCounters positions;
    private DeliveryGate gate = DeliveryGate.OPEN;
    private long expected;
    private long highestSeen;
    /** With two lines: which line brought what, and up to where gaps are NAKed; null with one line. */
    private LineArbiter lines;

    /**
     * @param topicId the topic
     * @param sessionId the publisher session
     * @param receiverId this receiver's id, random per receiver; goes into its NAKs
     * @param settings window, lengths, loss policy, NAK timing
     * @param random the source of the NAK delays, seeded by the caller
     * @param handler gets the messages
     * @param listener gets the stream start and loss events
     * @param nakSink where NAKs go (multicast to the control port); counts datagrams and bytes sent
     * @param nakBuffer where NAKs are built; must hold a NAK with one range
     * @param counters the node's counters
     */
    public InboundStream(
        int topicId,
        int sessionId,
        int receiverId,
        InboundStreamSettings settings,
        SplittableRandom random,
        MessageBytesHandler handler,
        StreamEventListener listener,
        DatagramSink nakSink,
        MutableDirectBuffer nakBuffer,
        SystemCounters counters) {
        this.topicId = topicId;
        this.sessionId = sessionId;
        this.receiverId = receiverId;
        this.dropOnLoss = settings.dropStreamOnLoss();
        this.listener = Objects.requireNonNull(listener, "listener");
        this.nakSink = Objects.requireNonNull(nakSink, "nakSink");
        this.window = new ReorderWindow(settings.reorderWindowCapacity(), settings.maxDatagramLength());
        this.delivery = new MessageDelivery(
            topicId, sessionId, settings.maxMessageLength(), Objects.requireNonNull(handler, "handler"), listener,
            counters);
        this.naks = new NakEmitter(topicId, sessionId, receiverId, settings, Objects.requireNonNull(random, "random"),
            this.nakSink, nakBuffer, counters);
        this.duplicates = counters.get(SystemCounter.DUPLICATES);
        this.windowOverflows = counters.get(SystemCounter.REORDER_WINDOW_OVERFLOWS);
        this.unrecoverableRanges = counters.get(SystemCounter.UNRECOVERABLE_RANGES);
        this.lostMessages = counters.get(SystemCounter.LOST_MESSAGES);
        this.streamsDropped = counters.get(SystemCounter.STREAMS_DROPPED);
        this.deliveryQueueFull = counters.get(SystemCounter.DELIVERY_QUEUE_FULL);
        this.linesDown = counters.get(SystemCounter.LINES_DOWN);
        this.reach = new StreamReach(settings.maxDatagramLength(), counters);
    }

    /**
     * A DATA or RETRANSMIT datagram of this stream that passed the checks.
     *
     * @param line the line it came on: 0, or 1 on a stream {@linkplain #arbitrateLines arbitrated} between two
     * @param buffer holds the datagram; read only during the call
     * @param offset where the datagram starts
     * @param length the datagram's length
     * @param retransmit true for a RETRANSMIT
     * @param nowNs the time
     */
    public void onData(int line, DirectBuffer buffer, int offset, int length, boolean retransmit, long nowNs) {
        life.heard(nowNs);
        if (dropped) {
            return;
        }
        datagramView.wrap(buffer, offset, length);
        dataHeader.wrap(datagramView, 0);
        final long sequence = dataHeader.sequence();
        if (!started) {
            if (holding) {
                hold(sequence, buffer, offset, length);
                return;
            }
            if (retransmit) {
                return;
            }
            start(sequence, nowNs);
        }
        if (reach.beyondReach(sequence, nowNs)) {
            return;
        }
        if (lines != null && !retransmit) {
            lines.onData(line, sequence, window, expected, nowNs);
        }
        if (sequence < expected) {
            duplicate(line, sequence, retransmit, nowNs);
            return;
        }
        final boolean inOrder = sequence == expected;
        final boolean deliverNow = inOrder && gate.canTake(length, delivery.assembledLength(), nowNs);
        if (inOrder && !deliverNow) {
            deliveryQueueFull.increment();
        }
        if (!deliverNow) {
            if (sequence - expected >= window.capacity() || !window.fits(length)) {
                windowOverflows.increment();
                see(sequence, true, nowNs);
                return;
            }
            if (window.contains(sequence)) {
                duplicate(line, sequence, retransmit, nowNs);
                return;
            }
            window.store(sequence, buffer, offset, length);
        }
        if (lines != null && !retransmit) {
            lines.onFirstCopy(line, sequence, nowNs);
        }
        if (sequence <= highestSeen) {
            naks.repaired(sequence, retransmit, nowNs);
        }
        see(sequence, true, nowNs);
        if (deliverNow) {
            expected++;
            delivery.deliver(buffer, offset, length, sequence, dataHeader.completedMessages());
        }
        deliverHeld(nowNs);
        if (retransmit && expected <= highestSeen) {
            naks.deliveredUpTo(expected, nowNs);
        }
        findGapsBelowHorizon(nowNs);
    }

    /** A copy of a datagram this stream already has: counted, and with two lines, the line's lag measured. */
    private void duplicate(int line, long sequence, boolean retransmit, long nowNs) {
        duplicates.increment();
        if (lines != null && !retransmit) {
            lines.onSecondCopy(line, sequence, nowNs);
            findGapsBelowHorizon(nowNs);
        }
    }

    /**
     * Whether the stream's publisher ended it and every datagram up to its last was delivered. A
     * stream the loss policy dropped never ends so (its subscriptions were told it is dropped); it
     * ends when it falls silent.
     */
    public boolean hasEnded() {
        return started && !dropped && expected > lastSequence;
    }

    /**
     * A HEARTBEAT of this stream, on {@code line} (0, or 1 on a stream arbitrated between two), all
     * it tells in one call:
     * <ul>
     *   <li>the publisher has sent up to its sequence (-1 for nothing yet): anything up to it this
     *       stream has not seen is a lost tail, NAKed like any gap (with two lines, once both told);</li>
     *   <li>the oldest datagram the publisher still holds: while this stream is behind it, a NAK asks
     *       for the first datagram it misses below it (answered by one UNRECOVERABLE for everything no
     *       longer held) and for what it misses from there on, so a stream that fell behind the
     *       history learns what is gone and gets what is held in one round trip;</li>
     *   <li>the session's age: when the session began by this receiver's clock;</li>
     *   <li>at its end of stream, the last datagram: once everything up to it is delivered the
     *       stream has {@linkplain #hasEnded() ended}.</li>
     * </ul>
     *
     * @param heartbeat wraps the datagram; read only during the call
     */
    public void onHeartbeat(int line, HeartbeatFlyweight heartbeat, long nowNs) {
        final long highestSequence = heartbeat.sequence();
        life.noteStart(nowNs - heartbeat.sessionAgeNs());
        oldestHeld = Math.max(oldestHeld, heartbeat.oldestSequence());
        if (heartbeat.isEndOfStream()) {
            lastSequence = Math.min(lastSequence, highestSequence);
        }
        life.heard(nowNs);
        if (dropped) {
            return;
        }
        if (!started) {
            if (!holding) {
                start(highestSequence + 1, nowNs);
                if (highestSequence == -1) {
                    delivery.continueAt(0);
                }
            }
            return;
        }
        if (!reach.beyondReach(highestSequence, nowNs)) {
            if (lines != null) {
                lines.onProgress(line, highestSequence, nowNs);
            }
            see(highestSequence, false, nowNs);
            findGapsBelowHorizon(nowNs);
        }
    }

    /**
     * An UNRECOVERABLE for this stream: datagrams [{@code fromSequence}, {@code toSequence}] are gone
     * from the publisher's history, and {@code firstMessageAfter} is the first message to begin
     * after them. The publisher reports everything below its oldest datagram, which may cover
     * datagrams this stream holds: only what is really missing is given up. Each missing run up to
     * {@code toSequence} raises one {@link LossEvent} (counted from the next held datagram's header,
     * or from {@code firstMessageAfter} for the last), and delivery goes on after it, or the stream
     * is dropped, by the topic's loss policy. Ignored when nothing up to {@code toSequence} is
     * missing (a repeat, or an answer to another receiver).
     */
    public void onUnrecoverable(long fromSequence, long toSequence, long firstMessageAfter, long nowNs) {
        if (reach.beyondReach(toSequence, nowNs) || implausibleLoss(toSequence, firstMessageAfter)) {
            return;
        }
        life.heard(nowNs);
        while (started && !dropped && expected <= toSequence) {
            if (window.contains(expected)) {
                deliverHeld(nowNs);
                if (window.contains(expected)) {
                    return;
                }
                continue;
            }
            final long held = firstHeldUpTo(toSequence);
            if (held < 0) {
                giveUp(toSequence, firstMessageAfter, nowNs);
                return;
            }
            giveUp(held - 1, firstMessageIndexHeldAt(held), nowNs);
        }
    }

    /** The first datagram held in the window after {@code expected} and up to {@code last}, or -1. */
    private long firstHeldUpTo(long last) {
        final long end = Math.min(last, expected + window.capacity() - 1);
        for (long sequence = expected + 1; sequence <= end; sequence++) {
            if (window.contains(sequence)) {
                return sequence;
            }
        }
        return -1;
    }

    /** The index of the first message that begins in the held datagram {@code sequence}. */
    private long firstMessageIndexHeldAt(long sequence) {
        final UnsafeBuffer held = window.bufferOf(sequence);
        final int offset = window.offsetOf(sequence);
        dataHeader.wrap(held, offset);
        final int firstFrameFlags = MessageFrame.flags(held, offset + DataFlyweight.DATA_HEADER_LENGTH);
        return dataHeader.completedMessages() + (MessageFrame.isBegin(firstFrameFlags) ? 0 : 1);
    }

    /** Gives up [{@code expected}, {@code lastLost}]: one loss event, then the loss policy. */
    private void giveUp(long lastLost, long firstMessageAfter, long nowNs) {
        final long lostFrom = expected;
        final long firstLost = delivery.isIndexKnown() ? delivery.nextMessageIndex() : -1;
        final long lost = delivery.isIndexKnown() ? Math.max(0, firstMessageAfter - delivery.nextMessageIndex()) : 0;
        unrecoverableRanges.increment();
        lostMessages.getAndAdd(lost);
        expected = lastLost + 1;
        highestSeen = Math.max(highestSeen, lastLost);
        delivery.continueAt(firstMessageAfter);
        naks.skipped();
        if (dropOnLoss) {
            dropped = true;
            streamsDropped.increment();
            naks.cancel();
        }
        listener.onLoss(new LossEvent(topicId, sessionId, lostFrom, lastLost, firstLost, lost,
            LossEvent.Cause.UNRECOVERABLE, dropOnLoss));
        if (!dropped) {
            deliverHeld(nowNs);
        }
    }

    /**
     * A NAK another receiver sent for this stream (the caller filters out this receiver's own). Its
     * sender counts towards the group size the NAK delays widen with. If the NAKs heard within the
     * last retry interval, this one included, together ask for everything this stream would ask
     * for, this stream's NAK waits a retry interval and a random group delay; a NAK that falls due is
     * held against them again, so a NAK heard before this stream found the gap itself silences it
     * too.
     */
    public void onNakHeard(NakFlyweight heard, long nowNs) {
        naks.heardFrom(heard.receiverId(), nowNs);
        if (started && !dropped) {
            naks.heardNak(heard, window, expected, nakSpanEnd(), oldestHeld, nowNs);
        }
    }

    /**
     * A STATUS another receiver sent for this stream (the caller filters out this receiver's own):
     * its sender counts towards the group size the NAK delays widen with.
     */
    public void onStatusHeard(int otherReceiverId, long nowNs) {
        naks.heardFrom(otherReceiverId, nowNs);
    }

    /**
     * Sends a NAK if one is due.
     *
     * @return work done: 1 if a NAK was due, else 0
     */
    public int poll(long nowNs) {
        if (lines != null) {
            lines.poll(nowNs);
            findGapsBelowHorizon(nowNs);
        }
        if (started && !dropped) {
            if (window.contains(expected)) {
                deliverHeld(nowNs);
            }
            armNakForMissingHead(nowNs);
        }
        if (positions != null && started) {
            positions.update(expected, highestSeen);
        }
        final int statusSent = status == null || !started || dropped ? 0 : status.poll(expected, nowNs);
        return statusSent + naks.poll(window, expected, nakSpanEnd(), oldestHeld, nowNs);
    }

    /**
     * Makes delivery wait for {@code deliveryGate}: a datagram the gate refuses waits in the reorder
     * window and is delivered by a later {@link #poll} or datagram once the gate opens.
     */
    public void deliverWhen(DeliveryGate deliveryGate) {
        this.gate = deliveryGate;
    }

    /**
     * Makes this stream report its position to the publisher with STATUS datagrams, for flow
     * control {@code min}.
     *
     * @param keepAliveNs the longest time between two STATUS
     */
    public void reportStatus(long keepAliveNs) {
        status = new StatusReporter(sessionId, topicId, receiverId, nakSink, keepAliveNs);
    }

    /**
     * Makes this stream publish its position and lag in the node's counters file on every poll;
     * {@link #close()} gives the counters back.
     */
    void reportPositions(ReceiverPositionCounters counters) {
        positions = counters;
    }

    /**
     * Makes this stream, {@linkplain #arbitrateLines arbitrated} between two lines, publish each line's
     * tallies in the node's counters file on every poll; {@link #close()} gives the counters back.
     */
    void reportLines(LineCounters counters) {
        if (lines == null) {
            throw new IllegalStateException("a stream on one line has no line counters");
        }
        lines.publishTo(counters);
    }

    /**
     * Makes this stream one heard on two lines: it takes the first copy of each datagram from either,
     * and NAKs a gap only once both lines went past it without it, or the one line up did (see
     * {@link LineArbiter}); a line that brings nothing new while the other, ahead, goes on talking for
     * {@code lineTimeoutNs} is down ({@link LineDown}), until it brings the stream again ({@link LineUp}).
     *
     * @param names the two lines' names, for the events
     */
    public void arbitrateLines(String[] names, long lineTimeoutNs) {
        lines = new LineArbiter(topicId, sessionId, names, lineTimeoutNs, listener, linesDown);
    }

    /** With two lines: what the line arbiter knows of them, for counters and tests; null with one. */
    LineArbiter lines() {
        return lines;
    }

    /**
     * With two lines: a gap counts as found, and a NAK is scheduled, once the horizon (what both lines,
     * or the one up, told of) passes it. Looks only at what the horizon newly passed.
     */
    private void findGapsBelowHorizon(long nowNs) {
        if (lines == null || !started || dropped) {
            return;
        }
        final long from = lines.newlyBelowHorizon(highestSeen, expected);
        final long horizon = lines.gapsFoundUpTo();
        if (from <= horizon && naks.anyMissing(window, from, horizon, oldestHeld)) {
            lines.onGapBothMissed();
            naks.gapFound(nowNs);
        }
    }

    /** Up to where gaps are NAKed: what the stream has seen, and with two lines what both told of. */
    private long nakHorizon() {
        return lines == null ? highestSeen : Math.min(highestSeen, lines.horizon());
    }

    /**
     * Keeps one promise: while the next datagram to deliver is known to exist but is neither in
     * hand nor asked for, a NAK is scheduled. A datagram dropped because the window was full (the
     * consumer was slow, or the gap ahead of it long) is not a new gap when it arrives, and must
     * still be asked for once the window has moved, even if nothing else arrives.
     */
    private void armNakForMissingHead(long nowNs) {
        if (expected <= nakHorizon() && !window.contains(expected)) {
            naks.armIfIdle(nowNs);
        }
    }

    /** The topic this stream belongs to. */
    public int topicId() {
        return topicId;
    }

    /** The publisher session this stream carries. */
    public int sessionId() {
        return sessionId;
    }

    /** What is known of its session: its publisher, when it began, when it was last heard. */
    SessionLife life() {
        return life;
    }

    /**
     * Holds what arrives until the caller decides where the stream starts: datagrams are kept (as far
     * as the reorder window reaches from the first one), nothing is delivered or asked for.
     */
    public void holdUntilStarted() {
        if (!started) {
            holding = true;
        }
    }

    /**
     * Starts a stream not started yet at {@code sequence}, before anything of it is delivered: where a
     * late joiner starts. Datagrams held from {@code sequence} on are delivered, and what is missing
     * between them is asked for.
     */
    public void startAt(long sequence, long nowNs) {
        if (started) {
            return;
        }
        start(sequence, nowNs);
        if (holding) {
            holding = false;
            if (highestHeld >= sequence) {
                see(highestHeld, window.contains(highestHeld), nowNs);
            }
            deliverHeld(nowNs);
        }
    }

    /** Starts a stream not started yet at its session's first datagram and first message: nothing is skipped. */
    public void startAtSessionStart(long nowNs) {
        if (!started) {
            delivery.continueAt(0);
            startAt(0, nowNs);
        }
    }

    /**
     * Starts a stream not started yet where an earlier stream of the same session left off: a session
     * heard again after it was given up as silent goes on with nothing delivered twice or skipped.
     *
     * @param sequence the earlier stream's {@link #resumeSequence()}
     * @param messageIndex the index of the next message to deliver; negative if it was never learned
     */
    public void resumeAt(long sequence, long messageIndex, long nowNs) {
        if (!started) {
            if (messageIndex >= 0) {
                delivery.resumeBelow(messageIndex);
            }
            startAt(sequence, nowNs);
        }
    }

    /**
     * Where a stream of this session should resume if this one ends now: the datagram where the
     * message being joined began, or the next datagram to deliver.
     */
    public long resumeSequence() {
        return delivery.resumeSequence(expected);
    }

    /** The first datagram held while the start was undecided, or -1 if none was. */
    public long firstHeldSequence() {
        return firstHeld;
    }

    /** The index of the next message to deliver, or -1 if the stream has not learned it. */
    public long knownMessageIndex() {
        return delivery.isIndexKnown() ? delivery.nextMessageIndex() : -1;
    }

    /** Keeps a datagram of a stream whose start is not decided yet. */
    private void hold(long sequence, DirectBuffer buffer, int offset, int length) {
        if (firstHeld < 0) {
            firstHeld = sequence;
        }
        if (sequence >= firstHeld && sequence - firstHeld < window.capacity() && window.fits(length)
            && !window.contains(sequence)) {
            window.store(sequence, buffer, offset, length);
            highestHeld = Math.max(highestHeld, sequence);
        }
    }

    /**
     * Frees the reorder window's off-heap memory and the stream's counters; called by the receiving
     * thread when the stream goes.
     */
    public void close() {
        window.free();
        if (positions != null) {
            positions.free();
        }
        if (lines != null) {
            lines.close();
        }
    }

    /** Whether the first DATA or HEARTBEAT has been heard. */
    public boolean isStarted() {
        return started;
    }

    /** Whether the loss policy dropped this stream: it ignores everything now. */
    public boolean isDropped() {
        return dropped;
    }

    /** The sequence of the next datagram to deliver. */
    public long expectedSequence() {
        return expected;
    }

    /** The highest sequence known to exist (seen, or announced by a heartbeat). */
    public long highestSequenceSeen() {
        return highestSeen;
    }

    /** The index of the next message to deliver (or of the one being reassembled). */
    public long nextMessageIndex() {
        return delivery.nextMessageIndex();
    }

    /** When the next NAK is due, or {@link #NO_DEADLINE}. */
    public long nakDeadlineNs() {
        return naks.deadlineNs();
    }

    /** The current estimate of the repair time, which the NAK delays follow. */
    public long repairEstimateNs() {
        return naks.repairEstimateNs();
    }

    /** How many receivers listen to this stream, as far as it can tell; see {@link GroupSizeEstimator}. */
    int groupSizeEstimate(long nowNs) {
        return naks.groupSizeEstimate(nowNs);
    }

    /** The off-heap bytes the reorder window has taken so far. */
    long reorderWindowBytes() {
        return window.allocatedBytes();
    }

    /** The reassembly buffer's current size in bytes. */
    public int reassemblyCapacity() {
        return delivery.reassemblyCapacity();
    }

    private void start(long sequence, long nowNs) {
        started = true;
        reach.startedAt(sequence, nowNs);
        expected = sequence;
        highestSeen = sequence - 1;
        listener.onStreamStarted(new StreamStarted(topicId, sessionId, sequence));
    }

    /** Whether an UNRECOVERABLE up to {@code toSequence} claims more lost messages than it can take. */
    private boolean implausibleLoss(long toSequence, long firstMessageAfter) {
        return started && delivery.isIndexKnown() && toSequence >= expected
            && reach.implausibleLoss(firstMessageAfter - delivery.nextMessageIndex(), toSequence - expected + 1);
    }

    /**
     * Notes that {@code sequence} exists: with its datagram in hand, or without it (a heartbeat).
     * Anything newly known to exist but not in hand is a new gap.
     */
    private void see(long sequence, boolean inHand, long nowNs) {
        if (sequence <= highestSeen) {
            return;
        }
        final boolean newGap = sequence > highestSeen + 1 || !inHand;
        highestSeen = sequence;
        if (newGap && lines == null) {
            naks.gapFound(nowNs);
        }
    }

    /** Delivers every held datagram from {@code expected} on, then stops the NAKs if nothing is missing. */
    private void deliverHeld(long nowNs) {
        while (window.contains(expected)
            && gate.canTake(window.lengthOf(expected), delivery.assembledLength(), nowNs)) {
            final long sequence = expected++;
            final UnsafeBuffer held = window.bufferOf(sequence);
            final int offset = window.offsetOf(sequence);
            final int length = window.lengthOf(sequence);
            dataHeader.wrap(held, offset);
            delivery.deliver(held, offset, length, sequence, dataHeader.completedMessages());
        }
        if (expected > highestSeen) {
            naks.cancel();
        }
    }

    /** The last datagram a NAK may ask for: below the NAK horizon, within the reorder window's reach. */
    private long nakSpanEnd() {
        return Math.min(nakHorizon(), expected + window.capacity() - 1);
    }
}
