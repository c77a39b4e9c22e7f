package org.nakcast.transport.receive;

import java.util.List;
import java.util.function.LongConsumer;

import org.agrona.concurrent.status.AtomicCounter;
import org.nakcast.transport.LossEvent;
import org.nakcast.transport.RecoveryStarted;
import org.nakcast.transport.StreamEventListener;
import org.nakcast.transport.status.SystemCounter;
import org.nakcast.transport.status.SystemCounters;

/**
 * What a stream does when its publisher no longer holds what it misses. An UNRECOVERABLE for
 * [from, to] means the publisher's history (a contiguous ring) no longer reaches {@code to}:
 * everything up to {@code to} is gone. It may cover datagrams the stream holds: only what is
 * really missing is given up.
 *
 * <pre>
 *   next to deliver           to
 *        v                     v
 *   .....[ lost ][held][ lost  ]......
 *         event 1  kept event 2        each missing run: one LossEvent, then the loss policy
 * </pre>
 *
 * <p>Each missing run up to {@code to} raises one {@link LossEvent}, counted exactly: from the next
 * held datagram's header, or for the last run from the first message after the range, which the
 * wire carries. One exception: a stream that started from a HEARTBEAT and lost its very first
 * datagrams for good never learned the message index there, and reports 0 lost messages for that
 * first range (unless the heartbeat said the publisher had sent nothing yet: then the index is 0).
 * Then delivery goes on after the run ({@code continue}), or the stream is dropped ({@code drop}):
 * it ignores everything after.
 *
 * <p>On a topic with recorders a run whose messages it can name is not given up but
 * {@linkplain #recoverFrom recovered}: the stream skips past the run's datagrams and holds what
 * follows, its {@link MessageRecovery} fetches the run's messages and delivers them, and then
 * delivery goes on after the run; an UNRECOVERABLE heard meanwhile waits for the recovery to end.
 * Only messages no recorder holds are lost (one event per run, naming the recorders' answers).
 *
 * <p>A run that cannot be given up yet, because delivery cannot reach it (a recovery under way, or
 * a held datagram before it that a full delivery queue does not take), waits until it can. Its
 * stream's NAKs no longer ask for it meanwhile: asked again, the publisher would answer the same,
 * and send its oldest datagrams again with the answer (a receiver that fell behind needs them
 * next), which the stream holds already.
 * Not thread-safe; the receiving thread owns it.
 */
final class UnrecoverableLoss implements MessageRecovery.Unrecovered {
    private final int topicId;
    private final int sessionId;
    private final boolean dropOnLoss;
    private final Resequencer sequencer;
    private final MessageDelivery delivery;
    private final NakEmitter naks;
    private final StreamEventListener listener;
    private final LongConsumer deliverHeld;
    private final AtomicCounter unrecoverableRanges;
    private final AtomicCounter lostMessages;
    private final AtomicCounter streamsDropped;
    private boolean dropped;
    private MessageRecovery recovery;
    /**
     * The furthest UNRECOVERABLE heard while delivery could not reach it (a recovery under way, or a
     * held datagram the delivery gate did not take), and the first message after it; -1 for none.
     */
    private long waitingUpTo = -1;
    private long waitingFirstMessageAfter;

    /**
     * @param dropOnLoss the loss policy: true to drop the stream at its first loss, false to go on
     * @param deliverHeld the stream's delivery of what it holds from the next datagram on (given the time)
     */
    UnrecoverableLoss(int topicId, int sessionId, boolean dropOnLoss, Resequencer sequencer, MessageDelivery delivery,
        NakEmitter naks, StreamEventListener listener, LongConsumer deliverHeld, SystemCounters counters) {
        this.topicId = topicId;
        this.sessionId = sessionId;
        this.dropOnLoss = dropOnLoss;
        this.sequencer = sequencer;
        this.delivery = delivery;
        this.naks = naks;
        this.listener = listener;
        this.deliverHeld = deliverHeld;
        this.unrecoverableRanges = counters.get(SystemCounter.UNRECOVERABLE_RANGES);
        this.lostMessages = counters.get(SystemCounter.LOST_MESSAGES);
        this.streamsDropped = counters.get(SystemCounter.STREAMS_DROPPED);
    }

    /** Whether the loss policy dropped the stream. */
    boolean streamDropped() {
        return dropped;
    }

    /** Makes this stream fetch what its publisher no longer holds through {@code messageRecovery}. */
    void recoverFrom(MessageRecovery messageRecovery) {
        this.recovery = messageRecovery;
    }

    /** Whether messages are being fetched from a recorder: the stream delivers nothing else meanwhile. */
    boolean isRecovering() {
        return recovery != null && recovery.isActive();
    }

    /**
     * Lets a recovery under way deliver what has come; once it has ended, delivery goes on after it,
     * with what the stream held meanwhile and what it heard was given up meanwhile.
     *
     * @return work done
     */
    int pollRecovery(long nowNs) {
        if (!isRecovering()) {
            return 0;
        }
        final int work = recovery.poll(nowNs);
        if (!recovery.isActive() && !dropped) {
            afterRecovery(nowNs);
        }
        return work;
    }

