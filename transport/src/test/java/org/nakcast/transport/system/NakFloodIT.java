package org.nakcast.transport.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.nakcast.config.ByteSize;
import org.nakcast.config.NodeConfig;
import org.nakcast.config.TopicConfig;
import org.nakcast.config.TransportConfig;
import org.nakcast.transport.BytePublication;
import org.nakcast.transport.Delivery;
import org.nakcast.transport.LossEvent;
import org.nakcast.transport.Node;
import org.nakcast.transport.StreamEventListener;
import org.nakcast.transport.StreamStarted;
import org.nakcast.transport.protocol.FrameType;
import org.nakcast.transport.protocol.NakFlyweight;
import org.nakcast.transport.status.DatagramCheck;
import org.nakcast.transport.status.SystemCounter;
import org.nakcast.transport.status.SystemCounters;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A bad receiver (a plain socket) NAKs a real stream's whole history, from sequence 0 to the
 * latest datagram sent, in valid NAKs of 256 datagrams each, as fast as it can for two seconds,
 * while the publisher, paced at 2 MB/s, streams numbered messages to a good subscriber. The
 * publisher must stay within its rate over the flood (rate x time + burst: repairs and answers draw
 * on the same rate limiter as data), answer the flood from its repair budget (half the rate:
 * repairs held back when it is spent, new data goes on), and the good subscriber must still get
 * every message, once, in order, with no loss event. Once with the default history (every NAK
 * asks for datagrams held), once with a history of 256 datagrams that the stream outgrows (NAKs
 * also ask for datagrams gone: UNRECOVERABLE). And once asking for everything in one NAK each time,
 * which is malformed: the publisher answers none of it.
 */
