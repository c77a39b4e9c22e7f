package org.nakcast.transport.receive;

import java.util.function.LongConsumer;

import org.agrona.concurrent.status.AtomicCounter;
import org.nakcast.transport.LossEvent;
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
 * it ignores everything after. Not thread-safe; the receiving thread owns it.
 */
final class UnrecoverableLoss {
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

    /**
     * Everything up to {@code toSequence} is gone from the publisher, and {@code firstMessageAfter} is
     * the first message to begin after it: gives up each missing run up to it, delivering what is
     * held between them. Nothing happens when nothing up to it is missing (a repeat, or an answer to
     * another receiver).
     */
    void upTo(long toSequence, long firstMessageAfter, long nowNs) {
        while (!dropped && sequencer.next() <= toSequence) {
            if (sequencer.window().contains(sequencer.next())) {
                deliverHeld.accept(nowNs);
                if (sequencer.window().contains(sequencer.next())) {
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
    }

    /** Gives up [next, {@code lastLost}]: one loss event, then the loss policy. */
    private void giveUp(long lastLost, long firstMessageAfter, long nowNs) {
        final long lostFrom = sequencer.next();
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

}
