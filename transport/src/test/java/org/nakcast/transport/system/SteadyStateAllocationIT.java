package org.nakcast.transport.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.nakcast.config.NodeConfig;
import org.nakcast.config.ThreadingMode;
import org.nakcast.config.TopicConfig;
import org.nakcast.config.TransportConfig;
import org.nakcast.transport.BytePublication;
import org.nakcast.transport.Delivery;
import org.nakcast.transport.LossEvent;
import org.nakcast.transport.MessageClaim;
import org.nakcast.transport.MessageHandler;
import org.nakcast.transport.MessageHeader;
import org.nakcast.transport.Node;
import org.nakcast.transport.NodeContext;
import org.nakcast.transport.StreamEventListener;
import org.nakcast.transport.lossinjection.RandomLossGenerator;
import org.nakcast.transport.node.NodeHarness;
import org.nakcast.transport.protocol.FrameType;
import org.nakcast.transport.status.SystemCounter;

/**
 * Two invoker-mode nodes driven by the test thread over real sockets, the subscriber losing 1% of
 * data: once warm, offering, claiming, packing, sending, receiving, NAKing, retransmitting,
 * reordering, reassembling fragmented messages and delivering allocate nothing at all on that
 * thread: not a byte over a window of a hundred thousand rounds and ten heartbeats. The same on
 * two lines, each losing 10% of data on its own (1% lost on both, and NAKed): sending every
 * datagram on both, taking first copies and dropping second ones allocate nothing either.
 */
