package org.nakcast.transport.receive;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.nakcast.config.DeliveryQueueSize;
import org.nakcast.transport.LineDown;
import org.nakcast.transport.LineUp;
import org.nakcast.transport.LossEvent;
import org.nakcast.transport.RecoveryStarted;
import org.nakcast.transport.StreamRefused;
import org.nakcast.transport.MessageHeader;
import org.nakcast.transport.PublisherGone;
import org.nakcast.transport.StreamEventListener;
import org.nakcast.transport.StreamStarted;

/**
 * Hands one subscription's messages and events from the receiving thread to whichever thread
 * polls it (a subscription made with {@code Delivery.ON_POLL}), in the order they happened, through a bounded ring.
 *
 * <pre>
 * ring record: type (1 whole message, 2 first piece, 3 further piece, 4 last piece, 5 stream started,
 * 6 event marker), then
 *   +--------------+--------------+--------------------------------+----------------------+---------+
 *   | topic id (4) | session (4)  | message index / first seq. (8) | datagram sequence (8)| bytes   |
 *   +--------------+--------------+--------------------------------+----------------------+---------+
 * </pre>
 *
 * <p>A message longer than the ring's largest record travels in pieces and is joined again on the
 * polling thread, so the largest message a queue carries is bounded by its size, not an eighth of
 * it: the ring's size and what it carries are the config's rule ({@link DeliveryQueueSize}), which
 * {@code conclude()} checks each topic's {@code delivery-queue} and {@code max-message} against.
 * The receiving side asks {@link #hasRoomFor} before it hands over a datagram's messages and
 * waits while there is no room; {@link #offer} then never fails. Loss and publisher-gone events are
 * rare: they travel as objects in a side queue, and a marker record keeps their place among the
 * messages; an event that finds the ring full waits, in order, until the poller makes room.
 */
public final class QueuedDelivery implements DeliveryTarget {
    private static final int WHOLE = 1;
    private static final int FIRST_PIECE = 2;
    private static final int MIDDLE_PIECE = 3;
    private static final int LAST_PIECE = 4;
    private static final int STREAM_STARTED = 5;
    private static final int EVENT = 6;
    private static final int TOPIC_OFFSET = 0;
    private static final int SESSION_OFFSET = 4;
    private static final int VALUE_OFFSET = 8;
    private static final int SEQUENCE_OFFSET = 16;
    private static final int RECORD_HEADER = 24;
    /** What the ring spends on a record beyond its bytes: its own header and alignment. */
    private static final int RECORD_OVERHEAD = RECORD_HEADER + 16;
    /** Ring bytes a datagram's messages may take, per datagram byte: many tiny messages cost most. */
    private static final int WORST_CASE_EXPANSION = 9;

    private final RingBuffer ring;
    private final int largestPiece;
    /**
     * Room for the bytes a record leaves unused at the ring's end when it does not fit there and goes
     * to the start: less than one largest record, and once for what one datagram brings, which is
     * shorter than the ring.
     */
    private final int wrapRoom;
    private final UnsafeBuffer scratch = new UnsafeBuffer(ByteBuffer.allocateDirect(RECORD_HEADER));
    private final ArrayDeque<UnsafeBuffer> heldEvents = new ArrayDeque<>();
    private final Queue<Object> events = new ConcurrentLinkedQueue<>();
    private final RecordReader reader;
    private final AtomicLong handlerErrors = new AtomicLong();

    /**
     * @param bytes the topic's {@code delivery-queue}: the ring is that rounded down to a power of two
     *     ({@link DeliveryQueueSize#ringBytes})
     * @param handler gets the messages on the polling thread
     * @param listener gets the events on the polling thread
     */
    public QueuedDelivery(long bytes, MessageBytesHandler handler, StreamEventListener listener) {
        this.ring = new OneToOneRingBuffer(new UnsafeBuffer(
            ByteBuffer.allocateDirect(DeliveryQueueSize.ringBytes(bytes) + RingBufferDescriptor.TRAILER_LENGTH)));
        this.largestPiece = ring.maxMsgLength() - RECORD_HEADER;
        this.wrapRoom = ring.maxMsgLength() + RECORD_OVERHEAD;
        this.reader = new RecordReader(handler, listener, events);
    }

