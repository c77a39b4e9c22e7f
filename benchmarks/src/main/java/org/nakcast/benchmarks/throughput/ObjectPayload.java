package org.nakcast.benchmarks.throughput;


import org.nakcast.codecs.CodecSpec;
import org.nakcast.codecs.sample.ExternalizablePriceUpdate;
import org.nakcast.codecs.sample.Instrument;
import org.nakcast.codecs.sample.PriceUpdate;
import org.nakcast.codecs.sample.SampleMessages;
import org.nakcast.config.TopicConfig;
import org.nakcast.transport.Delivery;
import org.nakcast.transport.MessageHeader;
import org.nakcast.transport.MessageHandler;
import org.nakcast.transport.Node;
import org.nakcast.transport.TypedPublication;

/**
 * An object codec ({@code fst}, {@code fst-unshared}, {@code jdk}, {@code jdk-externalizable},
 * {@code kryo}): the publisher offers one sample {@link PriceUpdate} object (carried in an
 * {@link ExternalizablePriceUpdate} for {@code jdk-externalizable}) with message n's number set
 * as its instrument id, and the topic's codec encodes it; the subscriber gets each message decoded
 * into a new object. The topic allows the message class and {@link Instrument}. The harness
 * allocates nothing; the codec decides what encoding and decoding allocate.
 *
 * @param name the codec's name
 */
record ObjectPayload(String name) implements Payload {
    @Override
    public TopicConfig topic(TopicConfig base) {
        return Payload.codecTopic(base, name, spec().classes().stream().map(Class::getName).toList());
    }

    @Override
    public SequencedPublisher publish(Node node, String topic) {
        @SuppressWarnings("unchecked") // the sample below is of this class
        final Class<Object> messageClass = (Class<Object>) spec().messageClass();
        final Object message = SampleMessages.samplePriceUpdate(name);
        return new Publisher(node.newTypedPublication(topic, messageClass), message);
    }

    @Override
    public void subscribe(Node node, String topic, DeliveryChecker checker) {
        node.newTypedSubscription(topic, spec().messageClass(), new Listener(checker), checker,
            Delivery.ON_RECEIVING_THREAD);
    }

    private CodecSpec<?> spec() {
        return SampleMessages.priceUpdateSpec(name);
    }

    /** The price update a message is or carries. */
    private static PriceUpdate priceUpdateOf(Object message) {
        return message instanceof ExternalizablePriceUpdate carrier ? carrier.update() : (PriceUpdate) message;
    }

    /** Sets the number into the one sample object and offers it. */
    private static final class Publisher implements SequencedPublisher {
        private final TypedPublication<Object> publication;
        private final Object message;
        private final Instrument instrument;

        Publisher(TypedPublication<Object> publication, Object message) {
            this.publication = publication;
            this.message = message;
            this.instrument = priceUpdateOf(message).instrument();
        }

        @Override
        public long offer(long sequence) {
            instrument.instrumentId(sequence);
            return publication.offer(message);
        }
    }

    /** Reads the number from the decoded instrument id; other fields must be the sample's. */
    private static final class Listener implements MessageHandler<Object> {
        private final DeliveryChecker checker;

        Listener(DeliveryChecker checker) {
            this.checker = checker;
        }

        @Override
        public void onMessage(Object message, MessageHeader header) {
            final PriceUpdate update = priceUpdateOf(message);
            checker.onMessage(update.instrument().instrumentId(), SamplePrice.matches(update.qty(), update.price()),
                header);
        }
    }
}
