package org.nakcast.media.linux;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.nakcast.config.ByteSize;
import org.nakcast.config.MediaType;
import org.nakcast.config.NodeConfig;
import org.nakcast.config.ThreadingMode;
import org.nakcast.config.TransportConfig;
import org.nakcast.transport.BytePublication;
import org.nakcast.transport.Delivery;
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
 * Two publishers and three subscribers of one topic on the native media, five invoker-mode nodes
 * driven by the test thread over lo, each subscriber losing 1% of data: every data port hears two
 * publishers and every control port several receivers' NAKs and STATUS, in turn. Once warm, not a
 * byte is allocated on that thread over a window of a hundred thousand rounds, and every message
 * reaches every subscriber in order.
 */
class ManyPeersSteadyStateAllocationIT {
    private static final int PUBLISHERS = 2;
    private static final int SUBSCRIBERS = 3;
    private static final int MESSAGE = 70;
    private static final int ROUNDS = 100_000;
    private static final long WINDOW_MS = 1_000;
    private static final int MAX_SETTLING_WINDOWS = 10;

    private final List<Node> nodes = new ArrayList<>();
    private final com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    @AfterEach
    void closeNodes() {
        CloseHelper.closeAll(nodes);
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void twoPublishersAndThreeSubscribersAllocateNothingOnceWarm() {
        final NodeConfig config = nativeInvoker();
        final List<OrderedCounter> counters = new ArrayList<>();
        for (int i = 0; i < SUBSCRIBERS; i++) {
            final Node subscriber = launch(config,
                new NodeHarness().receiveLoss(new RandomLossGenerator(7 + i, 0.01, EnumSet.of(FrameType.DATA))));
            final OrderedCounter counter = new OrderedCounter();
            subscriber.newByteSubscription("prices", counter, StreamEventListener.NONE, Delivery.ON_RECEIVING_THREAD);
            counters.add(counter);
        }
        final BytePublication[] publications = new BytePublication[PUBLISHERS];
        for (int i = 0; i < PUBLISHERS; i++) {
            publications[i] = launch(config, new NodeHarness()).newBytePublication("prices");
        }
        final Rounds rounds = new Rounds(publications);

        rounds.run(3 * ROUNDS);
        final int settlingWindows = settle(rounds);
        final long allocated = rounds.window();
        rounds.drain(counters);

        final String figures = describe(settlingWindows, allocated);
        System.out.println(figures);
        for (OrderedCounter counter : counters) {
            assertThat(counter.outOfOrder).as(figures).isZero();
            assertThat(counter.count).as(figures).isEqualTo(rounds.total());
        }
        assertThat(nodes.get(0).counters().get(SystemCounter.NAKS_SENT).get()).as(figures).isPositive();
        assertThat(allocated).as(figures).isZero();
    }

    /**
     * Runs windows until two in a row allocate nothing, at most {@value #MAX_SETTLING_WINDOWS}: the
     * JIT may still be compiling after the warm-up, and a method compiled anew may allocate once as
     * it is first run, also after a first quiet window. The window measured comes after these.
     *
     * @return how many windows it took
     */
    private static int settle(Rounds rounds) {
        int windows = 0;
        int quietInARow = 0;
        while (quietInARow < 2 && windows < MAX_SETTLING_WINDOWS) {
            quietInARow = rounds.window() == 0 ? quietInARow + 1 : 0;
            windows++;
        }
        return windows;
    }

    private NodeConfig nativeInvoker() {
        final NodeConfig base = NodeConfig.embeddedDefault();
        final List<TransportConfig> transports = base.transports().stream()
            .map(transport -> transport.withSendRate(ByteSize.parse("20m"))).toList();
        return new NodeConfig(base.node().withThreading(ThreadingMode.INVOKER).withMedia(MediaType.NATIVE),
            transports, base.topics()).conclude();
    }

    private Node launch(NodeConfig config, NodeHarness harness) {
        final Node node = Node.launch(new NodeContext().config(config), harness);
        nodes.add(node);
        assertThat(node.mediaFallback()).as("the native media, as the config names").isNull();
        return node;
    }

    private String describe(int settlingWindows, long allocated) {
        final StringBuilder text = new StringBuilder(String.format(
            "a steady-state window (%d rounds and %d ms at least, after %d settling windows): %d bytes allocated",
            ROUNDS, WINDOW_MS, settlingWindows, allocated));
        for (Node node : nodes) {
            text.append('\n').append(node.config().node().name()).append(": ")
                .append(node.counters().describeNonZero());
        }
        return text.toString();
    }

    /** Each round: each publisher offers one message (its index and number), then every node works once. */
    private final class Rounds {
        private final BytePublication[] publications;
        private final long[] offered = new long[PUBLISHERS];
        private final UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(MESSAGE));

        Rounds(BytePublication[] publications) {
            this.publications = publications;
        }

        void run(int rounds) {
            for (int round = 0; round < rounds; round++) {
                for (int publisher = 0; publisher < PUBLISHERS; publisher++) {
                    message.putInt(0, publisher);
                    message.putLong(8, offered[publisher]);
                    if (publications[publisher].offer(message, 0, MESSAGE) > 0) {
                        offered[publisher]++;
                    }
                }
                for (int i = 0, size = nodes.size(); i < size; i++) {
                    nodes.get(i).doWork();
                }
            }
        }

        /** Runs at least {@value #ROUNDS} rounds and {@value #WINDOW_MS} ms; answers the bytes allocated. */
        long window() {
            final long endNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WINDOW_MS);
            final long before = threads.getCurrentThreadAllocatedBytes();
            int rounds = 0;
            while (rounds < ROUNDS || System.nanoTime() < endNs) {
                run(1);
                rounds++;
            }
            return threads.getCurrentThreadAllocatedBytes() - before;
        }

        long total() {
            return offered[0] + offered[1];
        }

        void drain(List<OrderedCounter> counters) {
            for (BytePublication publication : publications) {
                publication.flush();
            }
            final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (counters.stream().anyMatch(counter -> counter.count < total())
                && System.nanoTime() < deadlineNs) {
                for (Node node : nodes) {
                    node.doWork();
                }
            }
        }
    }

    /** Counts messages and checks each publisher's come in its order; allocates nothing. */
    private static final class OrderedCounter implements MessageHandler<DirectBuffer> {
        private final long[] next = new long[PUBLISHERS];
        private long count;
        private long outOfOrder;

        @Override
        public void onMessage(DirectBuffer message, MessageHeader header) {
            final int publisher = message.getInt(0);
            if (message.getLong(8) != next[publisher]) {
                outOfOrder++;
            }
            next[publisher] = message.getLong(8) + 1;
            count++;
        }
    }
}
