package org.nakcast.transport.receive;

import static org.assertj.core.api.Assertions.assertThat;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.nakcast.transport.MessageHeader;
import org.nakcast.transport.StreamEventListener;
import org.junit.jupiter.api.Test;

/**
 * What a polled subscription's queue takes arrives whole, wherever its ring stands: a long message
 * travels in pieces, and the piece that meets the ring's end leaves the rest of it unused.
 */
class QueuedDeliveryCapacityTest {
    /** Places in the ring each queue is tried at: the queue is moved on by a different amount before each. */
    private static final int PLACES = 96;
    private static final MessageHeader HEADER = new MessageHeader().set(3, 77, 9, 4);

    @Test
    void theLongestMessageAnEmptyQueueHasRoomForArrivesWholeWhereverItsRingStands() {
        for (int queueBytes : new int[] {4096, 64 * 1024, 1 << 20}) {
            final Delivered delivered = new Delivered();
            final QueuedDelivery queue = new QueuedDelivery(queueBytes, delivered, StreamEventListener.NONE);
            final UnsafeBuffer message = numbered(queueBytes);
            for (int place = 0; place < PLACES; place++) {
                moveOn(queue, delivered, place);
                final int longest = longestWithRoom(queue, 64);

                assertThat(queue.offer(message, 0, longest, HEADER))
                    .as("%d bytes in a queue of %d", longest, queueBytes).isTrue();
                assertArrivesWhole(queue, delivered, message, longest);
            }
        }
    }

    /** The longest message {@link QueuedDelivery#hasRoomFor} says the queue takes with a datagram of that length. */
    private static int longestWithRoom(QueuedDelivery queue, int datagramLength) {
        int fits = 0;
        int tooLong = queue.capacity() + 1;
        while (tooLong - fits > 1) {
            final int length = (fits + tooLong) >>> 1;
            if (queue.hasRoomFor(datagramLength, length)) {
                fits = length;
            } else {
                tooLong = length;
            }
        }
        return fits;
    }

    /** Moves the empty queue's ring on by a message of a length that differs with {@code step}, taken at once. */
    private static void moveOn(QueuedDelivery queue, Delivered delivered, int step) {
        final int length = step * 8 * 53 % (queue.capacity() / 2);
        assertThat(queue.offer(new UnsafeBuffer(new byte[length]), 0, length, HEADER)).isTrue();
        takeAll(queue);
        delivered.clear();
    }

    private static void assertArrivesWhole(
        QueuedDelivery queue, Delivered delivered, DirectBuffer message, int length) {
        takeAll(queue);
        final byte[] sent = new byte[length];
        message.getBytes(0, sent);
        assertThat(delivered.count).as("messages delivered").isOne();
        assertThat(delivered.bytes).as("the message of %d bytes", length).isEqualTo(sent);
        delivered.clear();
    }

    /** Polls everything queued: a poll stops at the ring's end, and a second takes what went on at its start. */
    private static void takeAll(QueuedDelivery queue) {
        queue.poll(Integer.MAX_VALUE);
        queue.poll(Integer.MAX_VALUE);
    }

    /** Bytes that tell where in a message they stand, so a piece lost or repeated shows. */
    private static UnsafeBuffer numbered(int length) {
        final UnsafeBuffer message = new UnsafeBuffer(new byte[length]);
        for (int i = 0; i + Integer.BYTES <= length; i += Integer.BYTES) {
            message.putInt(i, i);
        }
        return message;
    }

    /** What the queue delivered since it was last cleared. */
    private static final class Delivered implements MessageBytesHandler {
        private int count;
        private byte[] bytes;

        @Override
        public void onMessage(DirectBuffer buffer, int offset, int length, MessageHeader header) {
            count++;
            bytes = new byte[length];
            buffer.getBytes(offset, bytes);
        }

        void clear() {
            count = 0;
            bytes = null;
        }
    }
}