    /** Bytes the ring holds. */
    public int capacity() {
        return ring.capacity();
    }

    /**
     * Delivers up to {@code limit} queued messages and events on the caller's thread. One thread
     * polls; allocation-free once a long message has grown the joining buffer. What the handler or
     * listener throws is counted ({@link #handlerErrors()}) and reaches the caller.
     */
    public int poll(int limit) {
        try {
            return ring.read(reader, limit);
        } catch (RuntimeException | Error ex) {
            handlerErrors.incrementAndGet();
            throw ex;
        }
    }

    @Override
    public long handlerErrors() {
        return handlerErrors.get();
    }

    @Override
    public void handlerThrew() {
        handlerErrors.incrementAndGet();
    }

    @Override
    public boolean hasRoomFor(int datagramLength, int assembledLength) {
        final long pieces = assembledLength / largestPiece + 1;
        final long needed = (long) WORST_CASE_EXPANSION * datagramLength + assembledLength
            + (pieces + 4) * RECORD_OVERHEAD + wrapRoom;
        return releaseHeldEvents() && ring.capacity() - ring.size() >= needed;
    }

    /** The ring's consumer position: bytes the poller has taken. */
    @Override
    public long consumed() {
        return ring.consumerPosition();
    }

    /** Half the queue is free, and every waiting event went in. */
    @Override
    public boolean hasCaughtUp() {
        return releaseHeldEvents() && ring.size() <= ring.capacity() / 2;
    }

    /** Queues one message; the caller made sure there is room ({@link #hasRoomFor}), so it fits. */
    @Override
    public boolean offer(DirectBuffer buffer, int offset, int length, MessageHeader from) {
        if (!heldEvents.isEmpty()) {
            return false;
        }
        if (length <= largestPiece) {
            return write(WHOLE, buffer, offset, length, from);
        }
        final long pieces = (length + largestPiece - 1) / largestPiece;
        if (ring.capacity() - ring.size() < (long) length + pieces * RECORD_OVERHEAD + wrapRoom) {
            return false;
        }
        for (int written = 0; written < length; written += largestPiece) {
            final int pieceLength = Math.min(largestPiece, length - written);
            final int type = written == 0 ? FIRST_PIECE : written + pieceLength == length ? LAST_PIECE : MIDDLE_PIECE;
            write(type, buffer, offset + written, pieceLength, from);
        }
        return true;
    }

    private boolean write(int type, DirectBuffer buffer, int offset, int length, MessageHeader from) {
        final int index = ring.tryClaim(type, RECORD_HEADER + length);
        if (index < 0) {
            return false;
        }
        final MutableDirectBuffer target = ring.buffer();
        writeHeader(target, index, from.topicId(), from.sessionId(), from.messageIndex(), from.sequence());
        target.putBytes(index + RECORD_HEADER, buffer, offset, length);
        ring.commit(index);
        return true;
    }

    @Override
    public void onStreamStarted(StreamStarted event) {
        writeOrHold(STREAM_STARTED, event.topicId(), event.sessionId(), event.firstSequence());
    }

    @Override
    public void onLoss(LossEvent event) {
        events.add(event);
        writeOrHold(EVENT, event.topicId(), event.sessionId(), 0);
    }

    @Override
    public void onPublisherGone(PublisherGone event) {
        events.add(event);
        writeOrHold(EVENT, event.topicId(), event.sessionId(), 0);
    }

    @Override
    public void onLineDown(LineDown event) {
        events.add(event);
        writeOrHold(EVENT, event.topicId(), event.sessionId(), 0);
    }

    @Override
    public void onLineUp(LineUp event) {
        events.add(event);
        writeOrHold(EVENT, event.topicId(), event.sessionId(), 0);
    }

    @Override
    public void onRecoveryStarted(RecoveryStarted event) {
        events.add(event);
        writeOrHold(EVENT, event.topicId(), event.sessionId(), 0);
    }

    @Override
    public void onStreamRefused(StreamRefused event) {
        events.add(event);
        writeOrHold(EVENT, event.topicId(), event.sessionId(), 0);
    }

