package org.nakcast.benchmarks.throughput;

import java.nio.ByteBuffer;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.nakcast.config.TopicConfig;
import org.nakcast.transport.Delivery;
import org.nakcast.transport.MessageHandler;
import org.nakcast.transport.MessageHeader;
import org.nakcast.transport.Node;
import org.nakcast.transport.BytePublication;

/**
 * Raw bytes, no codec: message n is {@code messageLength} bytes with n in the first eight
 * (little-endian), offered through the topic's {@link BytePublication}; the subscriber reads the
 * number back and checks the length. The topic is left as the configuration has it.
 *
 * @param messageLength bytes per message, at least eight
 */
record RawPayload(int messageLength) implements Payload {
    @Override
    public String name() {
        return RAW;
    }

    @Override
    public TopicConfig topic(TopicConfig base) {
        return base;
    }

    @Override
    public SequencedPublisher publish(Node node, String topic) {
        return new Publisher(node.newBytePublication(topic), messageLength);
    }

    @Override
    public void subscribe(Node node, String topic, DeliveryChecker checker) {
        node.newByteSubscription(topic, new Handler(checker, messageLength), checker, Delivery.ON_RECEIVING_THREAD);
    }

    /** Writes the number into one pre-allocated direct buffer and offers its bytes. */
    private static final class Publisher implements SequencedPublisher {
        private final BytePublication publication;
        private final UnsafeBuffer message;
        private final int length;

        Publisher(BytePublication publication, int length) {
            this.publication = publication;
            this.message = new UnsafeBuffer(ByteBuffer.allocateDirect(length));
            this.length = length;
        }

        @Override
        public long offer(long sequence) {
            message.putLong(0, sequence);
            return publication.offer(message, 0, length);
        }
    }

    /** Reads the number from the first eight bytes; a message of another length is not intact. */
    private static final class Handler implements MessageHandler<DirectBuffer> {
        private final DeliveryChecker checker;
        private final int length;

        Handler(DeliveryChecker checker, int length) {
            this.checker = checker;
            this.length = length;
        }

        @Override
        public void onMessage(DirectBuffer message, MessageHeader header) {
            checker.onMessage(message.getLong(0), message.capacity() == length, header);
        }
    }
}
