package org.nakcast.examples;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.nakcast.codecs.sample.sbe.PriceUpdateDecoder;
import org.nakcast.codecs.sample.sbe.PriceUpdateEncoder;
import org.nakcast.config.NodeConfig;
import org.nakcast.transport.Delivery;
import org.nakcast.transport.FlyweightHandlers;
import org.nakcast.transport.FlyweightPublication;
import org.nakcast.transport.LossEvent;
import org.nakcast.transport.MessageHeader;
import org.nakcast.transport.MessageHandler;
import org.nakcast.transport.Node;
import org.nakcast.transport.OfferResult;
import org.nakcast.transport.Offers;
import org.nakcast.transport.StreamEventListener;

/**
 * Market data fan-out: one publisher multicasts price updates once, and every subscriber gets
 * every update, in order. The updates are SBE flyweights on topic {@code prices} of the embedded
 * default config: the publisher stages an encoder, sets the fields in place and offers it (no message
 * object); each subscriber reads the fields from a decoder wrapped over the received datagram (no
 * copy). Nothing on either side allocates per message.
 *
 * <p>Each subscriber here is a node of its own, as it would be in its own service; in one process
 * they still hear each other. Each keeps a book of the last price per instrument, and checks that
 * the updates come in order with none missing: {@link MessageHeader#messageIndex()} counts a
 * publisher's messages from 0, and this publisher puts the same number in the {@code qty} field.
 *
 * <pre>
 *   ops/example MarketDataFanOut [updates, default 100000] [subscribers, default 3]
 * </pre>
 */
public final class MarketDataFanOut {
    /** The instruments priced, by id; a book indexes them as {@code id - FIRST_INSTRUMENT_ID}. */
    static final String[] MNEMONICS = {"EURUSD", "USDJPY", "EURJPY", "GBPUSD"};
    static final long FIRST_INSTRUMENT_ID = 42;
    /** Prices in ticks of 0.0001: 1.0825, 151.37, 163.85, 1.2710. */
    private static final long[] BASE_PRICE_TICKS = {10_825, 1_513_700, 1_638_500, 12_710};
    private static final double TICKS_PER_UNIT = 10_000.0;

    private MarketDataFanOut() {
    }

    /**
     * What each subscriber saw.
     *
     * @param published updates the publisher sent
     * @param expectedLastPrices the last price of each instrument as published
     * @param subscribers one tally per subscriber
     */
    public record Result(long published, Map<String, Double> expectedLastPrices, List<SubscriberTally> subscribers) {
        /** @return whether every subscriber got every update, in order, and ends with the published prices */
        public boolean everySubscriberGotEverything() {
            return subscribers.stream().allMatch(tally -> tally.received() == published && tally.outOfOrder() == 0
                && tally.lossEvents() == 0 && tally.lastPrices().equals(expectedLastPrices));
        }
    }

    /**
     * One subscriber's view.
     *
     * @param name the subscriber node's name
     * @param received updates delivered to it
     * @param outOfOrder updates whose number was not the next one expected, or whose content did not match it
     * @param lossEvents loss events it was told of
     * @param lastPrices its book at the end: the last price of each instrument
     */
    public record SubscriberTally(
        String name, long received, long outOfOrder, long lossEvents, Map<String, Double> lastPrices) {
    }

    /**
     * Runs the example with a default count, printing what each subscriber saw.
     *
     * @param args optional: the number of updates, the number of subscribers
     */
    public static void main(String[] args) {
        final Result result = run(Examples.intArg(args, 0, 100_000), Examples.intArg(args, 1, 3));
        result.subscribers().forEach(tally -> System.out.printf("%s: %,d of %,d updates, %d out of order, "
            + "%d loss events, book %s%n", tally.name(), tally.received(), result.published(), tally.outOfOrder(),
            tally.lossEvents(), tally.lastPrices()));
        System.out.println(result.everySubscriberGotEverything()
            ? "every subscriber got every update, in order" : "SOME SUBSCRIBER MISSED UPDATES");
    }