    /** An event's record goes into the ring, or waits behind those already waiting: events are rare. */
    private void writeOrHold(int type, int topicId, int sessionId, long value) {
        writeHeader(scratch, 0, topicId, sessionId, value, 0);
        if (!heldEvents.isEmpty() || !ring.write(type, scratch, 0, RECORD_HEADER)) {
            final UnsafeBuffer copy = new UnsafeBuffer(new byte[RECORD_HEADER + Integer.BYTES]);
            copy.putBytes(0, scratch, 0, RECORD_HEADER);
            copy.putInt(RECORD_HEADER, type);
            heldEvents.add(copy);
        }
    }

    /** Moves waiting event records into the ring, oldest first; true when none is left. */
    private boolean releaseHeldEvents() {
        while (!heldEvents.isEmpty()) {
            final UnsafeBuffer record = heldEvents.peek();
            if (!ring.write(record.getInt(RECORD_HEADER), record, 0, RECORD_HEADER)) {
                return false;
            }
            heldEvents.poll();
        }
        return true;
    }

    private static void writeHeader(
        MutableDirectBuffer target, int index, int topicId, int sessionId, long value, long sequence) {
        target.putInt(index + TOPIC_OFFSET, topicId);
        target.putInt(index + SESSION_OFFSET, sessionId);
        target.putLong(index + VALUE_OFFSET, value);
        target.putLong(index + SEQUENCE_OFFSET, sequence);
    }

    /** Turns ring records back into callbacks, on the polling thread, joining pieces of long messages. */
    private static final class RecordReader implements org.agrona.concurrent.MessageHandler {
        private final MessageBytesHandler handler;
        private final StreamEventListener listener;
        private final Queue<Object> events;
        private final MessageHeader header = new MessageHeader();
        private final UnsafeBuffer joined = new UnsafeBuffer(new byte[0]);
        private int joinedLength;

        RecordReader(MessageBytesHandler handler, StreamEventListener listener, Queue<Object> events) {
            this.handler = handler;
            this.listener = listener;
            this.events = events;
        }

        @Override
        public void onMessage(int type, MutableDirectBuffer buffer, int index, int length) {
            final int topicId = buffer.getInt(index + TOPIC_OFFSET);
            final int sessionId = buffer.getInt(index + SESSION_OFFSET);
            final long value = buffer.getLong(index + VALUE_OFFSET);
            final int bytes = length - RECORD_HEADER;
            switch (type) {
                case WHOLE -> handler.onMessage(buffer, index + RECORD_HEADER, bytes,
                    header.set(topicId, sessionId, value, buffer.getLong(index + SEQUENCE_OFFSET)));
                case FIRST_PIECE, MIDDLE_PIECE -> join(type == FIRST_PIECE, buffer, index + RECORD_HEADER, bytes);
                case LAST_PIECE -> {
                    join(false, buffer, index + RECORD_HEADER, bytes);
                    handler.onMessage(joined, 0, joinedLength,
                        header.set(topicId, sessionId, value, buffer.getLong(index + SEQUENCE_OFFSET)));
                }
                case STREAM_STARTED -> listener.onStreamStarted(new StreamStarted(topicId, sessionId, value));
                default -> {
                    final Object event = events.poll();
                    if (event instanceof LossEvent loss) {
                        listener.onLoss(loss);
                    } else if (event instanceof PublisherGone gone) {
                        listener.onPublisherGone(gone);
                    } else if (event instanceof LineDown down) {
                        listener.onLineDown(down);
                    } else if (event instanceof LineUp up) {
                        listener.onLineUp(up);
                    } else if (event instanceof RecoveryStarted recovery) {
                        listener.onRecoveryStarted(recovery);
                    } else if (event instanceof StreamRefused refused) {
                        listener.onStreamRefused(refused);
                    }
                }
            }
        }

        private void join(boolean first, DirectBuffer buffer, int offset, int length) {
            if (first) {
                joinedLength = 0;
            }
            if (joinedLength + length > joined.capacity()) {
                final byte[] grown = new byte[Math.max(joinedLength + length, 2 * joined.capacity())];
                joined.getBytes(0, grown, 0, joinedLength);
                joined.wrap(grown);
            }
            joined.putBytes(joinedLength, buffer, offset, length);
            joinedLength += length;
        }
    }
}
