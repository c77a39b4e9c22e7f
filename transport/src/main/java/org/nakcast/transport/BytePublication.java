package org.nakcast.transport;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.nakcast.transport.publish.OfferBuffer;

/**
 * Publishes byte messages on one topic: a publisher stream with its own session id. Offers are
 * copied into an off-heap buffer and sent by the node's sending thread, packed into datagrams.
 *
 * <p>One application thread offers to a publication (it is single-producer); use one publication
 * per publishing thread. {@link #offer} and {@link #tryClaim} never block and never allocate:
 * they answer a position (&gt; 0) or a negative {@link OfferResult} the caller acts on.
 *
 * <pre>{@code
 * long result = prices.offer(buffer, 0, length);
 * if (result < 0) { ... }             // OfferResult.BACK_PRESSURED: try again later, or drop
 * }</pre>
 */
public final class BytePublication implements AutoCloseable {
    private final String topicName;
    private final int topicId;
    private final int sessionId;
    private final OfferBuffer offers;
    private final AtomicCounter backPressureEvents;
    private long position;
    private boolean closedByOwner;
    /** The last refusal, 0 if none: kept as a code and a length, put in words only when asked. */
    private long lastRefusal;
    private int lastRefusedLength;

    BytePublication(String topicName, int topicId, int sessionId, OfferBuffer offers, AtomicCounter backPressure) {
        this.topicName = topicName;
        this.topicId = topicId;
        this.sessionId = sessionId;
        this.offers = offers;
        this.backPressureEvents = backPressure;
    }

    /**
     * Offers a copy of {@code length} bytes at {@code offset}.
     *
     * @return the position after the message (&gt; 0) if it was taken, else a negative
     *     {@link OfferResult}; nothing was taken unless positive
     * @throws IllegalArgumentException if {@code buffer} is null or the region lies outside it
     */
    public long offer(DirectBuffer buffer, int offset, int length) {
        checkRegion(buffer, offset, length);
        final long refusal = refusal(length);
        if (refusal != 0) {
            return refused(refusal, length);
        }
        if (offers.offer(buffer, offset, length)) {
            return ++position;
        }
        backPressureEvents.increment();
        return refused(OfferResult.BACK_PRESSURED, length);
    }

    /**
     * Reserves {@code length} bytes for a message written in place (zero copy): write into
     * {@code claim.buffer()} from {@code claim.offset()}, then {@link MessageClaim#commit()}.
     *
     * @return the position the message takes when committed next (&gt; 0), with the claim filled
     *     in, or a negative {@link OfferResult} as for {@link #offer}
     * @throws IllegalArgumentException if {@code claim} is null or {@code length} negative
     */
    public long tryClaim(int length, MessageClaim claim) {
        if (claim == null || length < 0) {
            throw new IllegalArgumentException(claim == null ? "claim is null" : "length " + length + " is negative");
        }
        final long refusal = refusal(length);
        if (refusal != 0) {
            return refused(refusal, length);
        }
        final int index = offers.tryClaim(length);
        if (index < 0) {
            backPressureEvents.increment();
            return refused(OfferResult.BACK_PRESSURED, length);
        }
        claim.wrap(this, offers, index, length);
        return position + 1;
    }

    /**
     * Notes {@code result}, a refusal of a message of {@code length} bytes (-1: not known, encoded
     * too long), as the last one; returns it.
     */
    long refused(long result, int length) {
        lastRefusal = result;
        lastRefusedLength = length;
        return result;
    }

    /** The last refusal's result, 0 if none. */
    long lastRefusalResult() {
        return lastRefusal;
    }

    /**
     * Why the last refused offer, claim or commit of this publication was refused, in words: the
     * topic, what happened and what to do. Built when asked (the refusal itself only notes a code),
     * so a caller may ask after each refusal it acts on.
     *
     * @return the reason, or null if nothing was refused yet
     */
    public String lastRefusal() {
        if (lastRefusal == 0) {
            return null;
        }
        final String detail = lastRefusal != OfferResult.MESSAGE_TOO_LARGE ? ""
            : " (" + (lastRefusedLength < 0 ? "encoded" : lastRefusedLength + " bytes") + "; this publication takes at"
                + " most " + maxMessageLength() + ")";
        return "topic '" + topicName + "': " + OfferResult.describe(lastRefusal) + detail + "; "
            + OfferResult.whatToDo(lastRefusal);
    }

    /** A claim was committed: the position after it. */
    long committed() {
        return ++position;
    }

    private static void checkRegion(DirectBuffer buffer, int offset, int length) {
        if (buffer == null) {
            throw new IllegalArgumentException("buffer is null");
        }
        if (offset < 0 || length < 0 || (long) offset + length > buffer.capacity()) {
            throw new IllegalArgumentException("offset " + offset + " and length " + length
                + " lie outside the buffer of " + buffer.capacity() + " bytes");
        }
    }

    /** The refusal of a message of {@code length} bytes, or 0 if it may be offered. */
    private long refusal(int length) {
        if (offers.isClosed()) {
            return OfferResult.CLOSED;
        }
        if (length > offers.maxMessageLength()) {
            return OfferResult.MESSAGE_TOO_LARGE;
        }
        return offers.isConnected() ? 0 : OfferResult.NOT_CONNECTED;
    }

    /** Sends a partly filled datagram now instead of after the linger (no effect when linger is 0). */
    public void flush() {
        offers.requestFlush();
    }

    /** The largest message this publication takes, in bytes. */
    public int maxMessageLength() {
        return offers.maxMessageLength();
    }

    /** The topic's name. */
    public String topicName() {
        return topicName;
    }

    /** The topic's numeric id. */
    public int topicId() {
        return topicId;
    }

    /** This publisher stream's session id, random per publication. */
    public int sessionId() {
        return sessionId;
    }

    /** The position after the last message taken: how many messages this publication has taken. */
    public long position() {
        return position;
    }

    /**
     * Whether this publication, once closed, has finished: everything offered before the close was
     * sent, the end marked, and the close-linger for repairs is over, so its memory is freed.
     * False while it is open. For an application that drives its node ({@code invoker}) and wants
     * to know when to stop.
     */
    public boolean isFinished() {
        return offers.finished();
    }

    /**
     * Ends this publisher stream: later offers answer {@link OfferResult#CLOSED}; what was offered
     * before is still sent, then the stream marks its end (receivers raise {@code PublisherGone},
     * cause {@code ENDED}, as soon as they have everything), answers repairs for the topic's
     * {@code close-linger}, and frees its history, offer buffer and counters. Returns at once: the
     * node's sending thread does the rest, and {@link Node#close()} waits for it. Commit or abort a
     * claim before closing. Idempotent; on the thread that offers.
     */
    @Override
    public void close() {
        if (!closedByOwner) {
            closedByOwner = true;
            offers.close();
            offers.release();
        }
    }
}
