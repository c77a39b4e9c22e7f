package org.nakcast.transport.receive;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.SplittableRandom;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.nakcast.transport.LossEvent;
import org.nakcast.transport.MessageHeader;
import org.nakcast.transport.StreamEventListener;
import org.nakcast.transport.media.DatagramSink;
import org.nakcast.transport.protocol.MessageFrame;
import org.nakcast.transport.protocol.NakFlyweight;
import org.nakcast.transport.status.SystemCounter;
import org.nakcast.transport.testing.DataDatagramBuilder;
import org.nakcast.transport.testing.TestCounters;

/**
 * The steady state allocates nothing: in-order delivery, reordering, gaps, NAKs built and sent,
 * repairs, reassembly of a message larger than the reassembly buffer's first size, and the stream's
 * counters published on every poll; on one line, and on two (first copies from either, second copies
 * dropped, the lines' lag measured, what one line missed alone counted, each line's counters published).
 */
class InboundStreamAllocationTest {
    /** Datagrams per block: a large message in fragments, then datagrams of small messages. */
    private static final int BLOCK = 64;
    private static final int FRAGMENTS = 60;
    private static final int FRAGMENT_LENGTH = 1_300;
    private static final int SMALL_PER_DATAGRAM = 3;
    private static final int SMALL_LENGTH = 100;
    private static final int MESSAGES_PER_BLOCK = 1 + (BLOCK - FRAGMENTS) * SMALL_PER_DATAGRAM;
    private static final String STREAM = ": topic 't' (1), session 1";

    @ParameterizedTest(name = "on {0} line(s)")
    @ValueSource(ints = {1, 2})
    void theSteadyStateAllocatesNothing(int lines) {
        final Driver driver = new Driver(lines == 2);
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        driver.run(0, 300_000);
        threads.getCurrentThreadAllocatedBytes();

        // A window of 100,000 datagrams; another one or two if the JIT, which other tests in this JVM
        // steer, deoptimized in the first and re-created an object once: anything per datagram, gap or
        // NAK allocates in every window.
        long allocated = -1;
        long end = 300_000;
        for (int window = 0; window < 3 && allocated != 0; window++) {
            final long before = threads.getCurrentThreadAllocatedBytes();
            driver.run(end, end + 100_000);
            allocated = threads.getCurrentThreadAllocatedBytes() - before;
            end += 100_000;
        }

        assertThat(driver.indexErrors).isZero();
        assertThat(driver.delivered).isEqualTo(end / BLOCK * MESSAGES_PER_BLOCK);
        assertThat(driver.counters.get(SystemCounter.GAPS)).isGreaterThan(lines == 1 ? 5_000 : 1_000);
        assertThat(driver.counters.get(SystemCounter.NAKS_SENT)).isGreaterThan(lines == 1 ? 3_000 : 1_000);
        if (lines == 1) {
            assertThat(driver.counters.get(SystemCounter.DUPLICATES)).isZero();
        } else {
            assertThat(driver.counters.get(SystemCounter.DUPLICATES)).as("every second copy, and a few repairs")
                .isBetween(driver.secondCopies, driver.secondCopies + driver.counters.get(SystemCounter.NAKS_SENT));
        }
        assertThat(driver.stream.reassemblyCapacity()).isGreaterThan(Reassembler.INITIAL_CAPACITY);
        assertThat(driver.counters.valuesByLabel().get("receiver position" + STREAM)).as("published in the last window")
            .isGreaterThan(end - 100_000);
        if (lines == 2) {
            final Map<String, Long> values = driver.counters.valuesByLabel();
            assertThat(values.get("line md-b missed alone (datagrams)" + STREAM))
                .as("B misses one in 89, and each swapped pair's first").isGreaterThan(end / 89 + end / 31 / 2);
            assertThat(values.get("line md-b lag (ns)" + STREAM)).isPositive();
            assertThat(values.get("line md-a first copies" + STREAM)).isGreaterThan(end * 9 / 10);
        }
        assertThat(allocated).isZero();
    }

