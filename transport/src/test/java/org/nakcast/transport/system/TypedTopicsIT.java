package org.nakcast.transport.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.nakcast.codecs.CodecException;
import org.nakcast.codecs.sample.Order;
import org.nakcast.codecs.sample.PriceUpdate;
import org.nakcast.codecs.sample.SampleMessages;
import org.nakcast.codecs.sample.sbe.InstrumentDecoder;
import org.nakcast.codecs.sample.sbe.InstrumentEncoder;
import org.nakcast.codecs.sample.sbe.OrderDecoder;
import org.nakcast.codecs.sample.sbe.OrderEncoder;
import org.nakcast.codecs.sample.sbe.PriceUpdateDecoder;
import org.nakcast.codecs.sample.sbe.PriceUpdateEncoder;
import org.nakcast.config.NodeConfig;
import org.nakcast.transport.Delivery;
import org.nakcast.transport.FlyweightHandlers;
import org.nakcast.transport.FlyweightPublication;
import org.nakcast.transport.MessageHeader;
import org.nakcast.transport.Node;
import org.nakcast.transport.TypedPublication;
import org.nakcast.transport.StreamEventListener;
import org.nakcast.transport.TransportException;
import org.nakcast.transport.status.SystemCounter;

/**
 * Typed topics of the embedded default config: {@code prices} (flyweight) through the zero-copy
 * claim and decoder path, {@code orders} (FST) as objects; and what happens when the classes do
 * not fit the topic's codec or its allowed classes, or the bytes do not decode.
 */
