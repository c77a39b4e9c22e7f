package org.nakcast.transport.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.agrona.BitUtil;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.nakcast.config.NodeConfig;
import org.nakcast.config.TransportConfig;
import org.nakcast.transport.BytePublication;
import org.nakcast.transport.Delivery;
import org.nakcast.transport.LossEvent;
import org.nakcast.transport.MessageHandler;
import org.nakcast.transport.MessageHeader;
import org.nakcast.transport.Node;
import org.nakcast.transport.NodeContext;
import org.nakcast.transport.StreamEventListener;
import org.nakcast.transport.StreamStarted;
import org.nakcast.transport.node.NodeHarness;
import org.nakcast.transport.protocol.DataFlyweight;
import org.nakcast.transport.protocol.DatagramValidator;
import org.nakcast.transport.protocol.FrameType;
import org.nakcast.transport.protocol.HeaderFlyweight;
import org.nakcast.transport.protocol.MessageFrame;
import org.nakcast.transport.protocol.NakFlyweight;
import org.nakcast.transport.status.DatagramCheck;
import org.nakcast.transport.status.SystemCounter;
import org.nakcast.transport.status.SystemCounters;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A fuzz run: while a publisher node streams numbered messages to a subscriber node, a plain socket
 * sends a million {@link HostileDatagrams} (seeded) to the transport's data and control ports:
 * random bytes, header-shaped noise, and every datagram type mutated, plus well-formed datagrams of
 * a few foreign sessions and of the real stream with sequences far in the future or past.
 *
 * <p>The real stream is pinned to its publisher's address and port, so its datagrams from the
 * hostile socket are dropped as from a wrong source (the checks of what a stream has seen are
 * tested in {@code InboundStreamTest} and by the simulator's stranger, which spoofs the publisher).
 *
 * <p>The real stream must come through whole, in order, exactly once, with no loss event, and its
 * receiver must fall silent once it has everything (no NAK for datagrams that do not exist); every
 * cause of malformed datagram a receiver finds must be counted on the subscriber, the publisher's checks must have
 * refused what reached its control port, nothing may reach either node's error handler, and memory
 * must stay within what the foreign sessions may legitimately cost (one reorder window each).
 */
class HostileInputIT {
    private static final Logger LOG = LoggerFactory.getLogger(HostileInputIT.class);
    private static final int MESSAGE_LENGTH = 70;
    private static final long MIN_MESSAGES = 200_000;
    private static final int HOSTILE = 1_000_000;
    private static final long SEED = 0x4057_11E5L;
    /** A datagram's sequence is at least the number of its first message divided by this. */
    private static final int MOST_MESSAGES_PER_DATAGRAM =
        (1408 - DataFlyweight.DATA_HEADER_LENGTH) / (MESSAGE_LENGTH + MessageFrame.FRAME_HEADER_LENGTH);
    /** Datagrams this far behind the ones delivered are safely in the stream's past. */
    private static final long PAST_MARGIN = 64;
    private static final long HEAP_GROWTH_LIMIT = 64L << 20;
    private static final long DIRECT_SLACK = 32L << 20;

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aMillionHostileDatagramsLeaveTheRealStreamWhole() throws Exception {
        final NodeConfig config = TestConfigs.paced("8m");
        final TransportConfig transport = config.lines(config.topic("prices")).get(0);
        final RealStream real = new RealStream();
        try (Node publisherNode = Node.launch(config);
            Node subscriberNode = Node.launch(new NodeContext().config(config), new NodeHarness().seed(SEED));
            DatagramChannel hostile = TestChannels.sender(transport);
            DatagramChannel nakListener = TestChannels.listener(transport, transport.port() + 1)) {
            subscriberNode.newByteSubscription("prices", real, real, Delivery.ON_RECEIVING_THREAD);
            final BytePublication publication = publisherNode.newBytePublication("prices");
            real.session = publication.sessionId();
            real.awaitStartAtZero();
            final CompletableFuture<Long> published = CompletableFuture.supplyAsync(
                () -> NumberedMessages.publishWhile(publication, MESSAGE_LENGTH, MIN_MESSAGES, () -> real.fuzzing),
                runnable -> new Thread(runnable, "hostile-input-publisher").start());
            final long heapBefore = heapAfterGc();
            final long directBefore = directBytes();

            final HostileDatagrams draws = new HostileDatagrams(SEED, real.session, publication.topicId());
            final long fuzzNs = sendHostile(hostile, transport, draws, real);
            final long sent = published.get(60, TimeUnit.SECONDS);
            real.checker.awaitCount(sent, System.currentTimeMillis() + 30_000);
            final int naksOnceWhole = realNaksDuringQuietSpell(nakListener, real.session, publication.topicId());
            final long heapGrowth = heapAfterGc() - heapBefore;
            final long directGrowth = directBytes() - directBefore;

            final String outcome = "sent " + sent + " messages while " + HOSTILE + " hostile datagrams went out in "
                + fuzzNs / 1_000_000 + " ms; drawn " + draws.drawn()
                + "\nstreams started " + real.sessionsStarted.size() + ", foreign messages " + real.foreignMessages
                + ", foreign loss events " + real.foreignLosses + ", heap growth " + heapGrowth
                + ", direct memory growth " + directGrowth
                + "\npublisher: " + publisherNode.counters().describeNonZero()
                + "\nsubscriber: " + subscriberNode.counters().describeNonZero();
            LOG.info("hostile input: {}", outcome);
            assertThat(draws.drawn().keySet()).as("kinds drawn; " + outcome)
                .containsExactlyInAnyOrder(HostileDatagrams.Kind.values());
            assertThat(real.checker.errors()).as(outcome).isEmpty();
            assertThat(real.checker.skippedRanges()).as(outcome).isEmpty();
            assertThat(real.checker.count()).as(outcome).isEqualTo(sent);
            assertThat(real.losses).as("loss events of the real stream; " + outcome).isEmpty();
            assertThat(naksOnceWhole).as("NAKs of the real stream once it was whole; " + outcome).isZero();
            // The real stream's datagrams from the hostile socket never reach its stream: the checks of
            // what a stream has seen (an UNRECOVERABLE past it, an end below it) are met by none of them.
            assertCountedEveryCause(subscriberNode.counters(), EnumSet.complementOf(EnumSet.of(DatagramCheck.VALID,
                DatagramCheck.STATUS_BEYOND_SENT, DatagramCheck.GONE_BEYOND_SEEN, DatagramCheck.END_BELOW_SEEN)),
                "subscriber; " + outcome);
            assertThat(subscriberNode.counters().get(SystemCounter.WRONG_SOURCE).get())
                .as("the real stream's datagrams the hostile socket sent to the data port, dropped; " + outcome)
                .isGreaterThanOrEqualTo(realOnDataPort(draws) / 2);
            assertCountedEveryCause(publisherNode.counters(), EnumSet.range(
                DatagramCheck.TOO_SHORT, DatagramCheck.BAD_FRAMES), "publisher; " + outcome);
            assertThat(subscriberNode.counters().get(SystemCounter.ERRORS).get()).as(outcome).isZero();
            assertThat(publisherNode.counters().get(SystemCounter.ERRORS).get()).as(outcome).isZero();
            final Set<Integer> legitimate = new HashSet<>();
            legitimate.add(real.session);
            for (int foreign : draws.foreignSessions()) {
                legitimate.add(foreign);
            }
            assertThat(real.sessionsStarted.keySet()).as(outcome).isSubsetOf(legitimate);
            assertThat(heapGrowth).as(outcome).isLessThan(HEAP_GROWTH_LIMIT);
            assertThat(directGrowth).as(outcome)
                .isLessThan(draws.foreignSessions().length * reorderWindowBytes(transport) + DIRECT_SLACK);
        }
    }

    /** Sends {@link #HOSTILE} datagrams as fast as the socket takes them; returns how long that took. */
    private static long sendHostile(DatagramChannel channel, TransportConfig transport, HostileDatagrams draws,
        RealStream real) throws IOException {
        final InetSocketAddress data = TestChannels.dataPort(transport);
        final InetSocketAddress control = TestChannels.controlPort(transport);
        final long startNs = System.nanoTime();
        try {
            for (int i = 0; i < HOSTILE; i++) {
                draws.next(Math.max(0, real.checker.count() / MOST_MESSAGES_PER_DATAGRAM - PAST_MARGIN));
                channel.send(draws.byteBuffer(), draws.toControlPort() ? control : data);
            }
        } finally {
            real.fuzzing = false;
        }
        return System.nanoTime() - startNs;
    }

    /** How many datagrams of the real stream, other than NAKs, the draws sent (to either port). */
    private static long realOnDataPort(HostileDatagrams draws) {
        return draws.drawn().entrySet().stream()
            .filter(drawn -> drawn.getKey().name().startsWith("REAL_")
                && drawn.getKey() != HostileDatagrams.Kind.REAL_NAK)
            .mapToLong(Map.Entry::getValue).sum();
    }

    private static void assertCountedEveryCause(SystemCounters counters, Set<DatagramCheck> causes, String outcome) {
        long total = 0;
        for (DatagramCheck cause : EnumSet.complementOf(EnumSet.of(DatagramCheck.VALID))) {
            final long count = counters.malformed(cause).get();
            total += count;
            if (causes.contains(cause)) {
                assertThat(count).as("malformed: %s; %s", cause.description(), outcome).isPositive();
            }
        }
        assertThat(counters.get(SystemCounter.MALFORMED).get()).as("malformed, all causes; " + outcome)
            .isEqualTo(total);
    }

    /**
     * Lets NAKs of the repair end, then counts the real stream's NAKs heard on the control port over
     * a further spell: a receiver that has everything asks for nothing.
     */
    private static int realNaksDuringQuietSpell(DatagramChannel listener, int session, int topic)
        throws IOException, InterruptedException {
        Thread.sleep(200);
        final ByteBuffer bytes = ByteBuffer.allocateDirect(HeaderFlyweight.MAX_DATAGRAM_LENGTH);
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
        final NakFlyweight nak = new NakFlyweight();
        nak.wrap(buffer, 0);
        while (listener.receive(bytes.clear()) != null) {
            continue;
        }
        Thread.sleep(300);
        int count = 0;
        while (listener.receive(bytes.clear()) != null) {
            if (DatagramValidator.check(buffer, 0, bytes.position()) == DatagramCheck.VALID
                && nak.typeCode() == FrameType.NAK.code() && nak.sessionId() == session && nak.topicId() == topic) {
                count++;
            }
        }
        return count;
    }

    private static long reorderWindowBytes(TransportConfig transport) {
        final long datagram = transport.datagramSize().bytes();
        final long slots = Math.max(256, 2 * transport.socketReceiveBuffer().bytes() / datagram);
        return BitUtil.findNextPositivePowerOfTwo(slots) * datagram;
    }

    private static long heapAfterGc() {
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private static long directBytes() {
        return ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class).stream()
            .filter(pool -> pool.getName().equals("direct"))
            .mapToLong(BufferPoolMXBean::getMemoryUsed).sum();
    }

    /** The subscriber's view: the real session's messages checked, everything else counted. */
    private static final class RealStream implements MessageHandler<DirectBuffer>, StreamEventListener {
        final SequenceChecker checker = new SequenceChecker();
        final Map<Integer, Long> sessionsStarted = new ConcurrentHashMap<>();
        final List<LossEvent> losses = new CopyOnWriteArrayList<>();
        final AtomicLong foreignMessages = new AtomicLong();
        final AtomicLong foreignLosses = new AtomicLong();
        volatile int session;
        volatile boolean fuzzing = true;

        @Override
        public void onMessage(DirectBuffer message, MessageHeader header) {
            if (header.sessionId() == session) {
                checker.onMessage(message, header);
            } else {
                foreignMessages.incrementAndGet();
            }
        }

        @Override
        public void onStreamStarted(StreamStarted event) {
            sessionsStarted.put(event.sessionId(), event.firstSequence());
        }

        @Override
        public void onLoss(LossEvent event) {
            if (event.sessionId() == session) {
                losses.add(event);
            } else {
                foreignLosses.incrementAndGet();
            }
        }

        /**
         * The real stream must have started, at its first sequence, before anything hostile claims
         * its session: a receiver starts a stream where it first hears it.
         */
        void awaitStartAtZero() throws InterruptedException {
            final long deadlineMs = System.currentTimeMillis() + 10_000;
            while (!sessionsStarted.containsKey(session) && System.currentTimeMillis() < deadlineMs) {
                Thread.sleep(1);
            }
            assertThat(sessionsStarted.get(session)).as("first sequence of the real stream").isZero();
        }
    }
}
