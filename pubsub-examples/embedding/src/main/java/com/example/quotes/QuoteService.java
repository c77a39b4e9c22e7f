package com.example.quotes;

import java.time.Duration;

import com.example.quotes.sbe.QuoteDecoder;
import com.example.quotes.sbe.QuoteEncoder;
import org.nakcast.config.NodeConfig;
import org.nakcast.transport.FlyweightHandlers;
import org.nakcast.transport.FlyweightPublication;
import org.nakcast.transport.LossEvent;
import org.nakcast.transport.MessageHandler;
import org.nakcast.transport.MessageHeader;
import org.nakcast.transport.Node;
import org.nakcast.transport.OfferResult;
import org.nakcast.transport.StreamEventListener;
import org.nakcast.transport.Subscription;

/**
 * A service that embeds nakcast: a publisher and a subscriber of quotes in one JVM, on nakcast's
 * embedded default config (topic {@code prices}, codec {@code flyweight}, interface {@code lo},
 * TTL 0), with the service's own SBE messages. Both sides use the flyweights only: the publisher
 * writes each quote's fields in place, the subscriber reads them from the received datagram.
 * It checks that every quote arrived once and in order, and exits 0 if so, 1 if not.
 *
 * <pre>
 *   java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -cp ... com.example.quotes.QuoteService [count]
 * </pre>
 */
public final class QuoteService {
    private QuoteService() {
    }

    /**
     * @param args optional: how many quotes to publish (default 100,000)
     * @throws InterruptedException if interrupted while waiting for the last quote
     */
    public static void main(String[] args) throws InterruptedException {
        final long count = args.length > 0 ? Long.parseLong(args[0]) : 100_000;
        final NodeConfig config = NodeConfig.embeddedDefault();        // interface lo, TTL 0
        final QuoteChecker checker = new QuoteChecker();
        try (Node subscriber = Node.launch(config); Node publisher = Node.launch(config)) {
            // Subscriber: each quote is read from the received datagram, no copy, no object, on the
            // thread that polls (this one).
            final Subscription quotesIn =
                subscriber.newFlyweightSubscription("prices", new FlyweightHandlers().on(QuoteDecoder.class, checker), checker);

            // Publisher: stage the encoder, set the fields in place, offer.
            final FlyweightPublication quotes = publisher.newFlyweightPublication("prices", QuoteEncoder.class);
            for (long sequence = 0; sequence < count; sequence++) {
                quotes.stage(QuoteEncoder.class).sequence(sequence).instrumentId(42).bidTicks(10_824).askTicks(10_826);
                long result;
                while ((result = quotes.offer()) == OfferResult.BACK_PRESSURED
                    || result == OfferResult.NOT_CONNECTED) {
                    quotesIn.poll(256);                               // the subscriber makes room
                }
                if (result < 0) {
                    throw new IllegalStateException("quote " + sequence + " refused: " + quotes.lastRefusal());
                }
                quotesIn.poll(256);
            }
            final long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (checker.received < count && System.nanoTime() < deadline) {
                if (quotesIn.poll(256) == 0) {
                    Thread.yield();
                }
            }
        }
        System.out.printf("quotes: %d published, %d received, %d out of order, %d loss events%n",
            count, checker.received, checker.outOfOrder, checker.lossEvents);
        final boolean allArrived = checker.received == count && checker.outOfOrder == 0 && checker.lossEvents == 0;
        System.out.println(allArrived ? "every quote arrived once and in order" : "QUOTES MISSING OR OUT OF ORDER");
        System.exit(allArrived ? 0 : 1);
    }

    /** The subscriber's side, called on the thread that polls. */
    static final class QuoteChecker implements MessageHandler<QuoteDecoder>, StreamEventListener {
        private long received;
        private long outOfOrder;
        private long lossEvents;

        @Override
        public void onMessage(QuoteDecoder quote, MessageHeader header) {
            if (quote.sequence() != received) {
                outOfOrder++;
            }
            received++;
        }

        @Override
        public void onLoss(LossEvent event) {
            lossEvents++;
        }
    }
}
