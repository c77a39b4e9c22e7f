package org.nakcast.examples;

import java.io.IOException;
import java.io.InputStream;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.nakcast.codecs.CodecException;
import org.nakcast.codecs.sample.Instrument;
import org.nakcast.codecs.sample.Order;
import org.nakcast.codecs.sample.OrderLeg;
import org.nakcast.codecs.sample.Side;
import org.nakcast.codecs.sample.sbe.PriceUpdateDecoder;
import org.nakcast.codecs.sample.sbe.PriceUpdateEncoder;
import org.nakcast.config.NodeConfig;
import org.nakcast.transport.Delivery;
import org.nakcast.transport.FlyweightHandlers;
import org.nakcast.transport.FlyweightPublication;
import org.nakcast.transport.LossEvent;
import org.nakcast.transport.MessageHeader;
import org.nakcast.transport.Node;
import org.nakcast.transport.OfferResult;
import org.nakcast.transport.Offers;
import org.nakcast.transport.StreamEventListener;
import org.nakcast.transport.TypedPublication;

/**
 * Several topics, each with its own codec, in one node: {@code prices} as SBE flyweights,
 * {@code orders} as objects through FST, {@code trades} as records through Java serialization. The
 * config is a YAML file shipped with this example ({@code org/nakcast/examples/several-topics.yaml}
 * on the class path), loaded as a service would load its own. Code names a topic and its message
 * class; which codec carries it is the config's business, and a class the topic's codec cannot
 * carry fails at {@code newTypedPublication()} or {@code newTypedSubscription()}, not in the send loop.
 *
 * <p>A gateway node publishes on all three topics; a risk node subscribes to all three, with one
 * {@link StreamEventListener} for every topic (events carry the topic id). Within a topic messages
 * keep their order; across topics there is no order: each topic is a stream of its own.
 *
 * <pre>
 *   ops/example SeveralTopicsOneNode [price updates, default 100000; one order and one trade per ten]
 * </pre>
 */
public final class SeveralTopicsOneNode {
    /** Where the example's config is on the class path. */
    public static final String CONFIG_RESOURCE = "org/nakcast/examples/several-topics.yaml";
    private static final int PRICES_PER_ORDER = 10;

    private SeveralTopicsOneNode() {
    }

    /**
     * A trade, carried as a record by the JDK codec.
     *
     * @param tradeId the trade's id
     * @param orderId the order it filled
     * @param mnemonic the instrument
     * @param qty how much
     * @param price at what price
     */
    public record Trade(long tradeId, long orderId, String mnemonic, int qty, double price) implements Serializable {
    }

    /**
     * What the risk node received, per topic.
     *
     * @param codecs each topic's codec, as the config names it
     * @param published messages published per topic
     * @param received messages received per topic
     * @param lastTradePublished the gateway's last trade
     * @param lastTradeReceived the risk node's last trade
     * @param undecodable messages a codec refused (none expected)
     * @param lossEvents loss events (none expected)
     */
    public record Result(Map<String, String> codecs, Map<String, Long> published, Map<String, Long> received,
        Trade lastTradePublished, Trade lastTradeReceived, long undecodable, long lossEvents) {
        /** @return whether every topic's messages all arrived, and nothing was refused or lost */
        public boolean everythingArrived() {
            return published.equals(received) && lastTradePublished.equals(lastTradeReceived)
                && undecodable == 0 && lossEvents == 0;
        }
    }

    /**
     * Runs the example, printing what the risk node received.
     *
     * @param args optional: the number of price updates
     */
    public static void main(String[] args) {
        final Result result = run(Examples.intArg(args, 0, 100_000));
        result.codecs().forEach((topic, codec) -> System.out.printf("%-7s (%s): %,d of %,d%n",
            topic, codec, result.received().get(topic), result.published().get(topic)));
        System.out.println("last trade: " + result.lastTradeReceived() + "; undecodable " + result.undecodable()
            + ", loss events " + result.lossEvents());
    }

