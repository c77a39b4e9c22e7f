package org.nakcast.examples;

import java.time.Duration;
import java.util.function.LongSupplier;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.nakcast.config.NodeConfig;
import org.nakcast.transport.Delivery;
import org.nakcast.transport.FlyweightHandlers;
import org.nakcast.transport.FlyweightPublication;
import org.nakcast.transport.LossEvent;
import org.nakcast.transport.MessageHandler;
import org.nakcast.transport.MessageHeader;
import org.nakcast.transport.Node;
import org.nakcast.transport.OfferResult;
import org.nakcast.transport.Offers;
import org.nakcast.transport.StreamEventListener;

/**
 * Your own message type as a flyweight written by hand ({@link Tick}): no schema, no generated
 * code, still no message object and no copy on either side. The topic is {@code prices} of the
 * embedded default config, {@code codec: flyweight}, which finds {@link Tick.Binding} on the class
 * path; a topic carries this type beside the generated ones, each told apart by its schema and
 * template id.
 *
 * <pre>
 *   ops/example HandWrittenTicks [ticks, default 100000]
 * </pre>
 */
public final class HandWrittenTicks {
    private static final int INSTRUMENT_ID = 7;
    private static final long FIRST_PRICE_TICKS = 10_825;

    private HandWrittenTicks() {
    }

    /**
     * What the subscriber saw.
     *
     * @param published ticks the publisher sent
     * @param received ticks delivered
     * @param outOfOrder ticks that were not the next one expected, or whose fields did not match it
     * @param lossEvents loss events it was told of
     */
    public record Result(long published, long received, long outOfOrder, long lossEvents) {
        /** @return whether every tick came once, in order, as it was sent */
        public boolean everyTickArrived() {
            return received == published && outOfOrder == 0 && lossEvents == 0;
        }
    }

    /**
     * Publishes {@code ticks} ticks from one node to another and waits (at most 30 seconds) until
     * the subscriber has them all.
     *
     * @return what the subscriber saw
     */
    public static Result run(int ticks) {
        final NodeConfig config = NodeConfig.embeddedDefault();
        final Tape tape = new Tape();
        try (Node subscriber = Node.launch(config.withNodeName("tick-tape"));
            Node publisher = Node.launch(config.withNodeName("tick-source"))) {
            subscriber.newFlyweightSubscription("prices", new FlyweightHandlers().on(Tick.Decoder.class, tape), tape,
                Delivery.ON_RECEIVING_THREAD);
            final FlyweightPublication prices = publisher.newFlyweightPublication("prices", Tick.Encoder.class);
            final LongSupplier offerStaged = prices::offer;
            final IdleStrategy idle = new BackoffIdleStrategy();
            for (int i = 0; i < ticks; i++) {
                prices.stage(Tick.Encoder.class).instrumentId(INSTRUMENT_ID).priceTicks(FIRST_PRICE_TICKS + i).qty(i);
                if (!OfferResult.isTaken(Offers.offer(offerStaged, idle))) {
                    throw new IllegalStateException(prices.lastRefusal());
                }
            }
            Examples.await(() -> tape.received >= ticks, Duration.ofSeconds(30));
        }
        return new Result(ticks, tape.received, tape.outOfOrder, tape.lossEvents);
    }

    /**
     * Runs the example and prints what the subscriber saw.
     *
     * @param args the number of ticks (default 100000)
     */
    public static void main(String[] args) {
        final int ticks = Examples.intArg(args, 0, 100_000);
        final Result result = run(ticks);
        System.out.printf("ticks: %d published, %d received, %d out of order, %d loss events%n", result.published(),
            result.received(), result.outOfOrder(), result.lossEvents());
        System.out.println(result.everyTickArrived() ? "every tick arrived once and in order" : "TICKS MISSING");
        System.exit(result.everyTickArrived() ? 0 : 1);
    }

    /** The subscriber: reads each tick's fields where they arrived, on the receiving thread. */
    private static final class Tape implements MessageHandler<Tick.Decoder>, StreamEventListener {
        private volatile long received;
        private long outOfOrder;
        private long lossEvents;

        @Override
        public void onMessage(Tick.Decoder tick, MessageHeader header) {
            final long expected = received;
            if (tick.qty() != expected || tick.priceTicks() != FIRST_PRICE_TICKS + expected
                || tick.instrumentId() != INSTRUMENT_ID || header.messageIndex() != expected) {
                outOfOrder++;
            }
            received = expected + 1;
        }

        @Override
        public void onLoss(LossEvent event) {
            lossEvents++;
        }
    }
}
