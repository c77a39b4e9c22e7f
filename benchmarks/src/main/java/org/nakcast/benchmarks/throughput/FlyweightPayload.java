package org.nakcast.benchmarks.throughput;

import java.util.List;

import org.nakcast.benchmarks.codec.PriceUpdateFields;
import org.nakcast.codecs.CodecNames;
import org.nakcast.codecs.sample.sbe.PriceUpdateDecoder;
import org.nakcast.codecs.sample.sbe.PriceUpdateEncoder;
import org.nakcast.config.TopicConfig;
import org.nakcast.transport.Delivery;
import org.nakcast.transport.FlyweightHandlers;
import org.nakcast.transport.FlyweightPublication;
import org.nakcast.transport.MessageHeader;
import org.nakcast.transport.MessageHandler;
import org.nakcast.transport.Node;

/**
 * The {@code flyweight} codec's zero-copy path: the publisher claims the SBE
 * {@link PriceUpdateEncoder}, writes message n's fields in place (n as the instrument id) and
 * commits; the subscriber reads the {@link PriceUpdateDecoder} wrapped over the received datagram.
 * Neither makes an object.
 */
record FlyweightPayload() implements Payload {
    @Override
    public String name() {
        return CodecNames.FLYWEIGHT;
    }

    @Override
    public TopicConfig topic(TopicConfig base) {
        return Payload.codecTopic(base, CodecNames.FLYWEIGHT, List.of());
    }

    @Override
    public SequencedPublisher publish(Node node, String topic) {
        return new Publisher(node.newFlyweightPublication(topic, PriceUpdateEncoder.class));
    }

    @Override
    public void subscribe(Node node, String topic, DeliveryChecker checker) {
        node.newFlyweightSubscription(topic, new FlyweightHandlers().on(PriceUpdateDecoder.class,
            new Listener(checker)),
            checker, Delivery.ON_RECEIVING_THREAD);
    }

    /** Claims, writes the fields, commits. */
    private static final class Publisher implements SequencedPublisher {
        private final FlyweightPublication publication;

        Publisher(FlyweightPublication publication) {
            this.publication = publication;
        }

        @Override
        public long offer(long sequence) {
            PriceUpdateFields.write(publication.stage(PriceUpdateEncoder.class), sequence, SamplePrice.VALUES);
            return publication.offer();
        }
    }

    /** Reads the number from the instrument id; other fields must be the sample's. */
    private static final class Listener implements MessageHandler<PriceUpdateDecoder> {
        private final DeliveryChecker checker;

        Listener(DeliveryChecker checker) {
            this.checker = checker;
        }

        @Override
        public void onMessage(PriceUpdateDecoder update, MessageHeader header) {
            checker.onMessage(update.instrument().instrumentId(), SamplePrice.matches(update.qty(), update.price()),
                header);
        }
    }
}