    /** The example's config, read from the class path. */
    public static NodeConfig config() {
        try (InputStream in = SeveralTopicsOneNode.class.getClassLoader().getResourceAsStream(CONFIG_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(CONFIG_RESOURCE + " is missing from the class path");
            }
            return NodeConfig.parse(
                new String(in.readAllBytes(), StandardCharsets.UTF_8), "classpath:" + CONFIG_RESOURCE);
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * Publishes {@code priceUpdates} prices, and an order and a trade every ten, and waits (at most
     * 30 seconds) until the risk node has them all.
     *
     * @return what was published and received, per topic
     */
    public static Result run(int priceUpdates) {
        final NodeConfig config = config();
        final int orders = priceUpdates / PRICES_PER_ORDER;
        try (Node riskNode = Node.launch(config.withNodeName("risk"));
            Node gatewayNode = Node.launch(config.withNodeName("gateway"))) {
            final Risk risk = new Risk();
            final FlyweightHandlers priceHandlers = new FlyweightHandlers().on(PriceUpdateDecoder.class, risk::onPrice);
            riskNode.newFlyweightSubscription("prices", priceHandlers, risk, Delivery.ON_RECEIVING_THREAD);
            riskNode.newTypedSubscription("orders", Order.class, risk::onOrder, risk, Delivery.ON_RECEIVING_THREAD);
            riskNode.newTypedSubscription("trades", Trade.class, risk::onTrade, risk, Delivery.ON_RECEIVING_THREAD);

            final Trade lastTrade = publish(gatewayNode, priceUpdates);

            Examples.await(() -> risk.trades >= orders && risk.orders >= orders && risk.prices >= priceUpdates,
                Duration.ofSeconds(30));
            final Map<String, String> codecs = new LinkedHashMap<>();
            config.topics().forEach(topic -> codecs.put(topic.name(), topic.codec()));
            final Trade lastReceived = risk.lastTrade;
            return new Result(codecs, perTopic(priceUpdates, orders, orders),
                perTopic(risk.prices, risk.orders, risk.trades), lastTrade, lastReceived, risk.undecodable,
                risk.lossEvents);
        }
    }

    /** Publishes on all three topics; returns the last trade. */
    private static Trade publish(Node node, int priceUpdates) {
        final FlyweightPublication prices =
            node.newFlyweightPublication("prices", PriceUpdateEncoder.class);
        final TypedPublication<Order> orders = node.newTypedPublication("orders", Order.class);
        final TypedPublication<Trade> trades = node.newTypedPublication("trades", Trade.class);
        final IdleStrategy idle = new BackoffIdleStrategy();
        final LongSupplier offerPrice = prices::offer;
        Trade trade = null;
        for (int i = 0; i < priceUpdates; i++) {
            final double price = 1.0825 + (i % 100) * 0.0001;
            prices.stage(PriceUpdateEncoder.class).qty(1_000_000).price(price)
                .instrument().instrumentId(42).mnemonic("EURUSD");
            if (!OfferResult.isTaken(Offers.offer(offerPrice, idle))) {
                throw new IllegalStateException(prices.lastRefusal());
            }
            if (i % PRICES_PER_ORDER == PRICES_PER_ORDER - 1) {
                final long orderId = i / PRICES_PER_ORDER;
                final Order order = new Order(orderId, System.currentTimeMillis() * 1_000_000L,
                    List.of(new OrderLeg(new Instrument(42, "EURUSD"), Side.BUY, 100, price)));
                if (!OfferResult.isTaken(Offers.offer(() -> orders.offer(order), idle))) {
                    throw new IllegalStateException(orders.lastRefusal());
                }
                final Trade filled = new Trade(500_000 + orderId, orderId, "EURUSD", 100, price);
                if (!OfferResult.isTaken(Offers.offer(() -> trades.offer(filled), idle))) {
                    throw new IllegalStateException(trades.lastRefusal());
                }
                trade = filled;
            }
        }
        return trade;
    }

    private static Map<String, Long> perTopic(long prices, long orders, long trades) {
        final Map<String, Long> counts = new LinkedHashMap<>();
        counts.put("prices", prices);
        counts.put("orders", orders);
        counts.put("trades", trades);
        return counts;
    }

    /**
     * The risk node's view: every listener runs on the node's one receiving thread, so they share
     * state without locks; the fields are volatile only for the thread that waits on them.
     */
    private static final class Risk implements StreamEventListener {
        private volatile long prices;
        private volatile long orders;
        private volatile long trades;
        private volatile long undecodable;
        private volatile long lossEvents;
        private volatile Trade lastTrade;

        void onPrice(PriceUpdateDecoder update, MessageHeader header) {
            prices++;
        }

        void onOrder(Order order, MessageHeader header) {
            orders++;
        }

        void onTrade(Trade trade, MessageHeader header) {
            lastTrade = trade;
            trades++;
        }

        @Override
        public void onUndecodable(MessageHeader header, CodecException error) {
            undecodable++;
        }

        @Override
        public void onLoss(LossEvent event) {
            lossEvents++;
        }
    }
}