    /** The first datagram given up to the recovery under way: where a stream of its session resumes. */
    long recoveringFromSequence() {
        return recovery.fromSequence();
    }

    /** Ends a recovery under way: the stream is closing. */
    void close() {
        if (recovery != null) {
            recovery.close();
        }
    }

    private void afterRecovery(long nowNs) {
        delivery.continueAt(recovery.lastMessage() + 1);
        sequencer.resume();
        giveUpWaiting(nowNs);
    }

    /**
     * Gives up what waited for delivery to reach it, once it can: after a recovery, or once the held
     * datagram before it has been delivered (its delivery queue took it). Called as the stream polls.
     */
    void afterDelivery(long nowNs) {
        if (waitingUpTo >= 0 && !isRecovering() && !dropped && !sequencer.window().contains(sequencer.next())) {
            giveUpWaiting(nowNs);
        }
    }

    private void giveUpWaiting(long nowNs) {
        naks.forgetGone(nowNs);
        deliverHeld.accept(nowNs);
        if (waitingUpTo >= 0) {
            final long upTo = waitingUpTo;
            waitingUpTo = -1;
            upTo(upTo, waitingFirstMessageAfter, nowNs);
        }
    }

    /**
     * Everything up to {@code toSequence} is gone from the publisher, and {@code firstMessageAfter} is
     * the first message to begin after it: gives up each missing run up to it, delivering what is
     * held between them. Nothing happens when nothing up to it is missing (a repeat, or an answer to
     * another receiver).
     */
    void upTo(long toSequence, long firstMessageAfter, long nowNs) {
        while (!dropped && !isRecovering() && sequencer.next() <= toSequence) {
            if (sequencer.window().contains(sequencer.next())) {
                deliverHeld.accept(nowNs);
                if (sequencer.window().contains(sequencer.next())) {
                    waitFor(toSequence, firstMessageAfter);
                    return;
                }
                continue;
            }
            final long held = sequencer.firstHeldAfterNext(toSequence);
            if (held < 0) {
                giveUp(toSequence, firstMessageAfter, nowNs);
                return;
            }
            giveUp(held - 1, sequencer.firstMessageIndexHeldAt(held), nowNs);
        }
        if (isRecovering() && toSequence >= sequencer.next()) {
            waitFor(toSequence, firstMessageAfter);
        }
    }

    /** Everything up to {@code toSequence} is gone, but delivery cannot reach it yet: see the class comment. */
    private void waitFor(long toSequence, long firstMessageAfter) {
        if (toSequence > waitingUpTo) {
            waitingUpTo = toSequence;
            waitingFirstMessageAfter = firstMessageAfter;
            naks.goneUpTo(toSequence);
        }
    }

    /**
     * Gives up [next, {@code lastLost}]: one loss event, then the loss policy; or, on a topic with
     * recorders, begins to fetch the run's messages, holding what follows.
     */
    private void giveUp(long lastLost, long firstMessageAfter, long nowNs) {
        final long lostFrom = sequencer.next();
        if (recovery != null && delivery.isIndexKnown() && firstMessageAfter > delivery.nextMessageIndex()) {
            final long firstLost = delivery.nextMessageIndex();
            delivery.continueAt(firstLost);
            sequencer.skipTo(lastLost + 1);
            naks.skipped(lastLost);
            sequencer.pause();
            recovery.begin(lostFrom, lastLost, firstLost, firstMessageAfter - 1, nowNs);
            listener.onRecoveryStarted(new RecoveryStarted(topicId, sessionId, lostFrom, lastLost, firstLost,
                firstMessageAfter - 1));
            return;
        }
        // a stream that knows no message index yet (a late start overtaken) gives up no message it
        // can name: none lost, and the next delivered is the first after the gap
        final long firstLost = delivery.isIndexKnown() ? delivery.nextMessageIndex() : firstMessageAfter;
        final long lost = delivery.isIndexKnown() ? Math.max(0, firstMessageAfter - delivery.nextMessageIndex()) : 0;
        unrecoverableRanges.increment();
        lostMessages.getAndAdd(lost);
        sequencer.skipTo(lastLost + 1);
        delivery.continueAt(firstMessageAfter);
        naks.skipped(lastLost);
        if (dropOnLoss) {
            dropped = true;
            streamsDropped.increment();
            naks.cancel();
        }
        listener.onLoss(new LossEvent(topicId, sessionId, lostFrom, lastLost, firstLost, lost,
            LossEvent.Cause.UNRECOVERABLE, dropOnLoss));
        if (!dropped) {
            deliverHeld.accept(nowNs);
        }
    }

    /** Messages of a recovery no recorder holds: one loss event, then the loss policy. */
    @Override
    public void lost(long fromSequence, long toSequence, long firstMessage, long count, List<String> recordersAsked,
        long nowNs) {
        unrecoverableRanges.increment();
        lostMessages.getAndAdd(count);
        if (dropOnLoss) {
            dropped = true;
            streamsDropped.increment();
            naks.cancel();
            recovery.close();
        }
        listener.onLoss(new LossEvent(topicId, sessionId, fromSequence, toSequence, firstMessage, count,
            LossEvent.Cause.UNRECOVERABLE, dropOnLoss, recordersAsked));
    }

}
