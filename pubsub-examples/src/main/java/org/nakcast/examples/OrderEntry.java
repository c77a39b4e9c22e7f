package org.nakcast.examples;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.nakcast.codecs.CodecNames;
import org.nakcast.codecs.sample.Instrument;
import org.nakcast.codecs.sample.Order;
import org.nakcast.codecs.sample.OrderLeg;
import org.nakcast.codecs.sample.Side;
import org.nakcast.config.NodeConfig;
import org.nakcast.config.ThreadingMode;
import org.nakcast.config.TopicConfig;
import org.nakcast.transport.Delivery;
import org.nakcast.transport.MessageHeader;
import org.nakcast.transport.Node;
import org.nakcast.transport.OfferResult;
import org.nakcast.transport.Offers;
import org.nakcast.transport.TypedPublication;
import org.nakcast.transport.StreamEventListener;

/**
 * Request and response over two topics: a client publishes {@link Order}s on {@code orders} (FST,
 * from the embedded default config), an exchange receives them and answers each with an
 * {@link OrderAck} on {@code order-acks}, a third topic added in code (Kryo, the ack's class on
 * its allow-list). Multicast has no reply address: the client tells its answers apart by order id,
 * which it remembers until the ack comes.
 *
 * <p>The exchange runs its node in threading mode {@code invoker}: one thread of its own does the
 * node's work ({@link Node#doWork()}), reads orders (the listener runs inside {@code doWork}),
 * decides, and publishes acks. An ack that meets back-pressure waits in a queue for the next round,
 * after {@code doWork} has sent what was in the way; a listener that waited on back-pressure
 * instead would wait for itself. The client uses the default, threading {@code shared}: its acks
 * arrive on the node's thread while the application thread sends orders.
 *
 * <p>The exchange rejects an order with a leg over {@value #MAX_LEG_QTY}; the client sends one such
 * order in every ten.
 *
 * <pre>
 *   ops/example OrderEntry [orders, default 10000]
 * </pre>
 */
public final class OrderEntry {
    /** The largest quantity per leg the exchange accepts. */
    public static final int MAX_LEG_QTY = 1_000_000;
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private OrderEntry() {
    }

    /**
     * The exchange's answer to one order.
     *
     * @param orderId the order answered: how the client finds its request
     * @param accepted whether the exchange took it
     * @param reason why not, or empty
     * @param legs how many legs the exchange read
     */
    public record OrderAck(long orderId, boolean accepted, String reason, int legs) {
    }

    /**
     * What the client saw.
     *
     * @param sent orders the client published
     * @param received orders the exchange received
     * @param acked acks the client matched to an order it was waiting for
     * @param accepted acks saying accepted
     * @param rejected acks saying rejected
     * @param unmatched acks for no order the client was waiting for (none expected)
     * @param stillPending orders without an ack at the end
     */
    public record Result(
        long sent, long received, long acked, long accepted, long rejected, long unmatched, int stillPending) {
    }

    /**
     * Runs the example, printing what the client saw.
     *
     * @param args optional: the number of orders
     */
    public static void main(String[] args) {
        final Result result = run(Examples.intArg(args, 0, 10_000));
        System.out.printf("client sent %,d orders, exchange received %,d; %,d acks matched by order id "
            + "(%,d accepted, %,d rejected), %d unmatched, %d without an ack%n", result.sent(), result.received(),
            result.acked(), result.accepted(), result.rejected(), result.unmatched(), result.stillPending());
    }

    /**
     * The embedded default config plus topic {@code order-acks}: id 3, on the same transport,
     * Kryo, allowed to decode {@link OrderAck} only.
     */
    public static NodeConfig config() {
        final NodeConfig base = NodeConfig.embeddedDefault();
        final String transport = base.topic("orders").lines().get(0);
        return Examples.withTopics(base, new TopicConfig("order-acks", 3, transport, CodecNames.KRYO)
            .withAllowedClasses(List.of(OrderAck.class.getName())));
    }

    /**
     * Sends {@code orders} orders and waits (at most 30 seconds) for every ack.
     *
     * @return what the client saw
     */
    public static Result run(int orders) {
        final NodeConfig config = config();
        final NodeConfig exchangeConfig = new NodeConfig(config.node().withThreading(ThreadingMode.INVOKER),
            config.transports(), config.topics()).withNodeName("exchange");
        try (Node exchangeNode = Node.launch(exchangeConfig);
            Exchange exchange = new Exchange(exchangeNode);
            Node clientNode = Node.launch(config.withNodeName("client"))) {
            final Client client = new Client(clientNode);
            exchange.start();
            client.send(orders);
            Examples.await(() -> client.pending.isEmpty(), TIMEOUT);
            return new Result(orders, exchange.received.get(), client.acked.get(), client.accepted.get(),
                client.rejected.get(), client.unmatched.get(), client.pending.size());
        }
    }