class NakFloodIT {
    private static final Logger LOG = LoggerFactory.getLogger(NakFloodIT.class);
    private static final String SEND_RATE = "2m";
    private static final int MESSAGE_LENGTH = 70;
    private static final long MIN_MESSAGES = 30_000;
    /** Messages delivered before the flood starts: more than 256 datagrams' worth. */
    private static final long BEFORE_FLOOD = 8_000;
    private static final long FLOOD_NS = TimeUnit.SECONDS.toNanos(2);
    private static final long SMALL_HISTORY_DATAGRAMS = 256;

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void naksForTheWholeHistoryAreAnsweredWithinTheSendRate() throws Exception {
        final Flood flood = flood(TestConfigs.paced(SEND_RATE), NakFloodIT::tiledNak);

        flood.assertWithinBudgetAndDelivered();
        assertThat(flood.retransmits).as(flood.outcome).isPositive();
        assertThat(flood.heldBack).as("repairs the budget held back; " + flood.outcome).isPositive();
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void naksReachingBeforeTheHistoryAreAnsweredWithinTheSendRate() throws Exception {
        final NodeConfig paced = TestConfigs.paced(SEND_RATE);
        final long datagram = paced.transports().get(0).datagramSize().bytes();
        final List<TopicConfig> topics = paced.topics().stream()
            .map(topic -> topic.withHistory(new ByteSize(SMALL_HISTORY_DATAGRAMS * datagram))).toList();
        final Flood flood = flood(new NodeConfig(paced.node(), paced.transports(), topics).conclude(),
            NakFloodIT::tiledNak);

        flood.assertWithinBudgetAndDelivered();
        assertThat(flood.unrecoverable).as(flood.outcome).isPositive();
        assertThat(flood.retransmits).as(flood.outcome).isPositive();
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void oneNakForTheWholeSequenceSpaceIsMalformedAndAnsweredWithNothing() throws Exception {
        final Flood flood = flood(TestConfigs.paced(SEND_RATE), NakFloodIT::wholeSpaceNak);

        assertThat(flood.naksTaken).as(flood.outcome).isZero();
        assertThat(flood.refusedAsTooWide).as(flood.outcome).isPositive();
        assertThat(flood.retransmits + flood.unrecoverable).as(flood.outcome).isZero();
        flood.assertDelivered();
    }

    /** Writes the bad receiver's next NAK into {@code nak}, given how many datagrams the publisher has sent. */
    @FunctionalInterface
    private interface NakSource {
        void next(NakFlyweight nak, long nakNumber, long datagramsSent);
    }

    /**
     * The {@code nakNumber}-th of the NAKs that ask for sequences 0 to the latest sent, 256 at a time,
     * round and round.
     */
    private static void tiledNak(NakFlyweight nak, long nakNumber, long datagramsSent) {
        final long tiles = Math.max(1, (datagramsSent + NakFlyweight.MAX_DATAGRAMS_ASKED - 1)
            / NakFlyweight.MAX_DATAGRAMS_ASKED);
        final long from = (nakNumber % tiles) * NakFlyweight.MAX_DATAGRAMS_ASKED;
        nak.range(0, from, from + NakFlyweight.MAX_DATAGRAMS_ASKED - 1);
    }

    /** A NAK for every sequence there is, from 0 on: wider than any NAK may be. */
    private static void wholeSpaceNak(NakFlyweight nak, long nakNumber, long datagramsSent) {
        nak.range(0, 0, Long.MAX_VALUE);
    }

    private static Flood flood(NodeConfig config, NakSource naks) throws Exception {
        final TransportConfig transport = config.lines(config.topic("prices")).get(0);
        final SequenceChecker checker = new SequenceChecker();
        final List<LossEvent> losses = new CopyOnWriteArrayList<>();
        final AtomicBoolean flooding = new AtomicBoolean(true);
        try (Node publisherNode = Node.launch(config);
            Node subscriberNode = Node.launch(config);
            DatagramChannel badReceiver = TestChannels.sender(transport)) {
            final AtomicLong firstSequence = new AtomicLong(-1);
            subscriberNode.newByteSubscription("prices", checker, new StreamEventListener() {
                @Override
                public void onStreamStarted(StreamStarted event) {
                    firstSequence.set(event.firstSequence());
                }

                @Override
                public void onLoss(LossEvent event) {
                    losses.add(event);
                }
            }, Delivery.ON_RECEIVING_THREAD);
            final BytePublication publication = publisherNode.newBytePublication("prices");
            final long startDeadlineMs = System.currentTimeMillis() + 10_000;
            while (firstSequence.get() < 0 && System.currentTimeMillis() < startDeadlineMs) {
                Thread.sleep(1);
            }
            assertThat(firstSequence.get()).as("the stream starts at its first sequence").isZero();
            final CompletableFuture<Long> published = CompletableFuture.supplyAsync(
                () -> NumberedMessages.publishWhile(publication, MESSAGE_LENGTH, MIN_MESSAGES, flooding::get),
                runnable -> new Thread(runnable, "nak-flood-publisher").start());
            checker.awaitCount(BEFORE_FLOOD, System.currentTimeMillis() + 10_000);

            final ByteBuffer bytes = ByteBuffer.allocateDirect(NakFlyweight.lengthFor(1));
            final NakFlyweight nak = nakOfOneRange(bytes, publication);
            final SystemCounters counters = publisherNode.counters();
            final long[] before = read(counters);
            final long startNs = System.nanoTime();
            long naksSent = 0;
            while (System.nanoTime() - startNs < FLOOD_NS) {
                naks.next(nak, naksSent, counters.get(SystemCounter.DATAGRAMS_SENT).get());
                badReceiver.send(bytes.clear(), TestChannels.controlPort(transport));
                naksSent++;
            }
            final long elapsedNs = System.nanoTime() - startNs;
            final long[] after = read(counters);
            flooding.set(false);
            final long sent = published.get(30, TimeUnit.SECONDS);
            checker.awaitCount(sent, System.currentTimeMillis() + 30_000);

            final Flood flood = new Flood(transport, elapsedNs, naksSent, before, after, checker, sent, losses);
            flood.outcome += "\npublisher: " + counters.describeNonZero()
                + "\nsubscriber: " + subscriberNode.counters().describeNonZero();
            LOG.info("NAK flood: {}", flood.outcome);
            return flood;
        }
    }

    /** A NAK of one range from a stranger for the publication's stream, over {@code bytes}. */
    private static NakFlyweight nakOfOneRange(ByteBuffer bytes, BytePublication publication) {
        final NakFlyweight nak = new NakFlyweight();
        nak.wrap(new UnsafeBuffer(bytes), 0);
        nak.writeHeader(FrameType.NAK, NakFlyweight.lengthFor(1), publication.sessionId(), publication.topicId(), 0);
        nak.receiverId(0xBAD).rangeCount(1);
        return nak;
    }

    private static final SystemCounter[] READ = {SystemCounter.BYTES_SENT, SystemCounter.NAKS_RECEIVED,
        SystemCounter.RETRANSMITS_SENT, SystemCounter.RETRANSMITS_HELD_OFF, SystemCounter.UNRECOVERABLE_SENT,
        SystemCounter.REPAIRS_HELD_BACK};

    private static long[] read(SystemCounters counters) {
        final long[] values = new long[READ.length + 1];
        for (int i = 0; i < READ.length; i++) {
            values[i] = counters.get(READ[i]).get();
        }
        values[READ.length] = counters.malformed(DatagramCheck.NAK_TOO_WIDE).get();
        return values;
    }

    /** What the publisher did over the flood, and what the good subscriber got. */
    private static final class Flood {
        final long bytes;
        final long budget;
        final long naksTaken;
        final long retransmits;
        final long heldOff;
        final long unrecoverable;
        final long heldBack;
        final long refusedAsTooWide;
        final SequenceChecker checker;
        final long sent;
        final List<LossEvent> losses;
        String outcome;

        Flood(TransportConfig transport, long elapsedNs, long naksSent, long[] before, long[] after,
            SequenceChecker checker, long sent, List<LossEvent> losses) {
            final long rate = transport.sendRate().bytes();
            final long datagram = transport.datagramSize().bytes();
            // a publication's burst, as Node sets it; two datagrams more for counters read mid-send
            final long burst = Math.max(64 * datagram, rate / 1000);
            this.budget = (long) (rate * (elapsedNs / 1e9)) + burst + 2 * datagram;
            this.bytes = after[0] - before[0];
            this.naksTaken = after[1] - before[1];
            this.retransmits = after[2] - before[2];
            this.heldOff = after[3] - before[3];
            this.unrecoverable = after[4] - before[4];
            this.heldBack = after[5] - before[5];
            this.refusedAsTooWide = after[6] - before[6];
            this.checker = checker;
            this.sent = sent;
            this.losses = losses;
            this.outcome = naksSent + " NAKs sent in " + elapsedNs / 1_000_000 + " ms, " + naksTaken
                + " taken; the publisher sent " + bytes + " bytes (budget " + budget + "): " + retransmits
                + " retransmits, " + heldOff + " held off, " + unrecoverable + " UNRECOVERABLE, " + heldBack
                + " repairs held back by the budget, " + refusedAsTooWide + " NAKs refused as too wide; "
                + sent + " messages published";
        }

        void assertWithinBudgetAndDelivered() {
            assertThat(naksTaken).as(outcome).isPositive();
            assertThat(bytes).as("bytes sent over the flood; " + outcome).isLessThanOrEqualTo(budget);
            assertDelivered();
        }

        void assertDelivered() {
            assertThat(checker.errors()).as(outcome).isEmpty();
            assertThat(checker.skippedRanges()).as(outcome).isEmpty();
            assertThat(checker.count()).as(outcome).isEqualTo(sent);
            assertThat(losses).as(outcome).isEmpty();
        }
    }
}
