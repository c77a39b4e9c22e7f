package org.nakcast.transport.receive;

import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.nakcast.transport.LineDown;
import org.nakcast.transport.LineUp;
import org.nakcast.transport.LossEvent;
import org.nakcast.transport.StreamEventListener;
import org.nakcast.transport.StreamStarted;
import org.nakcast.transport.media.DatagramSink;
import org.nakcast.transport.protocol.DataFlyweight;
import org.nakcast.transport.protocol.HeaderFlyweight;
import org.nakcast.transport.protocol.HeartbeatFlyweight;
import org.nakcast.transport.protocol.NakFlyweight;
import org.nakcast.transport.replay.RecoverySource;
import org.nakcast.transport.status.SystemCounter;
import org.nakcast.transport.status.SystemCounters;

/**
 * The receiving side of one publisher stream (session x topic): puts datagrams back in sequence,
 * delivers each message exactly once and in order, NAKs what is missing, and reports what can
 * never come back. Pure: no I/O, no clock, no threads; the caller hands in datagrams that passed
 * the checks, the time, and polls for due NAKs.
 *
 * <pre>
 *   onData, onHeartbeat, onUnrecoverable, onNakHeard, poll
 *     |
 *     +-- StreamReach        can the datagram be true? (reach, plausible loss)
 *     +-- LineArbiter        with two lines: which line brought what, the NAK horizon, lines down
 *     +-- Resequencer        in order: deliver, hold ahead of a gap, hold until the start is decided
 *     +-- NakEmitter         what is missing below the horizon: when to ask, keeping quiet, sending
 *     +-- UnrecoverableLoss  what the publisher no longer holds: loss events, the loss policy
 *     |     +-- MessageRecovery   or, with recorders, fetched from them while the live stream waits
 *     +-- SessionLife        who publishes the session, when it began, when it was last heard
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
 * have reached yet, an UNRECOVERABLE that claims more lost messages than its datagrams can hold or
 * (once started) reaches past the highest datagram seen, or an end of stream below it, passed the
 * stateless checks but is corrupt or forged: it is counted as malformed and ignored (see
 * {@link StreamReach}).
 *
 * <p>Its NAKs are its {@link NakEmitter}'s: the stream tells it what arrived, what a heartbeat told
 * and what was delivered or given up; the emitter decides what to ask for, when, whether to keep
 * quiet, and sends.
 *
 * <p>What the publisher no longer holds is given up by {@link UnrecoverableLoss}: a loss event with
 * the exact count for each missing run, then the topic's loss policy. A stream told to
 * {@linkplain #recoverFrom recover from recorders} fetches each such run's messages from them
 * instead, holding the live datagrams meanwhile (its STATUS reports the live edge it holds, so a
 * recovering receiver does not hold a {@code min} publisher back), and gives up only what no
 * recorder holds.
 *
 * <p>The handler and listener run inside these methods. A handler that throws loses the rest of
 * that datagram's messages but never sees a message twice. Wire input never makes these methods
 * throw. Not thread-safe: one receiving thread owns the stream. Allocation-free after
 * construction, except for loss events and the first growth of the reassembly buffer.
 */
public final class InboundStream {
    private final int topicId;
    private final int sessionId;
    private final int receiverId;
    private final StreamEventListener listener;
    private final DatagramSink nakSink;
    private final MessageDelivery delivery;
    private final Resequencer sequencer;
    private final ReorderWindow window;
    private final NakEmitter naks;
    private final AtomicCounter duplicates;
    private final UnrecoverableLoss losses;
    private final AtomicCounter linesDown;
    private final StreamReach reach;
    private final SystemCounters counters;
    private SessionLife life = new SessionLife();