    /** Plays a publisher: builds datagram {@code s} from {@code s} alone, loses and swaps some, answers NAKs. */
    private static final class Driver implements MessageBytesHandler, StreamEventListener, DatagramSink {
        final TestCounters counters = new TestCounters();
        final DataDatagramBuilder builder = new DataDatagramBuilder(1, 1);
        final UnsafeBuffer payload = new UnsafeBuffer(new byte[FRAGMENT_LENGTH]);
        final UnsafeBuffer lastNak = new UnsafeBuffer(ByteBuffer.allocateDirect(2048));
        final NakFlyweight nak = new NakFlyweight();
        final HeartbeatDatagram heartbeats = new HeartbeatDatagram(1, 1);
        final InboundStream stream = new InboundStream(1, 1, 9, InboundStreamSettings.DEFAULTS,
            new SplittableRandom(3), this, this, this, new UnsafeBuffer(ByteBuffer.allocateDirect(2048)),
            counters.counters());
        long nowNs;
        final boolean twoLines;
        long delivered;
        long indexErrors;
        long secondCopies;
        boolean nakPending;

        /** @param twoLines whether line B brings every datagram again, 5 us after line A, but for one in 89 */
        Driver(boolean twoLines) {
            this.twoLines = twoLines;
            nak.wrap(lastNak, 0);
            stream.reportPositions(new ReceiverPositionCounters(counters.counters().streams(), "t", 1, 1));
            if (twoLines) {
                final String[] names = {"md-a", "md-b"};
                stream.arbitrateLines(names, 10_000_000);
                stream.reportLines(new LineCounters(counters.counters().streams(), names, "t", 1, 1));
            }
        }

        void run(long from, long to) {
            for (long sequence = from; sequence < to; sequence++) {
                nowNs += 1_000;
                if (sequence % 97 == 13) {
                    continue;
                }
                if (sequence % 31 == 5) {
                    send(sequence + 1, false);
                    send(sequence, false);
                    sequence++;
                } else {
                    send(sequence, false);
                }
                if (twoLines && sequence % 89 != 11) {
                    nowNs += 5_000;
                    secondCopies += sequence % 97 == 13 ? 0 : 1;
                    sendOn(1, sequence, false);
                }
                pollAndAnswer();
            }
            stream.onHeartbeat(0, heartbeats.saying(to - 1), nowNs);
            if (twoLines) {
                stream.onHeartbeat(1, heartbeats.saying(to - 1), nowNs);
            }
            while (stream.naks().deadlineNs() != NakScheduler.NO_DEADLINE) {
                nowNs = stream.naks().deadlineNs();
                pollAndAnswer();
            }
        }

        private void pollAndAnswer() {
            stream.poll(nowNs);
            if (!nakPending) {
                return;
            }
            nakPending = false;
            nowNs += 20_000;
            for (int i = 0; i < nak.rangeCount(); i++) {
                for (long sequence = nak.rangeFrom(i); sequence <= nak.rangeTo(i); sequence++) {
                    send(sequence, true);
                }
            }
        }

        private void send(long sequence, boolean retransmit) {
            sendOn(0, sequence, retransmit);
        }

        private void sendOn(int line, long sequence, boolean retransmit) {
            final long block = sequence / BLOCK;
            final int position = (int) (sequence % BLOCK);
            if (position < FRAGMENTS) {
                builder.start(sequence, block * MESSAGES_PER_BLOCK);
                final int begin = position == 0 ? MessageFrame.BEGIN : 0;
                final int end = position == FRAGMENTS - 1 ? MessageFrame.END : 0;
                builder.frame(begin | end, payload, 0, FRAGMENT_LENGTH);
            } else {
                builder.start(sequence, block * MESSAGES_PER_BLOCK + 1 + (position - FRAGMENTS) * SMALL_PER_DATAGRAM);
                for (int i = 0; i < SMALL_PER_DATAGRAM; i++) {
                    builder.frame(MessageFrame.UNFRAGMENTED, payload, 0, SMALL_LENGTH);
                }
            }
            builder.retransmit(retransmit);
            stream.onData(line, builder.buffer(), 0, builder.length(), retransmit, nowNs);
        }

        @Override
        public void onMessage(DirectBuffer buffer, int offset, int length, MessageHeader header) {
            if (header.messageIndex() != delivered) {
                indexErrors++;
            }
            delivered++;
        }

        @Override
        public void onLoss(LossEvent event) {
            throw new AssertionError("no loss expected: " + event);
        }

        @Override
        public boolean send(DirectBuffer buffer, int offset, int length) {
            lastNak.putBytes(0, buffer, offset, length);
            nakPending = true;
            return true;
        }
    }
}