    /**
     * Publishes {@code updates} price updates to {@code subscriberCount} subscriber nodes and waits
     * (at most 30 seconds) until each has them all.
     *
     * @return what each subscriber saw
     */
    public static Result run(int updates, int subscriberCount) {
        final NodeConfig config = NodeConfig.embeddedDefault();
        final List<Node> nodes = new ArrayList<>();
        try {
            // Subscribers first: one that is there before a publisher begins gets all of its messages.
            final List<Book> books = new ArrayList<>();
            for (int i = 1; i <= subscriberCount; i++) {
                final Node node = Node.launch(config.withNodeName("md-subscriber-" + i));
                nodes.add(node);
                final Book book = new Book(node.config().node().name());
                node.newFlyweightSubscription("prices", new FlyweightHandlers().on(PriceUpdateDecoder.class, book),
                    book,
                    Delivery.ON_RECEIVING_THREAD);
                books.add(book);
            }
            final Node publisherNode = Node.launch(config.withNodeName("md-publisher"));
            nodes.add(publisherNode);
            final double[] lastPublished = publish(publisherNode, updates);

            Examples.await(() -> books.stream().allMatch(book -> book.received >= updates), Duration.ofSeconds(30));
            return new Result(updates, pricesByMnemonic(lastPublished),
                books.stream().map(Book::tally).toList());
        } finally {
            nodes.forEach(Node::close);
        }
    }

    /** Publishes the updates; returns the last price of each instrument. */
    private static double[] publish(Node node, int updates) {
        final FlyweightPublication prices =
            node.newFlyweightPublication("prices", PriceUpdateEncoder.class);
        final LongSupplier offerStaged = prices::offer;
        final IdleStrategy idle = new BackoffIdleStrategy();
        final double[] last = new double[MNEMONICS.length];
        for (int i = 0; i < updates; i++) {
            final int instrument = i % MNEMONICS.length;
            final double price = (BASE_PRICE_TICKS[instrument] + i / MNEMONICS.length % 100) / TICKS_PER_UNIT;
            final PriceUpdateEncoder update = prices.stage(PriceUpdateEncoder.class);
            update.instrument().instrumentId(FIRST_INSTRUMENT_ID + instrument).mnemonic(MNEMONICS[instrument]);
            update.qty(i).price(price);
            if (!OfferResult.isTaken(Offers.offer(offerStaged, idle))) {
                throw new IllegalStateException(prices.lastRefusal());
            }
            last[instrument] = price;
        }
        return last;
    }

    static Map<String, Double> pricesByMnemonic(double[] prices) {
        final Map<String, Double> byMnemonic = new LinkedHashMap<>();
        for (int i = 0; i < MNEMONICS.length; i++) {
            byMnemonic.put(MNEMONICS[i], prices[i]);
        }
        return byMnemonic;
    }

    /**
     * A subscriber's book: the last price per instrument. Its methods run on its node's receiving
     * thread; the counts are volatile so that another thread can watch them (one writer, so the
     * increments are safe).
     */
    private static final class Book implements MessageHandler<PriceUpdateDecoder>, StreamEventListener {
        private final String name;
        private final double[] lastPrices = new double[MNEMONICS.length];
        private volatile long received;
        private volatile long outOfOrder;
        private volatile long lossEvents;

        Book(String name) {
            this.name = name;
        }

        @Override
        public void onMessage(PriceUpdateDecoder update, MessageHeader header) {
            if (header.messageIndex() != received || update.qty() != received) {
                outOfOrder++;
            }
            final int instrument = (int) (update.instrument().instrumentId() - FIRST_INSTRUMENT_ID);
            if (instrument >= 0 && instrument < lastPrices.length) {
                lastPrices[instrument] = update.price();
            }
            received++;
        }

        @Override
        public void onLoss(LossEvent event) {
            lossEvents++;
        }

        /** Reads {@code received} (volatile) first: the prices written before it are then visible. */
        SubscriberTally tally() {
            final long count = received;
            return new SubscriberTally(name, count, outOfOrder, lossEvents, pricesByMnemonic(lastPrices));
        }
    }
}
