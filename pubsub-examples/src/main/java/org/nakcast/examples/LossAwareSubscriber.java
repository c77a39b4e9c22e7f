package org.nakcast.examples;

import java.time.Duration;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.LongSupplier;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.nakcast.codecs.sample.sbe.PriceUpdateDecoder;
import org.nakcast.codecs.sample.sbe.PriceUpdateEncoder;
import org.nakcast.config.ByteSize;
import org.nakcast.config.FlowControlMode;
import org.nakcast.config.LossPolicy;
import org.nakcast.config.NodeConfig;
import org.nakcast.config.TopicConfig;
import org.nakcast.config.TransportConfig;
import org.nakcast.transport.Delivery;
import org.nakcast.transport.FlyweightHandlers;
import org.nakcast.transport.FlyweightPublication;
import org.nakcast.transport.LossEvent;
import org.nakcast.transport.MessageHandler;
import org.nakcast.transport.MessageHeader;
import org.nakcast.transport.Node;
import org.nakcast.transport.NodeContext;
import org.nakcast.transport.OfferResult;
import org.nakcast.transport.Offers;
import org.nakcast.transport.StreamEventListener;
import org.nakcast.transport.lossinjection.SequenceRangeLossGenerator;
import org.nakcast.transport.node.NodeHarness;
import org.nakcast.transport.protocol.FrameType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a subscriber does when messages are lost for good. nakcast repairs what the publisher's
 * history still holds; what it no longer holds is never skipped silently: the subscriber gets one
 * {@link LossEvent} per lost range, with the exact number of messages, and the topic's
 * {@code loss-policy} decides what happens next.
 *
 * <p>To make such a loss happen on purpose, the topic {@code prices} gets a history of only
 * {@value #HISTORY_DATAGRAMS} datagrams, and the subscriber node drops the first sends of datagrams
 * {@value #FIRST_DROPPED}..{@value #LAST_DROPPED} on receipt ({@link NodeHarness#receiveLoss(LossGenerator)} with a
 * {@link SequenceRangeLossGenerator}; retransmits pass). By the time it NAKs them the publisher has
 * moved on: what its history still holds is repaired, the rest is reported lost, usually in one
 * event, in two when the history moves on again before the last repair. The publisher is paced, so
 * nothing else is lost.
 *
 * <p>The subscriber keeps a book of the last price per instrument. Each update carries an
 * instrument's whole state, so after a loss it marks every instrument stale and each becomes valid
 * again with its next update: that is its resync. It logs {@link LossEvent#describe()} and counts.
 *
 * <ul>
 *   <li>{@code continue} (the default policy): delivery goes on after the gap; every message
 *       published is either delivered or counted lost, exactly once;</li>
 *   <li>{@code drop}: the stream is dropped ({@link LossEvent#streamDropped()}): nothing more comes
 *       from that publisher, and the subscriber declares its feed down (a service would alert, fail
 *       over, or subscribe again to start over at the live edge).</li>
 * </ul>
 *
 * <pre>
 *   ops/example LossAwareSubscriber [continue|drop, default continue] [updates, default 20000, at least 5000]
 * </pre>
 */
public final class LossAwareSubscriber {
    /** The history of the topic, in datagrams. */
    public static final int HISTORY_DATAGRAMS = 16;
    /** The first datagram sequence the subscriber drops. */
    public static final long FIRST_DROPPED = 10;
    /** The last datagram sequence the subscriber drops. */
    public static final long LAST_DROPPED = 59;
    /**
     * The fewest updates that span the dropped range however they are packed: an update takes 40
     * bytes of a datagram (36 of SBE, 4 of frame), at most 34 fit one.
     */
    public static final int MIN_UPDATES = 5000;
    private static final Logger LOG = LoggerFactory.getLogger(LossAwareSubscriber.class);
    private static final String[] MNEMONICS = {"EURUSD", "USDJPY", "EURJPY", "GBPUSD"};

    private LossAwareSubscriber() {
    }

    /**
     * What the subscriber saw.
     *
     * @param policy the topic's loss policy
     * @param published updates the publisher sent
     * @param delivered updates the subscriber got
     * @param lossEvents loss events it was told of
     * @param messagesLost messages those events counted
     * @param resyncs times it marked its book stale and rebuilt it
     * @param staleInstruments instruments still stale at the end
     * @param feedDown whether its stream was dropped
     * @param descriptions each loss event in words
     */
    public record Result(LossPolicy policy, long published, long delivered, long lossEvents, long messagesLost,
        long resyncs, int staleInstruments, boolean feedDown, List<String> descriptions) {
    }

    /**
     * Runs the example, printing what the subscriber saw.
     *
     * @param args optional: the loss policy ({@code continue} or {@code drop}), the number of updates
     */
    public static void main(String[] args) {
        final LossPolicy policy = args.length > 0 ? LossPolicy.valueOf(args[0].toUpperCase(Locale.ROOT))
            : LossPolicy.CONTINUE;
        final Result result = run(policy, Examples.intArg(args, 1, 20_000));
        result.descriptions().forEach(description -> System.out.println("loss: " + description));
        System.out.printf("loss policy %s: %,d published, %,d delivered, %,d lost in %d events; %d resyncs, "
            + "%d instruments stale at the end; feed %s%n", policy.name().toLowerCase(Locale.ROOT),
            result.published(), result.delivered(), result.messagesLost(), result.lossEvents(), result.resyncs(),
            result.staleInstruments(), result.feedDown() ? "DOWN (stream dropped)" : "up");
    }

    /**
     * The embedded default config with a history of {@value #HISTORY_DATAGRAMS} datagrams,
     * {@code policy} and flow control {@code max} on topic {@code prices}, and its transport paced to
     * 1 MB/s. Under {@code min}, the default, the publisher would wait for the subscriber's repairs
     * and nothing would be lost: {@code max} is the choice of a price feed, whose latest value
     * supersedes the ones before, and the one under which a subscriber can fall out of history.
     */
    public static NodeConfig config(LossPolicy policy) {
        final NodeConfig base = NodeConfig.embeddedDefault();
        final List<TransportConfig> transports = base.transports().stream()
            .map(transport -> transport.withSendRate(ByteSize.parse("1m")))
            .toList();
        final List<TopicConfig> topics = base.topics().stream()
            .map(topic -> !topic.name().equals("prices") ? topic : topic
                .withHistory(new ByteSize(HISTORY_DATAGRAMS * transports.get(0).datagramSize().bytes()))
                .withFlowControl(FlowControlMode.MAX)
                .withLossPolicy(policy))
            .toList();
        return new NodeConfig(base.node(), transports, topics).conclude();
    }

    /**
     * Publishes {@code updates} price updates to a subscriber that loses datagrams
     * {@value #FIRST_DROPPED}..{@value #LAST_DROPPED}, and waits (at most 20 seconds) until every
     * update is delivered or counted lost, or the stream is dropped.
     *
     * @param updates at least {@value #MIN_UPDATES}
     * @return what the subscriber saw
     */
    public static Result run(LossPolicy policy, int updates) {
        if (updates < MIN_UPDATES) {
            throw new IllegalArgumentException("at least " + MIN_UPDATES + " updates are needed to reach datagram "
                + LAST_DROPPED + ", was " + updates);
        }
        final NodeConfig config = config(policy);
        // the loss is injected (the transport's harness): a real network loses what it will
        final NodeHarness dropping = new NodeHarness()
            .receiveLoss(new SequenceRangeLossGenerator(FIRST_DROPPED, LAST_DROPPED, EnumSet.of(FrameType.DATA)));
        try (Node subscriberNode = Node.launch(new NodeContext().config(config.withNodeName("loss-aware-subscriber")),
                dropping);
            Node publisherNode = Node.launch(config.withNodeName("paced-publisher"))) {
            final Book book = new Book();
            final FlyweightHandlers handlers = new FlyweightHandlers().on(PriceUpdateDecoder.class, book);
            subscriberNode.newFlyweightSubscription("prices", handlers, book, Delivery.ON_RECEIVING_THREAD);

            publish(publisherNode, updates);

            Examples.await(() -> book.feedDown || book.delivered + book.messagesLost >= updates,
                Duration.ofSeconds(20));
            LOG.info("subscriber counters: {}", subscriberNode.counters().describeNonZero());
            return book.result(policy, updates);
        }
    }

    private static void publish(Node node, int updates) {
        final FlyweightPublication prices =
            node.newFlyweightPublication("prices", PriceUpdateEncoder.class);
        final LongSupplier offerStaged = prices::offer;
        final IdleStrategy idle = new BackoffIdleStrategy();
        for (int i = 0; i < updates; i++) {
            final int instrument = i % MNEMONICS.length;
            prices.stage(PriceUpdateEncoder.class).qty(1_000_000).price(100.0 + i * 0.01)
                .instrument().instrumentId(instrument).mnemonic(MNEMONICS[instrument]);
            if (!OfferResult.isTaken(Offers.offer(offerStaged, idle))) {
                throw new IllegalStateException(prices.lastRefusal());
            }
        }
    }

    /**
     * The subscriber's book and its reaction to loss; every method runs on its node's receiving
     * thread, the volatile counts are read by the thread that waits.
     */
    private static final class Book implements MessageHandler<PriceUpdateDecoder>, StreamEventListener {
        private final double[] prices = new double[MNEMONICS.length];
        private final boolean[] stale = new boolean[MNEMONICS.length];
        private final List<String> descriptions = new CopyOnWriteArrayList<>();
        private int staleCount;
        private volatile long delivered;
        private volatile long lossEvents;
        private volatile long messagesLost;
        private volatile long resyncs;
        private volatile boolean feedDown;

        @Override
        public void onMessage(PriceUpdateDecoder update, MessageHeader header) {
            final int instrument = (int) update.instrument().instrumentId();
            prices[instrument] = update.price();
            if (stale[instrument]) {
                stale[instrument] = false;
                staleCount--;
                if (staleCount == 0) {
                    LOG.info("book whole again: every instrument updated since the loss");
                }
            }
            delivered++;
        }

        @Override
        public void onLoss(LossEvent event) {
            LOG.warn("price feed: {}", event.describe());
            descriptions.add(event.describe());
            lossEvents++;
            messagesLost += event.lostMessages();
            if (event.streamDropped()) {
                LOG.error("price feed DOWN: publisher session {} dropped; prices are stale until it is restarted",
                    event.sessionId());
                feedDown = true;
                return;
            }
            LOG.warn("price feed: {} updates missed; every instrument is stale until its next update",
                event.lostMessages());
            Arrays.fill(stale, true);
            staleCount = stale.length;
            resyncs++;
        }

        Result result(LossPolicy policy, long published) {
            final long deliveredCount = delivered;
            return new Result(policy, published, deliveredCount, lossEvents, messagesLost, resyncs, staleCount,
                feedDown, List.copyOf(descriptions));
        }
    }
}
