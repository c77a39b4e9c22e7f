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
import org.nakcast.transport.protocol.DatagramCheck;
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
 * <p>Reach: a publisher cannot be further ahead than where the stream started plus
 * {@link #REACH_MARGIN}, plus one datagram per {@link #NS_PER_DATAGRAM} since. A DATA, RETRANSMIT,
 * HEARTBEAT or UNRECOVERABLE whose sequence lies beyond that passed the stateless checks but is
 * corrupt or forged: it is counted as malformed ({@link DatagramCheck#OUT_OF_REACH}) and ignored,
 * so that it can neither have the stream NAK for ever for datagrams that will not exist for ages
 * nor give up the stream's present as lost. The last sequence, {@code Long.MAX_VALUE}, is never
 * in reach.
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
    /**
     * How far past the sequence it started at a stream's publisher may already be: the first
     * datagram heard may have waited in the socket buffer while the publisher sent on.
     */
    public static final long REACH_MARGIN = 1 << 20;
    /**
     * The fastest a publisher can send, one datagram per this many nanoseconds: 200 million a
     * second, more than a 100 GbE link carries even of minimum-size frames.
     */
    public static final long NS_PER_DATAGRAM = 5;
    private static final long LAST_REACHABLE = Long.MAX_VALUE - 1;

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
    private final AtomicCounter malformed;
    private final AtomicCounter outOfReach;
    private final AtomicCounter implausibleLoss;
    private final AtomicCounter linesDown;
    private final long maxMessagesPerDatagram;

    private boolean started;
    private boolean holding;
    private long firstHeld = -1;
    private long highestHeld = -1;
    private long sessionStartNs = Long.MAX_VALUE;
    private long startSequence;
    private long startNs;
    private boolean dropped;
    private long lastSequence = Long.MAX_VALUE;
    private long oldestHeld;
    private long lastHeardNs;
    private StatusReporter status;
    private ReceiverPositionCounters positions;
    private LineCounters lineCounters;
    private DeliveryGate gate = DeliveryGate.OPEN;
    private boolean identified;
    private long publisherId;
    private long expected;
    private long highestSeen;
    /** With two lines: which line brought what, and up to where gaps are NAKed; null with one line. */
    private LineArbiter lines;
    private String[] lineNames;
    /** With two lines: the NAK horizon up to which gaps were looked for. */
    private long gapsFoundUpTo = -1;

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
        this.malformed = counters.get(SystemCounter.MALFORMED);
        this.outOfReach = counters.malformed(DatagramCheck.OUT_OF_REACH);
        this.implausibleLoss = counters.malformed(DatagramCheck.IMPLAUSIBLE_LOSS);
        this.linesDown = counters.get(SystemCounter.LINES_DOWN);
        this.maxMessagesPerDatagram =
            (settings.maxDatagramLength() - DataFlyweight.DATA_HEADER_LENGTH) / MessageFrame.FRAME_HEADER_LENGTH + 1;
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
        lastHeardNs = nowNs;
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
        if (outOfReach(sequence, nowNs)) {
            return;
        }
        if (lines != null && !retransmit) {
            lines.onProgress(line, sequence, nowNs);
            countMissedAlone(line, sequence);
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

    /**
     * With two lines: {@code line} brought DATA {@code sequence}; the datagrams it went past without
     * them that this stream already has (delivered or held), the other line brought (or, rarely, a
     * repair): the line missed them alone. Those the stream does not have yet are counted when the
     * other line's first copy comes ({@link LineArbiter#onFirstCopy}), or are a gap both lines missed.
     * Looks at most a reorder window's worth of sequences, once per jump, never per datagram.
     */
    private void countMissedAlone(int line, long sequence) {
        final long skippedFrom = lines.onBrought(line, sequence);
        if (skippedFrom >= sequence) {
            return;
        }
        final long skippedTo = sequence - 1;
        long inHand = Math.max(0, Math.min(skippedTo, expected - 1) - skippedFrom + 1);
        final long lastHeld = Math.min(skippedTo, expected + window.capacity() - 1);
        for (long held = Math.max(skippedFrom, expected); held <= lastHeld; held++) {
            if (window.contains(held)) {
                inHand++;
            }
        }
        lines.onMissedAlone(line, inHand);
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
     * The oldest datagram the publisher still held when it sent a HEARTBEAT. While this stream is
     * behind it, a NAK asks for the first datagram it misses alone below it (the publisher answers
     * that with one UNRECOVERABLE for everything it no longer holds) and for what it misses from there
     * on, so a stream that fell behind the history learns what is gone and gets what is held in one
     * round trip.
     */
    public void onOldestHeld(long oldest) {
        oldestHeld = Math.max(oldestHeld, oldest);
    }

    /**
     * An end-of-stream HEARTBEAT of this stream: its publication was closed and
     * {@code lastSequence} is its last datagram (after {@link #onHeartbeat}, which NAKs any lost
     * tail). Once everything up to it is delivered the stream has {@linkplain #hasEnded() ended}.
     */
    public void onEndOfStream(long lastSequence) {
        this.lastSequence = Math.min(this.lastSequence, lastSequence);
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
     * A HEARTBEAT of this stream, on {@code line} (0, or 1 on a stream arbitrated between two): the
     * publisher has sent up to {@code highestSequence} (-1 for nothing yet). Anything up to it this
     * stream has not seen is a lost tail, NAKed like any gap (with two lines, once both told of it).
     */
    public void onHeartbeat(int line, long highestSequence, long nowNs) {
        lastHeardNs = nowNs;
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
        if (!outOfReach(highestSequence, nowNs)) {
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
        if (outOfReach(toSequence, nowNs) || implausibleLoss(toSequence, firstMessageAfter)) {
            return;
        }
        lastHeardNs = nowNs;
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
            tellLineTransitions(nowNs);
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
        if (lineCounters != null) {
            lineCounters.update(lines);
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
        lineCounters = counters;
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
        if (names.length != 2) {
            throw new IllegalArgumentException("two lines to arbitrate, not " + names.length);
        }
        lines = new LineArbiter(lineTimeoutNs);
        lineNames = names.clone();
    }

    /** With two lines: what the line arbiter knows of them, for counters and tests; null with one. */
    LineArbiter lines() {
        return lines;
    }

    /** Tells each line that went down or came up since the last poll; the horizon may have moved. */
    private void tellLineTransitions(long nowNs) {
        for (int line = lines.pollTransition(); line != LineArbiter.NO_TRANSITION; line = lines.pollTransition()) {
            if (lines.isDown(line)) {
                linesDown.increment();
                listener.onLineDown(new LineDown(topicId, sessionId, lineNames[line], nowNs - lines.downSinceNs(line)));
            } else {
                listener.onLineUp(new LineUp(topicId, sessionId, lineNames[line], nowNs - lines.downSinceNs(line)));
            }
        }
        findGapsBelowHorizon(nowNs);
    }

    /**
     * With two lines: a gap counts as found, and a NAK is scheduled, once the horizon (what both lines,
     * or the one up, told of) passes it. Looks only at what the horizon newly passed.
     */
    private void findGapsBelowHorizon(long nowNs) {
        if (lines == null || !started || dropped) {
            return;
        }
        final long horizon = Math.min(highestSeen, lines.horizon());
        if (horizon <= gapsFoundUpTo) {
            return;
        }
        final long from = Math.max(expected, gapsFoundUpTo + 1);
        gapsFoundUpTo = horizon;
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

    /** When anything of this stream (data, retransmit, heartbeat, unrecoverable) last arrived. */
    public long lastHeardNs() {
        return lastHeardNs;
    }

    /** Whether a heartbeat told this stream its publisher's id. */
    public boolean isIdentified() {
        return identified;
    }

    /** The publisher id its heartbeats carry; meaningful once {@link #isIdentified()}. */
    public long publisherId() {
        return publisherId;
    }

    /** Records the publisher id a heartbeat carried. */
    public void identify(long id) {
        publisherId = id;
        identified = true;
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

    /**
     * Notes when the session began by this receiver's clock, as a heartbeat's age tells it; the
     * earliest estimate is kept (a late heartbeat makes a session look younger than it is).
     */
    public void noteSessionStart(long startNs) {
        sessionStartNs = Math.min(sessionStartNs, startNs);
    }

    /** When the session began by this receiver's clock, or {@code Long.MAX_VALUE} before a heartbeat said. */
    public long sessionStartNs() {
        return sessionStartNs;
    }

    /** The first datagram held while the start was undecided, or -1 if none was. */
    public long firstHeldSequence() {
        return firstHeld;
    }

    /** The index of the next message to deliver, or -1 if the stream has not learned it. */
    public long knownMessageIndex() {
        return delivery.isIndexKnown() ? delivery.nextMessageIndex() : -1;
    }

    /**
     * Moves the time this stream was last heard from on by {@code ns}: the receiver itself stopped for
     * that long, and a publisher must not look silent for what the receiver did not listen to.
     */
    public void creditSilence(long ns) {
        lastHeardNs += ns;
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
        if (lineCounters != null) {
            lineCounters.free();
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
        startSequence = sequence;
        startNs = nowNs;
        expected = sequence;
        highestSeen = sequence - 1;
        listener.onStreamStarted(new StreamStarted(topicId, sessionId, sequence));
    }

    /**
     * Whether an UNRECOVERABLE claims more lost messages than datagrams up to {@code toSequence} can
     * hold (each message takes at least a frame header): counted as malformed, and ignored.
     */
    private boolean implausibleLoss(long toSequence, long firstMessageAfter) {
        if (!started || !delivery.isIndexKnown() || toSequence < expected) {
            return false;
        }
        final long claimed = firstMessageAfter - delivery.nextMessageIndex();
        final long datagrams = toSequence - expected + 1;
        if (claimed <= datagrams * maxMessagesPerDatagram) {
            return false;
        }
        implausibleLoss.increment();
        malformed.increment();
        return true;
    }

    /**
     * Whether {@code sequence} lies beyond the furthest its publisher can have reached by
     * {@code nowNs} (see the class comment); if so it is counted as malformed.
     */
    private boolean outOfReach(long sequence, long nowNs) {
        final long reach = REACH_MARGIN + Math.max(0, nowNs - startNs) / NS_PER_DATAGRAM;
        final long limit = startSequence > LAST_REACHABLE - reach ? LAST_REACHABLE : startSequence + reach;
        if (sequence <= limit) {
            return false;
        }
        outOfReach.increment();
        malformed.increment();
        return true;
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