class TypedTopicsIT {
    private static final int COUNT = 10_000;
    /** Spins between offers: the tests' publishers wait out back-pressure and the first receiver. */
    private static final IdleStrategy BUSY = new BusySpinIdleStrategy();

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void flyweightPricesAreWrittenInPlaceAndReadFromTheDatagram() throws InterruptedException {
        final long[] received = new long[2];
        try (Node publisherNode = Node.launch(NodeConfig.embeddedDefault());
            Node subscriberNode = Node.launch(NodeConfig.embeddedDefault())) {
            subscriberNode.newFlyweightSubscription("prices", new FlyweightHandlers().on(PriceUpdateDecoder.class,
                (price, header) -> {
                    if (price.qty() == received[0] && price.instrument().instrumentId() == 42) {
                        received[1]++;
                    }
                    received[0]++;
                }), StreamEventListener.NONE, Delivery.ON_RECEIVING_THREAD);
            final FlyweightPublication prices = publisherNode.newFlyweightPublication("prices",
                PriceUpdateEncoder.class);

            for (int i = 0; i < COUNT; i++) {
                final PriceUpdateEncoder price = prices.stage(PriceUpdateEncoder.class);
                price.instrument().instrumentId(42).mnemonic("EURUSD");
                price.qty(i).price(1.0825);
                assertThat(UntilTaken.offer(prices::offer, BUSY)).isPositive();
            }
            awaitCount(received, COUNT);
        }
        assertThat(received[1]).as("messages with the fields as written, in order").isEqualTo(COUNT);
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void ordersTravelAsObjectsThroughTheTopicsCodec() throws InterruptedException {
        final Order sample = (Order) SampleMessages.sampleOrder("fst");
        final List<Order> received = new CopyOnWriteArrayList<>();
        try (Node publisherNode = Node.launch(NodeConfig.embeddedDefault());
            Node subscriberNode = Node.launch(NodeConfig.embeddedDefault())) {
            subscriberNode.newTypedSubscription("orders", Order.class, (order, header) -> received.add(order),
                StreamEventListener.NONE, Delivery.ON_RECEIVING_THREAD);
            final TypedPublication<Order> orders = publisherNode.newTypedPublication("orders", Order.class);

            for (int i = 0; i < 100; i++) {
                assertThat(UntilTaken.offer(() -> orders.offer(sample), BUSY)).isPositive();
            }
            awaitSize(received, 100);
        }
        assertThat(received).hasSize(100).allSatisfy(order -> assertThat(order).isEqualTo(sample));
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void aMessageTheCodecCannotDecodeIsReportedAndDeliveryGoesOn() throws InterruptedException {
        final Order sample = (Order) SampleMessages.sampleOrder("fst");
        final List<Order> received = new CopyOnWriteArrayList<>();
        final List<CodecException> undecodable = new CopyOnWriteArrayList<>();
        try (Node publisherNode = Node.launch(NodeConfig.embeddedDefault());
            Node subscriberNode = Node.launch(NodeConfig.embeddedDefault())) {
            subscriberNode.newTypedSubscription("orders", Order.class, (order, header) -> received.add(order),
                new StreamEventListener() {
                    @Override
                    public void onUndecodable(MessageHeader header, CodecException error) {
                        undecodable.add(error);
                    }
                }, Delivery.ON_RECEIVING_THREAD);
            final TypedPublication<Order> orders = publisherNode.newTypedPublication("orders", Order.class);
            final UnsafeBuffer garbage = new UnsafeBuffer(ByteBuffer.allocateDirect(40));
            garbage.setMemory(0, 40, (byte) 0x7F);

            assertThat(UntilTaken.offer(() -> orders.bytePublication().offer(garbage, 0, 40), BUSY)).isPositive();
            assertThat(orders.offer(sample)).isPositive();
            awaitSize(received, 1);

            assertThat(undecodable).hasSize(1);
            assertThat(subscriberNode.counters().get(SystemCounter.UNDECODABLE_MESSAGES).get()).isOne();
        }
        assertThat(received).containsExactly(sample);
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void oneFlyweightTopicCarriesSeveralMessageTypesInTheOrderTheyWereCommitted() throws InterruptedException {
        final List<String> received = new CopyOnWriteArrayList<>();
        final List<String> pricesOnly = new CopyOnWriteArrayList<>();
        final List<CodecException> undecodable = new CopyOnWriteArrayList<>();
        try (Node publisherNode = Node.launch(NodeConfig.embeddedDefault());
            Node subscriberNode = Node.launch(NodeConfig.embeddedDefault())) {
            subscriberNode.newFlyweightSubscription("prices", new FlyweightHandlers()
                    .on(PriceUpdateDecoder.class, (price, header) -> received.add("price " + price.qty()))
                    .on(OrderDecoder.class, (order, header) -> received.add("order " + order.orderId())),
                StreamEventListener.NONE, Delivery.ON_RECEIVING_THREAD);
            subscriberNode.newFlyweightSubscription("prices", new FlyweightHandlers()
                    .on(PriceUpdateDecoder.class, (price, header) -> pricesOnly.add("price " + price.qty())),
                new StreamEventListener() {
                    @Override
                    public void onUndecodable(MessageHeader header, CodecException error) {
                        undecodable.add(error);
                    }
                }, Delivery.ON_RECEIVING_THREAD);
            final FlyweightPublication prices =
                publisherNode.newFlyweightPublication("prices", PriceUpdateEncoder.class, OrderEncoder.class);

            for (int i = 0; i < 99; i++) {
                if (i % 3 == 0) {
                    prices.stage(OrderEncoder.class).orderId(i).legsCount(0);
                } else {
                    prices.stage(PriceUpdateEncoder.class).qty(i).instrument().instrumentId(1).mnemonic("EURUSD");
                }
                assertThat(UntilTaken.offer(prices::offer, BUSY)).isPositive();
            }
            awaitSize(received, 99);
            awaitSize(pricesOnly, 66);

            assertThat(received).as("each message to its type's handler, in the order committed")
                .containsExactlyElementsOf(IntStream.range(0, 99)
                    .mapToObj(i -> (i % 3 == 0 ? "order " : "price ") + i).toList());
            assertThat(undecodable).as("a type with no handler is reported, not delivered").hasSize(33);
            assertThatIllegalArgumentException().isThrownBy(() -> prices.stage(InstrumentEncoder.class))
                .withMessageContaining("was not made for " + InstrumentEncoder.class.getName());
        }
    }

    @Test
    void classesThatDoNotFitTheTopicsCodecFailAtPublicationAndSubscribe() {
        try (Node node = Node.launch(NodeConfig.embeddedDefault())) {
            assertThatThrownBy(() -> node.newTypedPublication("prices", String.class))
                .isInstanceOf(TransportException.class)
                .hasMessageContaining("topic 'prices'").hasMessageContaining("java.lang.String");
            assertThatThrownBy(() -> node.newFlyweightPublication("orders", PriceUpdateEncoder.class))
                .isInstanceOf(TransportException.class)
                .hasMessageContaining("codec 'fst' has no flyweight path");
            assertThatThrownBy(() -> node.newFlyweightSubscription("prices",
                new FlyweightHandlers().on(InstrumentDecoder.class, (decoder, header) -> { }),
                StreamEventListener.NONE, Delivery.ON_RECEIVING_THREAD))
                .isInstanceOf(TransportException.class)
                .hasMessageContaining(InstrumentDecoder.class.getName())
                .hasMessageContaining("no SBE binding");
            assertThatThrownBy(() -> node.newTypedPublication("quotes", PriceUpdate.class))
                .isInstanceOf(TransportException.class)
                .hasMessageContaining("quotes");
            assertThatThrownBy(() -> node.newTypedPublication("orders", PriceUpdate.class))
                .as("a class off the topic's list, which FST would number as a class on it")
                .isInstanceOf(TransportException.class)
                .hasMessageContaining("topic 'orders' (codec 'fst') cannot carry " + PriceUpdate.class.getName())
                .hasMessageContaining("not in the topic's allowed-classes [" + Order.class.getName());
            assertThatThrownBy(() -> node.newTypedSubscription("orders", PriceUpdate.class, (update, header) -> { },
                StreamEventListener.NONE, Delivery.ON_RECEIVING_THREAD))
                .isInstanceOf(TransportException.class)
                .hasMessageContaining("not in the topic's allowed-classes");
        }
    }

    private static void awaitCount(long[] received, long count) throws InterruptedException {
        final long deadlineMs = System.currentTimeMillis() + 10_000;
        while (received[0] < count && System.currentTimeMillis() < deadlineMs) {
            Thread.sleep(5);
        }
    }

    private static void awaitSize(List<?> received, int size) throws InterruptedException {
        final long deadlineMs = System.currentTimeMillis() + 10_000;
        while (received.size() < size && System.currentTimeMillis() < deadlineMs) {
            Thread.sleep(5);
        }
    }
}
