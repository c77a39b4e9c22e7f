package org.nakcast.transport.receive;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.SplittableRandom;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
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
 * repairs, and reassembly of a message larger than the reassembly buffer's first size.
 */
class InboundStreamAllocationTest {
    /** Datagrams per block: a large message in fragments, then datagrams of small messages. */
    private static final int BLOCK = 64;
    private static final int FRAGMENTS = 60;
    private static final int FRAGMENT_LENGTH = 1_300;
    private static final int SMALL_PER_DATAGRAM = 3;
    private static final int SMALL_LENGTH = 100;
    private static final int MESSAGES_PER_BLOCK = 1 + (BLOCK - FRAGMENTS) * SMALL_PER_DATAGRAM;

    private final Driver driver = new Driver();

    @Test
    void theSteadyStateAllocatesNothing() {
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
        assertThat(driver.counters.get(SystemCounter.GAPS)).isGreaterThan(5_000);
        assertThat(driver.counters.get(SystemCounter.NAKS_SENT)).isGreaterThan(3_000);
        assertThat(driver.counters.get(SystemCounter.DUPLICATES)).isZero();
        assertThat(driver.stream.reassemblyCapacity()).isGreaterThan(Reassembler.INITIAL_CAPACITY);
        assertThat(allocated).isZero();
    }

    /** Plays a publisher: builds datagram {@code s} from {@code s} alone, loses and swaps some, answers NAKs. */
    private static final class Driver implements MessageBytesHandler, StreamEventListener, DatagramSink {
        final TestCounters counters = new TestCounters();
        final DataDatagramBuilder builder = new DataDatagramBuilder(1, 1);
        final UnsafeBuffer payload = new UnsafeBuffer(new byte[FRAGMENT_LENGTH]);
        final UnsafeBuffer lastNak = new UnsafeBuffer(ByteBuffer.allocateDirect(2048));
        final NakFlyweight nak = new NakFlyweight();
        final InboundStream stream = new InboundStream(1, 1, 9, InboundStreamSettings.DEFAULTS,
            new SplittableRandom(3), this, this, this, new UnsafeBuffer(ByteBuffer.allocateDirect(2048)),
            counters.counters());
        long nowNs;
        long delivered;
        long indexErrors;
        boolean nakPending;

        Driver() {
            nak.wrap(lastNak, 0);
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
                pollAndAnswer();
            }
            stream.onHeartbeat(0, to - 1, nowNs);
            while (stream.nakDeadlineNs() != InboundStream.NO_DEADLINE) {
                nowNs = stream.nakDeadlineNs();
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
            stream.onData(0, builder.buffer(), 0, builder.length(), retransmit, nowNs);
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