    /** The client: publishes orders, remembers each until its ack comes back. */
    private static final class Client {
        private final TypedPublication<Order> orders;
        private final Map<Long, Order> pending = new ConcurrentHashMap<>();
        private final AtomicLong acked = new AtomicLong();
        private final AtomicLong accepted = new AtomicLong();
        private final AtomicLong rejected = new AtomicLong();
        private final AtomicLong unmatched = new AtomicLong();

        Client(Node node) {
            this.orders = node.newTypedPublication("orders", Order.class);
            node.newTypedSubscription("order-acks", OrderAck.class, this::onAck, StreamEventListener.NONE,
                Delivery.ON_RECEIVING_THREAD);
        }

        void send(int count) {
            final IdleStrategy idle = new BackoffIdleStrategy();
            for (int i = 0; i < count; i++) {
                final long orderId = 1_000_000L + i;
                final int qty = i % 10 == 9 ? MAX_LEG_QTY + 1 : 100 + i % 500;
                final Order order = new Order(orderId, System.currentTimeMillis() * 1_000_000L, List.of(
                    new OrderLeg(new Instrument(42, "EURUSD"), Side.BUY, qty, 1.0825),
                    new OrderLeg(new Instrument(43, "USDJPY"), Side.SELL, 100, 151.37)));
                pending.put(orderId, order);   // before the offer: the ack may come back at once
                if (!OfferResult.isTaken(Offers.offer(() -> orders.offer(order), idle))) {
                    throw new IllegalStateException(orders.lastRefusal());
                }
            }
        }

        /** On the client node's thread. */
        private void onAck(OrderAck ack, MessageHeader header) {
            if (pending.remove(ack.orderId()) == null) {
                unmatched.incrementAndGet();
                return;
            }
            acked.incrementAndGet();
            (ack.accepted() ? accepted : rejected).incrementAndGet();
        }
    }

    /**
     * The exchange: one thread runs the node and the matching logic. Nothing here is shared with
     * another thread but the count of orders received and the running flag.
     */
    private static final class Exchange implements AutoCloseable, Runnable {
        private final Node node;
        private final TypedPublication<OrderAck> acks;
        private final ArrayDeque<OrderAck> toSend = new ArrayDeque<>();
        private final AtomicLong received = new AtomicLong();
        private final Thread thread = new Thread(this, "exchange");
        private volatile boolean running = true;

        Exchange(Node node) {
            this.node = node;
            this.acks = node.newTypedPublication("order-acks", OrderAck.class);
            node.newTypedSubscription("orders", Order.class, this::onOrder, StreamEventListener.NONE,
                Delivery.ON_RECEIVING_THREAD);
        }

        void start() {
            thread.setDaemon(true);
            thread.start();
        }

        @Override
        public void run() {
            final IdleStrategy idle = new BackoffIdleStrategy();
            while (running) {
                final int work = node.doWork() + sendAcks();
                idle.idle(work);
            }
        }

        /** Inside {@link Node#doWork()}: decide, and queue the answer. */
        private void onOrder(Order order, MessageHeader header) {
            received.incrementAndGet();
            String reason = "";
            for (OrderLeg leg : order.legs()) {
                if (leg.qty() <= 0 || leg.qty() > MAX_LEG_QTY) {
                    reason = "leg " + leg.instrument().mnemonic() + " qty " + leg.qty() + " outside 1.." + MAX_LEG_QTY;
                }
            }
            toSend.add(new OrderAck(order.orderId(), reason.isEmpty(), reason, order.legs().size()));
        }

        /**
         * Publishes queued acks until one is back-pressured, or refused as not connected (the
         * client's subscription to the acks is not heard yet: its first STATUS may come after its
         * first order, when it joined between two of the acks stream's heartbeats): it stays first
         * in the queue and goes once the client is heard.
         */
        private int sendAcks() {
            int sent = 0;
            OrderAck ack;
            while ((ack = toSend.peek()) != null) {
                final long result = acks.offer(ack);
                if (result == OfferResult.BACK_PRESSURED || result == OfferResult.NOT_CONNECTED) {
                    break;
                }
                if (!OfferResult.isTaken(result)) {
                    throw new IllegalStateException(
                        "ack for order " + ack.orderId() + ": " + OfferResult.describe(result));
                }
                toSend.poll();
                sent++;
            }
            return sent;
        }

        @Override
        public void close() {
            running = false;
            try {
                thread.join(TIMEOUT.toMillis());
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