class SteadyStateAllocationIT {
    private static final int SMALL = 70;
    /** Spans three 1408-byte datagrams, so every such message is fragmented and reassembled. */
    private static final int LARGE = 3_000;
    private static final int ROUNDS = 100_000;
    /** Long enough for ten heartbeats of the default 100 ms and about a hundred NAKs and repairs. */
    private static final long WINDOW_MS = 1_000;
    private static final int MAX_SETTLING_WINDOWS = 10;
    /** Measured windows run again because the JIT compiled during them, at most. */
    private static final int MAX_WINDOWS_THE_JIT_RAN = 3;
    private static final String LINE_B = "local-b";

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void theDataPathAllocatesNothingPerMessageOnceWarm() {
        final NodeConfig config = invoker(TestConfigs.paced("40m"));
        runAndMeasure(config, new NodeHarness()
            .receiveLoss(new RandomLossGenerator(7, 0.01, EnumSet.of(FrameType.DATA))));
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void onTwoLinesTheDataPathAllocatesNothingPerMessageOnceWarm() {
        final NodeConfig base = TestConfigs.paced("40m");
        final TransportConfig lineA = base.transports().get(0);
        final TransportConfig lineB = new TransportConfig(LINE_B, "lo", "239.255.77.3", 40_476)
            .withSendRate(lineA.sendRate());
        final List<TransportConfig> transports = new ArrayList<>(base.transports());
        transports.add(lineB);
        final List<TopicConfig> topics = base.topics().stream()
            .map(topic -> topic.name().equals("prices") ? topic.withLines(lineA.name(), LINE_B) : topic).toList();
        final NodeConfig config = invoker(new NodeConfig(base.node(), transports, topics));
        runAndMeasure(config, new NodeHarness()
            .receiveLoss(lineA.name(), new RandomLossGenerator(7, 0.1, EnumSet.of(FrameType.DATA)))
            .receiveLoss(LINE_B, new RandomLossGenerator(11, 0.1, EnumSet.of(FrameType.DATA))));
    }

    private static NodeConfig invoker(NodeConfig base) {
        return new NodeConfig(base.node().withThreading(ThreadingMode.INVOKER), base.transports(), base.topics())
            .conclude();
    }

    private static void runAndMeasure(NodeConfig config, NodeHarness subscriberHarness) {
        final CountingHandler handler = new CountingHandler();
        final CountingListener listener = new CountingListener();
        try (Node publisherNode = Node.launch(config);
            Node subscriberNode = Node.launch(new NodeContext().config(config), subscriberHarness)) {
            subscriberNode.newByteSubscription("prices", handler, listener, Delivery.ON_RECEIVING_THREAD);
            final Driver driver = new Driver(publisherNode, subscriberNode);

            warmUp(driver);
            final int settlingWindows = settle(driver);
            final int windowsTheJitRan = measure(driver);
            driver.drain(handler);

            final String counters = "publisher: " + publisherNode.counters().describeNonZero()
                + "\nsubscriber: " + subscriberNode.counters().describeNonZero();
            assertThat(handler.outOfOrder).as(counters).isZero();
            assertThat(handler.count).as(counters).isEqualTo(driver.offered);
            assertThat(handler.large).as(counters).isPositive();
            assertThat(listener.losses).as(counters).isZero();
            assertThat(subscriberNode.counters().get(SystemCounter.NAKS_SENT).get()).as(counters).isPositive();
            assertThat(publisherNode.counters().get(SystemCounter.RETRANSMITS_SENT).get()).as(counters).isPositive();
            final String window = String.format("a steady-state window (%d rounds and %d ms at least, after %d settling"
                + " windows and %d measured again as the JIT compiled during them): %d rounds allocated %d bytes%n%s",
                ROUNDS, WINDOW_MS, settlingWindows, windowsTheJitRan, driver.allocatingRounds, driver.allocatedBytes,
                counters);
            System.out.println(window);
            assertThat(driver.allocatedBytes).as(window).isZero();
        }
    }

    /**
     * Runs every path the measured rounds may take at least once, back-pressure included: the JVM
     * resolves a class or method reference the first time a path runs, and that allocates.
     */
    private static void warmUp(Driver driver) {
        driver.run(2 * ROUNDS);
        driver.offerUntilBackPressured();
        driver.run(ROUNDS);
    }

    /**
     * Runs windows until two in a row allocate nothing, at most {@value #MAX_SETTLING_WINDOWS}: the
     * JIT may still be compiling after the warm-up, and a method compiled anew may allocate once as
     * it is first run. One quiet window is not enough: on this two-core machine, quiet, the window
     * after a first quiet one allocated 192 bytes (64 on one line) in four runs of six; after two
     * quiet windows in a row, none did in eight.
     *
     * @return how many windows it took
     */
    private static int settle(Driver driver) {
        int windows = 0;
        int quietInARow = 0;
        while (quietInARow < 2 && windows < MAX_SETTLING_WINDOWS) {
            driver.runWindow();
            windows++;
            quietInARow = driver.allocatedBytes == 0 ? quietInARow + 1 : 0;
        }
        return windows;
    }

    /**
     * Runs the measured window. A window that allocated while the JIT compiled is run again, at
     * most {@value #MAX_WINDOWS_THE_JIT_RAN} times: on a loaded machine compilation lags the
     * warm-up, and a method compiled anew may allocate once as it is first run. A window that
     * allocated with no compilation during it, or the last one, is the verdict.
     *
     * @return how many windows were run again
     */
    private static int measure(Driver driver) {
        final CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        int again = 0;
        while (true) {
            final long compilingMsBefore = jit.getTotalCompilationTime();
            driver.runWindow();
            final boolean jitRan = jit.getTotalCompilationTime() != compilingMsBefore;
            if (driver.allocatedBytes == 0 || !jitRan || again == MAX_WINDOWS_THE_JIT_RAN) {
                return again;
            }
            again++;
        }
    }

    /** Offers numbered messages, one in 16 large and one in 4 through a claim, and drives both nodes. */
    private static final class Driver {
        private final Node publisherNode;
        private final Node subscriberNode;
        private final BytePublication publication;
        private final UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(LARGE));
        private final MessageClaim claim = new MessageClaim();
        private final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        private int allocatingRounds;
        private long allocatedBytes;
        private long offered;

        Driver(Node publisherNode, Node subscriberNode) {
            this.publisherNode = publisherNode;
            this.subscriberNode = subscriberNode;
            this.publication = publisherNode.newBytePublication("prices");
        }

        void run(int rounds) {
            for (int round = 0; round < rounds; round++) {
                final int length = offered % 16 == 15 ? LARGE : SMALL;
                if (offerOrClaim(length)) {
                    offered++;
                }
                publisherNode.doWork();
                subscriberNode.doWork();
            }
        }

        /**
         * Runs at least {@value #ROUNDS} rounds and {@value #WINDOW_MS} ms, so that the window spans
         * several heartbeats, counting the rounds that allocated on this thread and their bytes.
         */
        void runWindow() {
            allocatingRounds = 0;
            allocatedBytes = 0;
            final long endNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WINDOW_MS);
            int rounds = 0;
            while (rounds < ROUNDS || System.nanoTime() < endNs) {
                final long before = threads.getCurrentThreadAllocatedBytes();
                run(1);
                final long allocated = threads.getCurrentThreadAllocatedBytes() - before;
                if (allocated != 0) {
                    allocatingRounds++;
                    allocatedBytes += allocated;
                }
                rounds++;
            }
        }

        private boolean offerOrClaim(int length) {
            if (offered % 4 == 0) {
                if (publication.tryClaim(length, claim) <= 0) {
                    return false;
                }
                claim.buffer().putLong(claim.offset(), offered);
                claim.commit();
                return true;
            }
            message.putLong(0, offered);
            return publication.offer(message, 0, length) > 0;
        }

        /** Offers without driving the nodes until the offer buffer is full. */
        void offerUntilBackPressured() {
            while (offerOrClaim(SMALL)) {
                offered++;
            }
        }

        /** Drives both nodes until every offered message is delivered, or 10 seconds passed. */
        void drain(CountingHandler handler) {
            publication.flush();
            final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (handler.count < offered && System.nanoTime() < deadlineNs) {
                publisherNode.doWork();
                subscriberNode.doWork();
            }
        }
    }

    /** Counts messages and checks their numbers follow each other; allocates nothing. */
    private static final class CountingHandler implements MessageHandler<DirectBuffer> {
        private long count;
        private long large;
        private long outOfOrder;

        @Override
        public void onMessage(DirectBuffer message, MessageHeader header) {
            if (message.getLong(0) != count) {
                outOfOrder++;
            }
            if (message.capacity() == LARGE) {
                large++;
            }
            count++;
        }
    }

    /** Counts loss events. */
    private static final class CountingListener implements StreamEventListener {
        private long losses;

        @Override
        public void onLoss(LossEvent event) {
            losses++;
        }
    }
}
