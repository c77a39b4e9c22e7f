package org.nakcast.transport;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.nakcast.transport.receive.DeliveryGate;

/**
 * Hands one subscription's messages and events from the receiving thread to whichever thread
 * polls it (topic {@code delivery: queue}), in the order they happened, through a bounded ring.
 *
 * <pre>
 * ring record (type 1 message, 2 stream started, 3 event marker):
 *   +----------------+------------------+--------------------------------------+----------------+
 *   | topic id (4)   | session id (4)   | message index / first sequence (8)   | message bytes  |
 *   +----------------+------------------+--------------------------------------+----------------+
 * </pre>
 *
 * <p>Loss and publisher-gone events are rare: they travel as objects in a side queue, and a marker
 * record keeps their place among the messages. The gate stays shut while the ring might not hold
 * every message of the next datagram, so the stream waits rather than a message being dropped; a
 * record that still finds the ring full (the last piece of a long reassembled message) is held,
 * in order, until the poller makes room. Nothing is dropped here.
 */
public final class QueuedDelivery implements MessageHandler, StreamEventListener, DeliveryGate {
    private static final int MESSAGE = 1;
    private static final int STREAM_STARTED = 2;
    private static final int EVENT = 3;
    private static final int TOPIC_OFFSET = 0;
    private static final int SESSION_OFFSET = 4;
    private static final int VALUE_OFFSET = 8;
    private static final int RECORD_HEADER = 16;
    /** Ring bytes a datagram's messages may take, per datagram byte: many tiny messages cost most. */
    private static final int WORST_CASE_EXPANSION = 9;

    private final RingBuffer ring;
    private final UnsafeBuffer scratch = new UnsafeBuffer(ByteBuffer.allocateDirect(RECORD_HEADER));
    private final ArrayDeque<Held> held = new ArrayDeque<>();
    private final Queue<Object> events = new ConcurrentLinkedQueue<>();
    private final RecordReader reader;

    /**
     * @param bytes the ring's size, rounded down to a power of two
     * @param handler gets the messages on the polling thread
     * @param listener gets the events on the polling thread
     */
    public QueuedDelivery(long bytes, MessageHandler handler, StreamEventListener listener) {
        final int capacity = Integer.highestOneBit((int) Math.min(bytes, 1 << 30));
        this.ring = new OneToOneRingBuffer(new UnsafeBuffer(
            ByteBuffer.allocateDirect(capacity + RingBufferDescriptor.TRAILER_LENGTH)));
        this.reader = new RecordReader(handler, listener, events);
    }

    /** Bytes the ring holds. */
    public int capacity() {
        return ring.capacity();
    }

    /** Delivers up to {@code limit} queued messages and events on the caller's thread. */
    public int poll(int limit) {
        return ring.read(reader, limit);
    }

    @Override
    public boolean canTake(int datagramLength) {
        return releaseHeld()
            && ring.capacity() - ring.size() >= (long) WORST_CASE_EXPANSION * datagramLength + 4 * RECORD_HEADER;
    }

    @Override
    public void onMessage(DirectBuffer buffer, int offset, int length, MessageHeader from) {
        final int index = held.isEmpty() ? ring.tryClaim(MESSAGE, RECORD_HEADER + length) : -1;
        if (index < 0) {
            final UnsafeBuffer copy = new UnsafeBuffer(new byte[RECORD_HEADER + length]);
            writeHeader(copy, 0, from.topicId(), from.sessionId(), from.messageIndex());
            copy.putBytes(RECORD_HEADER, buffer, offset, length);
            held.add(new Held(MESSAGE, copy));
            return;
        }
        final MutableDirectBuffer target = ring.buffer();
        writeHeader(target, index, from.topicId(), from.sessionId(), from.messageIndex());
        target.putBytes(index + RECORD_HEADER, buffer, offset, length);
        ring.commit(index);
    }

    @Override
    public void onStreamStarted(int topicId, int sessionId, long firstSequence) {
        writeOrHold(STREAM_STARTED, topicId, sessionId, firstSequence);
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

    private void writeOrHold(int type, int topicId, int sessionId, long value) {
        writeHeader(scratch, 0, topicId, sessionId, value);
        if (!held.isEmpty() || !ring.write(type, scratch, 0, RECORD_HEADER)) {
            final UnsafeBuffer copy = new UnsafeBuffer(new byte[RECORD_HEADER]);
            copy.putBytes(0, scratch, 0, RECORD_HEADER);
            held.add(new Held(type, copy));
        }
    }

    /** Moves held records into the ring, oldest first; true when none is left. */
    private boolean releaseHeld() {
        while (!held.isEmpty()) {
            final Held record = held.peek();
            if (!ring.write(record.type, record.bytes, 0, record.bytes.capacity())) {
                return false;
            }
            held.poll();
        }
        return true;
    }

    private static void writeHeader(MutableDirectBuffer target, int index, int topicId, int sessionId, long value) {
        target.putInt(index + TOPIC_OFFSET, topicId);
        target.putInt(index + SESSION_OFFSET, sessionId);
        target.putLong(index + VALUE_OFFSET, value);
    }

    /** A record that found the ring full. */
    private record Held(int type, UnsafeBuffer bytes) {
    }

    /** Turns ring records back into callbacks, on the polling thread. */
    private static final class RecordReader implements org.agrona.concurrent.MessageHandler {
        private final MessageHandler handler;
        private final StreamEventListener listener;
        private final Queue<Object> events;
        private final MessageHeader header = new MessageHeader();

        RecordReader(MessageHandler handler, StreamEventListener listener, Queue<Object> events) {
            this.handler = handler;
            this.listener = listener;
            this.events = events;
        }

        @Override
        public void onMessage(int type, MutableDirectBuffer buffer, int index, int length) {
            final int topicId = buffer.getInt(index + TOPIC_OFFSET);
            final int sessionId = buffer.getInt(index + SESSION_OFFSET);
            final long value = buffer.getLong(index + VALUE_OFFSET);
            if (type == MESSAGE) {
                handler.onMessage(buffer, index + RECORD_HEADER, length - RECORD_HEADER,
                    header.set(topicId, sessionId, value));
            } else if (type == STREAM_STARTED) {
                listener.onStreamStarted(topicId, sessionId, value);
            } else {
                final Object event = events.poll();
                if (event instanceof LossEvent loss) {
                    listener.onLoss(loss);
                } else if (event instanceof PublisherGone gone) {
                    listener.onPublisherGone(gone);
                }
            }
        }
    }
}
