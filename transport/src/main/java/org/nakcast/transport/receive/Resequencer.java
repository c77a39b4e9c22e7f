package org.nakcast.transport.receive;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.nakcast.transport.protocol.DataFlyweight;
import org.nakcast.transport.protocol.MessageFrame;
import org.nakcast.transport.status.SystemCounter;
import org.nakcast.transport.status.SystemCounters;

/**
 * Puts one stream's DATA back in sequence and hands it on, through the delivery gate, to its
 * {@link MessageDelivery}: the datagram next in sequence at once, those ahead of a gap held in the
 * {@link ReorderWindow} until the gap is filled (or given up by its stream, which then
 * {@linkplain #skipTo skips} it).
 *
 * <pre>
 *   take(seq)   seq == next, gate open        delivered                          FIRST_COPY
 *               seq == next, gate shut        held (counted: delivery queue full) FIRST_COPY
 *               next &lt; seq &lt; next + capacity  held                               FIRST_COPY
 *               held already                  dropped                            DUPLICATE
 *               seq &gt;= next + capacity        dropped (counted), asked again     OVERFLOW
 *   deliverHeld()   delivers held datagrams from next on while the gate takes them
 *   pause()         holds everything, next included, until resume(): a recovery from a recorder
 * </pre>
 *
 * <p>Before its stream's start is decided it {@linkplain #hold holds} what arrives instead, as far
 * as the window reaches from the first datagram held, delivering nothing. Deciding and NAKing are
 * its stream's: this class only orders, holds and delivers. Not thread-safe; allocation-free
 * (the window takes its pages off-heap as they are first used).
 */
final class Resequencer {
    /** What {@link #take} did with a datagram. */
    enum Taken {
        /** Delivered, or held ahead of a gap: the stream's first copy of it. */
        FIRST_COPY,
        /** Held already: a copy. */
        DUPLICATE,
        /** Beyond the window's reach, or too long for a slot: dropped, to be asked for again. */
        OVERFLOW
    }

    private final ReorderWindow window;
    private final MessageDelivery delivery;
    private final UnsafeBuffer datagramView = new UnsafeBuffer();
    private final DataFlyweight dataHeader = new DataFlyweight();
    private final AtomicCounter windowOverflows;
    private final AtomicCounter deliveryQueueFull;
    private DeliveryGate gate = DeliveryGate.OPEN;
    private long next;
    private boolean holding;
    /** Whether delivery waits for messages fetched from a recorder: everything is held meanwhile. */
    private boolean paused;
    private long firstHeld = -1;
    private long highestHeld = -1;

    /**
     * @param capacity the reorder window's datagrams, a power of two
     * @param maxDatagramLength the longest datagram a slot holds
     * @param delivery where datagrams go in sequence
     */
    Resequencer(int capacity, int maxDatagramLength, MessageDelivery delivery, SystemCounters counters) {
        this.window = new ReorderWindow(capacity, maxDatagramLength);
        this.delivery = delivery;
        this.windowOverflows = counters.get(SystemCounter.REORDER_WINDOW_OVERFLOWS);
        this.deliveryQueueFull = counters.get(SystemCounter.DELIVERY_QUEUE_FULL);
    }

    /** The next datagram to deliver. */
    long next() {
        return next;
    }

    /** Makes {@code sequence} the next datagram to deliver: the stream starts there, or skips to it. */
    void skipTo(long sequence) {
        next = sequence;
    }

    /** The datagrams held ahead of a gap, for what may be asked for. */
    ReorderWindow window() {
        return window;
    }

    /**
     * Makes delivery wait for {@code deliveryGate}: a datagram the gate refuses waits in the window and
     * is delivered by a later {@link #deliverHeld} once the gate opens.
     */
    void deliverWhen(DeliveryGate deliveryGate) {
        this.gate = deliveryGate;
    }

