package org.nakcast.transport.publish;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.concurrent.atomic.AtomicInteger;

import org.agrona.BitUtil;
import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

/**
 * The hand-over between the one application thread that offers messages to a publication and
 * the sending thread that packs them into datagrams: a single-producer, single-consumer ring
 * buffer off-heap, plus the flush and close signals. Never blocks and never allocates on offer.
 *
 * <p>Its life: {@link #close()} (the publication's owner, or its node) refuses further offers; the
 * sending thread sends what is in the ring, ends the stream and then {@linkplain #finished()
 * finishes}. The ring's memory is freed once both the owner has let go ({@link #release()}) and the
 * sending thread has finished: neither can touch freed memory, and a publication its owner never
 * closes is left to the garbage collector.
 *
 * <pre>
 *   open --close()--> closed: offers refused --sending thread: all sent, end marker, linger--> finished
 *                                     release() by the owner + finished --> ring memory freed
 * </pre>
 */
public final class OfferBuffer {
    private static final int MESSAGE_TYPE = 1;

    private final ByteBuffer memory;
    private final OneToOneRingBuffer ring;
    private final int maxMessageLength;
    private final AtomicBoolean flushRequested = new AtomicBoolean();
    /** The owner and the sending thread: the memory is freed when both have let go. */
    private final AtomicInteger holders = new AtomicInteger(2);
    private final Consumer<OfferBuffer> onFreed;
    private volatile boolean closed;
    private volatile boolean finished;
    private volatile boolean connected = true;

    /**
     * @param capacity ring capacity in bytes; rounded up to a power of two
     * @param maxMessageLength the largest message accepted; at most an eighth of the capacity
     * @param onFreed told once the ring's memory is freed (on the thread that let go last)
     */
    public OfferBuffer(int capacity, int maxMessageLength, Consumer<OfferBuffer> onFreed) {
        final int ringCapacity = BitUtil.findNextPositivePowerOfTwo(capacity);
        this.memory = ByteBuffer.allocateDirect(ringCapacity + RingBufferDescriptor.TRAILER_LENGTH);
        this.ring = new OneToOneRingBuffer(new UnsafeBuffer(memory));
        this.maxMessageLength = Math.min(maxMessageLength, ring.maxMsgLength());
        this.onFreed = onFreed;
    }

    /** The largest message an offer accepts, in bytes. */
    public int maxMessageLength() {
        return maxMessageLength;
    }

    /**
     * Copies a message in.
     *
     * @return true if it was taken; false if the buffer is full (back-pressure)
     */
    public boolean offer(DirectBuffer buffer, int offset, int length) {
        return ring.write(MESSAGE_TYPE, buffer, offset, length);
    }

    /**
     * Reserves {@code length} bytes to write a message in place.
     *
     * @return the index of the reserved region in {@link #buffer()}, or a negative value if full
     */
    public int tryClaim(int length) {
        return ring.tryClaim(MESSAGE_TYPE, length);
    }

    /** Publishes a region reserved by {@link #tryClaim}. */
    public void commit(int index) {
        ring.commit(index);
    }

    /** Gives back a region reserved by {@link #tryClaim} without publishing it. */
    public void abort(int index) {
        ring.abort(index);
    }

    /** The memory claimed regions live in. */
    public UnsafeBuffer buffer() {
        return (UnsafeBuffer) ring.buffer();
    }

    /** Asks the sending thread to send a partly filled datagram now rather than after the linger. */
    public void requestFlush() {
        flushRequested.set(true);
    }

    /**
     * Whether a receiver is there to take what is offered: set by the sending thread from the
     * stream's flow control ({@code min} with no live receiver: not connected).
     */
    public boolean isConnected() {
        return connected;
    }

    /** Sets whether a receiver is there; called by the sending thread. */
    void connected(boolean receiversThere) {
        if (connected != receiversThere) {
            connected = receiversThere;
        }
    }

    /**
     * Marks the publication closed: later offers are refused, and the sending thread ends the stream
     * once it has sent what is in the ring. Any thread; idempotent.
     */
    public void close() {
        closed = true;
    }

    /** Whether the publication was closed. */
    public boolean isClosed() {
        return closed;
    }

    /**
     * The owner lets go: it offers no more. Call once, on the owner's thread, after {@link #close()}.
     */
    public void release() {
        letGo();
    }

    /** Whether the sending thread has ended the stream and let go of the ring. */
    public boolean finished() {
        return finished;
    }

    /** The sending thread has ended the stream: it reads the ring no more. Called once. */
    void finish() {
        finished = true;
        letGo();
    }

    private void letGo() {
        if (holders.decrementAndGet() == 0) {
            BufferUtil.free(memory);
            onFreed.accept(this);
        }
    }

    /** The sending thread's side of the ring. */
    RingBuffer ring() {
        return ring;
    }

    /** Takes a pending flush request, if any. */
    boolean takeFlushRequest() {
        return flushRequested.get() && flushRequested.getAndSet(false);
    }
}
