package org.nakcast.transport.receive;

import static org.assertj.core.api.Assertions.assertThat;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.nakcast.config.DeliveryQueueSize;
import org.nakcast.transport.MessageHeader;
import org.nakcast.transport.StreamEventListener;
import org.nakcast.transport.protocol.MessageFrame;
import org.junit.jupiter.api.Test;

/**
 * A polled subscription's queue carries what the config's rule promises ({@link DeliveryQueueSize}),
 * and what it takes arrives whole, wherever its ring stands: a long message travels in pieces, and
 * the piece that meets the ring's end leaves the rest of it unused.
 */
class QueuedDeliveryCapacityTest {
    /** Places in the ring each queue is tried at: the queue is moved on by a different amount before each. */
    private static final int PLACES = 64;
    private static final MessageHeader HEADER = new MessageHeader().set(3, 77, 9, 4);
    /** Delivery queues of many sizes, powers of two and not, up to the default. */
    private static final long[] QUEUE_BYTES = {4096, 8191, 64 * 1024, 100_000, 1 << 20, 4 << 20};
    /** Datagram sizes from the smallest a transport may have to the largest. */
    private static final int[] DATAGRAM_LENGTHS = {64, 127, 1408, 8192, 65_507};

    @Test
    void anEmptyQueueCarriesTheLongestMessageTheConfigAllowsWhereverItsRingStands() {
        for (long queueBytes : QUEUE_BYTES) {
            for (int datagram : DATAGRAM_LENGTHS) {
                if (queueBytes < (long) DeliveryQueueSize.MIN_DATAGRAMS * datagram) {
                    continue; // conclude() refuses the topic
                }
                final int longest = (int) DeliveryQueueSize.largestMessage(queueBytes, datagram);
                final Delivered delivered = new Delivered();
                final QueuedDelivery queue = new QueuedDelivery(queueBytes, delivered, StreamEventListener.NONE);
                final UnsafeBuffer message = numbered(longest);
                for (int place = 0; place < PLACES; place++) {
                    moveOn(queue, delivered, place);

                    assertThat(queue.hasRoomFor(datagram, longest))
                        .as("room for %d bytes in a queue of %d beside a datagram of %d", longest, queueBytes, datagram)
                        .isTrue();
                    assertThat(queue.offer(message, 0, longest, HEADER)).isTrue();
                    assertArrivesWhole(queue, delivered, message);
                }
            }
        }
    }

    @Test
    void theSmallestQueueTheConfigAllowsTakesADatagramOfTheSmallestMessages() {
        final UnsafeBuffer empty = new UnsafeBuffer(new byte[0]);
        for (int datagram : DATAGRAM_LENGTHS) {
            final int messages = datagram / MessageFrame.FRAME_HEADER_LENGTH;
            final Delivered delivered = new Delivered();
            final QueuedDelivery queue = new QueuedDelivery(
                (long) DeliveryQueueSize.MIN_DATAGRAMS * datagram, delivered, StreamEventListener.NONE);
            for (int place = 0; place < PLACES; place++) {
                moveOn(queue, delivered, place);

                assertThat(queue.hasRoomFor(datagram, 0)).as("room for a datagram of %d", datagram).isTrue();
                for (int i = 0; i < messages; i++) {
                    assertThat(queue.offer(empty, 0, 0, HEADER)).isTrue();
                }
                takeAll(queue);
                assertThat(delivered.count).isEqualTo(messages);
            }
        }
    }

    @Test
    void theLongestMessageAnEmptyQueueHasRoomForArrivesWholeWhereverItsRingStands() {
        for (int queueBytes : new int[] {4096, 64 * 1024, 1 << 20}) {
            final Delivered delivered = new Delivered();
            final QueuedDelivery queue = new QueuedDelivery(queueBytes, delivered, StreamEventListener.NONE);
            for (int place = 0; place < PLACES; place++) {
                moveOn(queue, delivered, place);
                final int longest = longestWithRoom(queue, 64);
                final UnsafeBuffer message = numbered(longest);

                assertThat(queue.offer(message, 0, longest, HEADER))
                    .as("%d bytes in a queue of %d", longest, queueBytes).isTrue();
                assertArrivesWhole(queue, delivered, message);
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

    /**
     * Moves the empty queue's ring on by a message whose length differs with {@code step}, taken at
     * once, and forgets it.
     */
    private static void moveOn(QueuedDelivery queue, Delivered delivered, int step) {
        final int length = step * 8 * 53 % (queue.capacity() / 2);
        assertThat(queue.offer(new UnsafeBuffer(new byte[length]), 0, length, HEADER)).isTrue();
        takeAll(queue);
        delivered.forget();
    }

    private static void assertArrivesWhole(QueuedDelivery queue, Delivered delivered, DirectBuffer message) {
        delivered.expect(message);
        takeAll(queue);
        assertThat(delivered.count).as("messages delivered").isOne();
        assertThat(delivered.unlike).as("messages unlike the %d bytes sent", message.capacity()).isZero();
        delivered.forget();
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

    /** Counts what the queue delivers, and the messages unlike the one expected. */
    private static final class Delivered implements MessageBytesHandler {
        private final UnsafeBuffer received = new UnsafeBuffer(new byte[0]);
        private DirectBuffer expected;
        private int count;
        private int unlike;

        @Override
        public void onMessage(DirectBuffer buffer, int offset, int length, MessageHeader header) {
            count++;
            if (expected != null) {
                received.wrap(buffer, offset, length);
                unlike += received.compareTo(expected) == 0 ? 0 : 1;
            }
        }

        void expect(DirectBuffer message) {
            expected = message;
        }

        void forget() {
            expected = null;
            count = 0;
            unlike = 0;
        }
    }
}