    private boolean started;
    private long lastSequence = Long.MAX_VALUE;
    private StatusReporter status;
    private ReceiverPositionCounters positions;
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
        this.listener = Objects.requireNonNull(listener, "listener");
        this.nakSink = Objects.requireNonNull(nakSink, "nakSink");
        this.delivery = new MessageDelivery(
            topicId, sessionId, settings.maxMessageLength(), Objects.requireNonNull(handler, "handler"), listener,
            counters);
        this.sequencer = new Resequencer(
            settings.reorderWindowCapacity(), settings.maxDatagramLength(), delivery, counters);
        this.window = sequencer.window();
        this.naks = new NakEmitter(topicId, sessionId, receiverId, settings, Objects.requireNonNull(random, "random"),
            this.nakSink, nakBuffer, sequencer, counters);
        this.duplicates = counters.get(SystemCounter.DUPLICATES);
        this.losses = new UnrecoverableLoss(
            topicId, sessionId, settings.dropStreamOnLoss(), sequencer, delivery, naks, listener,
            nowNs -> deliverHeld(false, nowNs), counters);
        this.linesDown = counters.get(SystemCounter.LINES_DOWN);
        this.reach = new StreamReach(settings.maxDatagramLength(), counters);
        this.counters = counters;
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
        if (isDropped()) {
            return;
        }
        final long sequence = HeaderFlyweight.sequenceAt(buffer, offset);
        if (!started) {
            if (sequencer.isHolding()) {
                sequencer.hold(sequence, buffer, offset, length);
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
            lines.onData(line, sequence, window, expectedSequence(), nowNs);
        }
        final Resequencer.Taken taken = sequence < expectedSequence()
            ? Resequencer.Taken.DUPLICATE : sequencer.take(sequence, buffer, offset, length, nowNs);
        if (taken == Resequencer.Taken.DUPLICATE) {
            duplicate(line, sequence, retransmit, nowNs);
            return;
        }
        if (taken == Resequencer.Taken.OVERFLOW) {
            naks.seen(sequence, true, nowNs);
            return;
        }
        if (lines != null && !retransmit) {
            lines.onFirstCopy(line, sequence, nowNs);
        }
        if (status != null && DataFlyweight.statusWantedAt(buffer, offset)) {
            status.wantedPast(sequence);
        }
        naks.arrived(sequence, retransmit, nowNs);
        deliverHeld(retransmit, nowNs);
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
        return started && !isDropped() && !losses.isRecovering() && expectedSequence() > lastSequence;
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
     *       stream has {@linkplain #hasEnded() ended}. An end of stream below a datagram this
     *       started stream has seen is ignored whole, and counted: its publisher cannot have sent
     *       it.</li>
     * </ul>
     *
     * @param heartbeat wraps the datagram; read only during the call
     */
    public void onHeartbeat(int line, HeartbeatFlyweight heartbeat, long nowNs) {
        final long highestSequence = heartbeat.sequence();
        if (heartbeat.isEndOfStream() && started && reach.endBelowSeen(highestSequence, naks.highestSeen())) {
            return;
        }
        life.noteStart(nowNs - heartbeat.sessionAgeNs());
        naks.oldestHeld(heartbeat.oldestSequence());
        if (heartbeat.isEndOfStream()) {
            lastSequence = Math.min(lastSequence, highestSequence);
        }
        life.heard(nowNs);
        if (isDropped()) {
            return;
        }
        if (!started) {
            if (!sequencer.isHolding()) {
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
            naks.seen(highestSequence, false, nowNs);
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
     * missing (a repeat, or an answer to another receiver), and ignored and counted when it reaches
     * past the highest datagram this stream has seen: it would give up the stream's future.
     */
    public void onUnrecoverable(long fromSequence, long toSequence, long firstMessageAfter, long nowNs) {
        if (reach.beyondReach(toSequence, nowNs) || implausibleLoss(toSequence, firstMessageAfter)
            || started && reach.goneBeyondSeen(toSequence, naks.highestSeen())) {
            return;
        }
        life.heard(nowNs);
        if (started) {
            losses.upTo(toSequence, firstMessageAfter, nowNs);
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
        if (started && !isDropped()) {
            naks.heardNak(heard, nowNs);
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
        final int recovered = losses.pollRecovery(nowNs);
        if (lines != null) {
            lines.poll(nowNs);
            findGapsBelowHorizon(nowNs);
        }
        if (started && !isDropped()) {
            if (window.contains(expectedSequence())) {
                deliverHeld(false, nowNs);
            }
            losses.afterDelivery(nowNs);
            naks.armForMissingHead(nowNs);
        }
        if (positions != null && started) {
            positions.update(expectedSequence(), naks.highestSeen());
        }
        final int statusSent = status == null || !started || isDropped() ? 0
            : status.poll(losses.isRecovering() ? sequencer.firstMissing() : expectedSequence(), nowNs);
        return recovered + statusSent + naks.poll(nowNs);
    }

    /**
     * Makes delivery wait for {@code deliveryGate}: a datagram the gate refuses waits in the reorder
     * window and is delivered by a later {@link #poll} or datagram once the gate opens.
     */
    public void deliverWhen(DeliveryGate deliveryGate) {
        sequencer.deliverWhen(deliveryGate);
    }

    /**
     * Makes this stream fetch the messages its publisher no longer holds from {@code recorders} (A,
     * then B) instead of giving them up.
     *
     * @param patienceNs how long a recovery may bring no message before what is left is given up
     */
    public void recoverFrom(List<RecoverySource> recorders, long patienceNs) {
        losses.recoverFrom(new MessageRecovery(topicId, sessionId, recorders, patienceNs, this::sessionLastHeardNs,
            delivery, sequencer, losses, counters));
    }

    /**
     * When anything of the session was last heard, by the life the stream has now: one that resumes
     * takes over the life of the stream before it, and its recovery must see that one.
     */
    private long sessionLastHeardNs() {
        return life.lastHeardNs();
    }

    /** Whether it is fetching messages from a recorder, the live datagrams held meanwhile. */
    public boolean isRecovering() {
        return losses.isRecovering();
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
        naks.arbitratedBy(lines);
    }

    /** With two lines: what the line arbiter knows of them, for counters and tests; null with one. */
    LineArbiter lines() {
        return lines;
    }

    /** With two lines: NAKs the gaps the horizon newly passed; not before the start, nor once dropped. */
    private void findGapsBelowHorizon(long nowNs) {
        if (started && !isDropped()) {
            naks.findGapsBelowHorizon(nowNs);
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
            sequencer.holdUntilStarted();
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
        if (sequencer.isHolding()) {
            sequencer.stopHolding();
            final long highestHeld = sequencer.highestHeld();
            if (highestHeld >= sequence) {
                naks.seen(highestHeld, window.contains(highestHeld), nowNs);
            }
            deliverHeld(false, nowNs);
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
     * @param earlier the earlier stream's life: who publishes the session and when it began
     */
    void resumeAt(long sequence, long messageIndex, SessionLife earlier, long nowNs) {
        life = earlier;
        if (!started) {
            if (messageIndex >= 0) {
                delivery.resumeBelow(messageIndex);
            }
            startAt(sequence, nowNs);
        }
    }

    /**
     * Where a stream of this session should resume if this one ends now: the datagram where the
     * message being joined began, or the next datagram to deliver; while it recovers, the first
     * datagram it gave up to the recorders (asked for again, it is recovered again from the next
     * message).
     */
    public long resumeSequence() {
        return losses.isRecovering() ? losses.recoveringFromSequence() : delivery.resumeSequence(expectedSequence());
    }

    /** The first datagram held while the start was undecided, or -1 if none was. */
    public long firstHeldSequence() {
        return sequencer.firstHeld();
    }

    /** The index of the next message to deliver, or -1 if the stream has not learned it. */
    public long knownMessageIndex() {
        return delivery.isIndexKnown() ? delivery.nextMessageIndex() : -1;
    }

    /**
     * Frees the reorder window's off-heap memory and the stream's counters; called by the receiving
     * thread when the stream goes.
     */
    public void close() {
        losses.close();
        sequencer.free();
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
        return losses.streamDropped();
    }

    /** The sequence of the next datagram to deliver. */
    public long expectedSequence() {
        return sequencer.next();
    }

    /** The index of the next message to deliver (or of the one being reassembled). */
    public long nextMessageIndex() {
        return delivery.nextMessageIndex();
    }

    /**
     * Its NAK emitter, for tests: when the next NAK is due, the repair estimate the delays follow,
     * the group size they widen with, the highest sequence known to exist.
     */
    NakEmitter naks() {
        return naks;
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
        sequencer.skipTo(sequence);
        naks.startAt(sequence);
        listener.onStreamStarted(new StreamStarted(topicId, sessionId, sequence));
    }

    /** Whether an UNRECOVERABLE up to {@code toSequence} claims more lost messages than it can take. */
    private boolean implausibleLoss(long toSequence, long firstMessageAfter) {
        final long expected = expectedSequence();
        return started && delivery.isIndexKnown() && toSequence >= expected
            && reach.implausibleLoss(firstMessageAfter - delivery.nextMessageIndex(), toSequence - expected + 1);
    }

    /**
     * Delivers every held datagram that is next, then stops the NAKs if nothing is missing.
     *
     * @param retransmit whether a RETRANSMIT just filled the head
     */
    private void deliverHeld(boolean retransmit, long nowNs) {
        sequencer.deliverHeld(nowNs);
        naks.delivered(retransmit, nowNs);
    }
}
