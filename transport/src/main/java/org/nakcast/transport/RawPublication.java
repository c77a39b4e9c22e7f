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
 * they answer a code the caller acts on.
 */
public final class RawPublication implements AutoCloseable {
    /** The offer was taken. */
    public static final long OK = 0;
    /**
     * A topic with flow control {@code min} has no live receiver to hold its pace to: nothing was
     * taken; offer again once a receiver is there (its first STATUS connects it).
     */
    public static final long NOT_CONNECTED = -1;
    /** The buffer is full: the network, the rate limit or flow control is behind. Try again. */
    public static final long BACK_PRESSURED = -2;
    /** The publication or its node was closed. */
    public static final long CLOSED = -4;
    /** The message is longer than {@link #maxMessageLength()}. */
    public static final long MESSAGE_TOO_LARGE = -5;

    private final String topicName;
    private final int topicId;
    private final int sessionId;
    private final OfferBuffer offers;
    private final AtomicCounter backPressureEvents;
    private boolean closedByOwner;

    RawPublication(String topicName, int topicId, int sessionId, OfferBuffer offers, AtomicCounter backPressure) {
        this.topicName = topicName;
        this.topicId = topicId;
        this.sessionId = sessionId;
        this.offers = offers;
        this.backPressureEvents = backPressure;
    }

    /**
     * Offers a copy of {@code length} bytes at {@code offset}.
     *
     * @return {@link #OK}, {@link #BACK_PRESSURED}, {@link #NOT_CONNECTED}, {@link #CLOSED} or
     *     {@link #MESSAGE_TOO_LARGE}; nothing was taken unless {@link #OK}
     */
    public long offer(DirectBuffer buffer, int offset, int length) {
        final long refusal = refusal(length);
        if (refusal != OK) {
            return refusal;
        }
        if (offers.offer(buffer, offset, length)) {
            return OK;
        }
        backPressureEvents.increment();
        return BACK_PRESSURED;
    }

    /**
     * Reserves {@code length} bytes for a message written in place (zero copy): write into
     * {@code claim.buffer()} from {@code claim.offset()}, then {@link MessageClaim#commit()}.
     *
     * @return {@link #OK} with the claim filled in, or a refusal code as for {@link #offer}
     */
    public long tryClaim(int length, MessageClaim claim) {
        final long refusal = refusal(length);
        if (refusal != OK) {
            return refusal;
        }
        final int index = offers.tryClaim(length);
        if (index < 0) {
            backPressureEvents.increment();
            return BACK_PRESSURED;
        }
        claim.wrap(offers, index, length);
        return OK;
    }

    private long refusal(int length) {
        if (offers.isClosed()) {
            return CLOSED;
        }
        if (length > offers.maxMessageLength() || length < 0) {
            return MESSAGE_TOO_LARGE;
        }
        return offers.isConnected() ? OK : NOT_CONNECTED;
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

    /**
     * Ends this publisher stream: later offers answer {@link #CLOSED}; what was offered before is
     * still sent, then the stream marks its end (receivers raise {@code PublisherGone}, cause
     * {@code ENDED}, as soon as they have everything), answers repairs for the topic's
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