    /**
     * DATA datagram {@code sequence}, at or after {@link #next()}: delivered if next and the gate takes
     * it, else held (see the class comment).
     */
    Taken take(long sequence, DirectBuffer buffer, int offset, int length, long nowNs) {
        final boolean inOrder = sequence == next && !paused;
        if (inOrder && gate.canTake(length, delivery.assembledLength(), nowNs)) {
            next++;
            datagramView.wrap(buffer, offset, length);
            dataHeader.wrap(datagramView, 0);
            delivery.deliver(buffer, offset, length, sequence, dataHeader.completedMessages());
            return Taken.FIRST_COPY;
        }
        if (inOrder) {
            deliveryQueueFull.increment();
        }
        if (sequence - next >= window.capacity() || !window.fits(length)) {
            windowOverflows.increment();
            return Taken.OVERFLOW;
        }
        if (window.contains(sequence)) {
            return Taken.DUPLICATE;
        }
        window.store(sequence, buffer, offset, length);
        return Taken.FIRST_COPY;
    }

    /** Whether the gate takes a whole message of {@code length} bytes now: one fetched from a recorder. */
    boolean canTakeWhole(int length, long nowNs) {
        return gate.canTake(0, length, nowNs);
    }

    /** Delivers every held datagram from {@link #next()} on, while the gate takes them. */
    void deliverHeld(long nowNs) {
        while (!paused && window.contains(next)
            && gate.canTake(window.lengthOf(next), delivery.assembledLength(), nowNs)) {
            final long sequence = next++;
            final UnsafeBuffer held = window.bufferOf(sequence);
            final int offset = window.offsetOf(sequence);
            dataHeader.wrap(held, offset);
            delivery.deliver(held, offset, window.lengthOf(sequence), sequence, dataHeader.completedMessages());
        }
    }

    /**
     * Holds every datagram from now on, delivering none, until {@link #resume()}: the messages before
     * {@link #next()} are being fetched from a recorder and go first.
     */
    void pause() {
        paused = true;
    }

    /** Delivers again, from {@link #next()} on, with the next {@link #deliverHeld} or datagram. */
    void resume() {
        paused = false;
    }

    /**
     * The first datagram from {@link #next()} on that is not held: where a paused stream's STATUS
     * says it has everything below (the live edge it has, not what it delivered).
     */
    long firstMissing() {
        final long end = next + window.capacity();
        long sequence = next;
        while (sequence < end && window.contains(sequence)) {
            sequence++;
        }
        return sequence;
    }

    /** The first datagram held after {@link #next()} and up to {@code last}, or -1. */
    long firstHeldAfterNext(long last) {
        final long end = Math.min(last, next + window.capacity() - 1);
        for (long sequence = next + 1; sequence <= end; sequence++) {
            if (window.contains(sequence)) {
                return sequence;
            }
        }
        return -1;
    }

    /** The index of the first message that begins in the held datagram {@code sequence}. */
    long firstMessageIndexHeldAt(long sequence) {
        final UnsafeBuffer held = window.bufferOf(sequence);
        final int offset = window.offsetOf(sequence);
        dataHeader.wrap(held, offset);
        final int firstFrameFlags = MessageFrame.flags(held, offset + DataFlyweight.DATA_HEADER_LENGTH);
        return dataHeader.completedMessages() + (MessageFrame.isBegin(firstFrameFlags) ? 0 : 1);
    }

    /** Holds what arrives, delivering nothing, until {@link #stopHolding()}. */
    void holdUntilStarted() {
        holding = true;
    }

    /** Whether it holds what arrives because the stream's start is not decided yet. */
    boolean isHolding() {
        return holding;
    }

    /**
     * Keeps DATA datagram {@code sequence} while the start is undecided: as far as the window reaches
     * from the first one held.
     */
    void hold(long sequence, DirectBuffer buffer, int offset, int length) {
        if (firstHeld < 0) {
            firstHeld = sequence;
        }
        if (sequence >= firstHeld && sequence - firstHeld < window.capacity() && window.fits(length)
            && !window.contains(sequence)) {
            window.store(sequence, buffer, offset, length);
            highestHeld = Math.max(highestHeld, sequence);
        }
    }

    /** The start is decided: what is held from {@link #next()} on is delivered by {@link #deliverHeld}. */
    void stopHolding() {
        holding = false;
    }

    /** The first datagram held while the start was undecided, or -1 if none was. */
    long firstHeld() {
        return firstHeld;
    }

    /** The highest datagram held while the start was undecided, or -1 if none was. */
    long highestHeld() {
        return highestHeld;
    }

    /** Frees the window's off-heap memory; called by the receiving thread when the stream goes. */
    void free() {
        window.free();
    }
}
