package org.nakcast.transport.publish;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersManager;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.nakcast.config.ByteSize;
import org.nakcast.config.TransportConfig;
import org.nakcast.transport.LossEvent;
import org.nakcast.transport.PublisherEventListener;
import org.nakcast.transport.StreamEventListener;
import org.nakcast.transport.media.DatagramSource;
import org.nakcast.transport.protocol.FrameType;
import org.nakcast.transport.protocol.HeaderFlyweight;
import org.nakcast.transport.protocol.HeartbeatFlyweight;
import org.nakcast.transport.protocol.NakFlyweight;
import org.nakcast.transport.protocol.UnrecoverableFlyweight;
import org.nakcast.transport.receive.InboundStream;
import org.nakcast.transport.receive.InboundStreamSettings;
import org.nakcast.transport.status.SystemCounters;

/**
 * A publisher stream and a receiver stream joined by an in-memory network that loses a seeded
 * share of the data and delays everything by a fixed latency, driven by a stepped clock: every
 * message must arrive exactly once and in order, with no loss event. The application offers far
 * more than history holds, so a paced publisher must not let packing ahead evict what it sent.
 * The publisher has the repair budget a node gives it ({@code repair-rate} left at its default):
 * up to 20% loss at what a 1 GbE link carries, and 1% far beyond it, are repaired in full.
 */
class InMemoryRepairTest {
    /** Where the NAKs and STATUS of these tests come from: one receiver's host. */
    private static final DatagramSource RECEIVER_HOST = new DatagramSource().ipv4(0x0A00_0007, 40_007);
    private static final long STEP_NS = 1_000;
    private static final long LATENCY_NS = 20_000;
    private static final int DATAGRAM_LENGTH = 1408;
    private static final int HISTORY_SLOTS = 1024;
    private static final int MESSAGE_LENGTH = 70;

    private final SystemCounters counters = new SystemCounters(new CountersManager(
        new UnsafeBuffer(ByteBuffer.allocateDirect(64 * 1024)),
        new UnsafeBuffer(ByteBuffer.allocateDirect(16 * 1024))));

    @ParameterizedTest(name = "loss {0}, paced at {1} bytes/s (0: unpaced), {2} bytes/s offered")
    @CsvSource({"0.01, 0, 1500000000", "0.05, 0, 100000000", "0.20, 0, 100000000", "0.01, 40000000, 1500000000",
        "0.20, 40000000, 1500000000"})
    void everyMessageArrivesOnceInOrderDespiteLoss(double lossRate, long bytesPerSecond, long offeredPerSecond) {
        final SplittableRandom random = new SplittableRandom(7);
        final DelayedPipe toReceiver = new DelayedPipe();
        final DelayedPipe toPublisher = new DelayedPipe();
        final OfferBuffer offers = new OfferBuffer(1 << 22, 1 << 16, freed -> { });
        final TransportConfig transport = new TransportConfig("lan", "lo", "239.255.0.1", 40456)
            .withDatagramSize(new ByteSize(DATAGRAM_LENGTH)).withSendRate(new ByteSize(bytesPerSecond));
        final SendRateLimiter rateLimiter = bytesPerSecond == 0
            ? SendRateLimiter.unpaced() : new SendRateLimiter(bytesPerSecond, transport.sendBurstBytes());
        final OutboundStream publisher = new OutboundStream(9, 1, 99L,
            new StreamTiming(100_000_000L, 0, 50_000, 100_000_000L),
            offers, new DatagramHistory(HISTORY_SLOTS * DATAGRAM_LENGTH, DATAGRAM_LENGTH), rateLimiter,
            new RepairBudget(transport.repairRateBytes(), transport.repairBurstBytes(),
                transport.repairPercentOfData()), FlowControl.MAX,
            new PublisherEventListener() { },
            (buffer, offset, length) -> toReceiver.send(buffer, offset, length, random.nextDouble() < lossRate),
            counters);
        final List<Long> received = new ArrayList<>();
        final List<LossEvent> losses = new ArrayList<>();
        final InboundStream receiver = new InboundStream(1, 9, 3, InboundStreamSettings.DEFAULTS,
            new SplittableRandom(11), (buffer, offset, length, header) -> received.add(buffer.getLong(offset)),
            new StreamEventListener() {
                @Override
                public void onLoss(LossEvent event) {
                    losses.add(event);
                }
            },
            (buffer, offset, length) -> toPublisher.send(buffer, offset, length, false),
            new UnsafeBuffer(ByteBuffer.allocateDirect(DATAGRAM_LENGTH)), counters);
        final NakFlyweight nak = new NakFlyweight();
        final UnrecoverableFlyweight unrecoverable = new UnrecoverableFlyweight();
        final HeaderFlyweight header = new HeaderFlyweight();
        final HeartbeatFlyweight heartbeat = new HeartbeatFlyweight();
        final UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(MESSAGE_LENGTH));
        final int count = 100_000;
        long nowNs = 0;
        long offered = 0;
        for (int step = 0; step < 5_000_000 && received.size() < count; step++) {
            nowNs += STEP_NS;
            final double offerable = offeredPerSecond * (nowNs / 1e9) / MESSAGE_LENGTH;
            while (offered < count && offered < offerable) {
                message.putLong(0, offered);
                if (!offers.offer(message, 0, MESSAGE_LENGTH)) {
                    break;
                }
                offered++;
            }
            publisher.doWork(nowNs);
            for (UnsafeBuffer datagram = toReceiver.poll(nowNs); datagram != null;
                datagram = toReceiver.poll(nowNs)) {
                header.wrap(datagram, 0);
                final int type = header.typeCode();
                if (type == FrameType.DATA.code() || type == FrameType.RETRANSMIT.code()) {
                    receiver.onData(0, datagram, 0, datagram.capacity(), type == FrameType.RETRANSMIT.code(), nowNs);
                } else if (type == FrameType.HEARTBEAT.code()) {
                    heartbeat.wrap(datagram, 0);
                    receiver.onHeartbeat(0, heartbeat, nowNs);
                } else if (type == FrameType.UNRECOVERABLE.code()) {
                    unrecoverable.wrap(datagram, 0);
                    receiver.onUnrecoverable(unrecoverable.fromSequence(), unrecoverable.toSequence(),
                        unrecoverable.firstMessageAfter(), nowNs);
                }
            }
            receiver.poll(nowNs);
            for (UnsafeBuffer nakDatagram = toPublisher.poll(nowNs); nakDatagram != null;
                nakDatagram = toPublisher.poll(nowNs)) {
                nak.wrap(nakDatagram, 0);
                publisher.onNak(RECEIVER_HOST, nak, nowNs);
            }
        }

        assertThat(losses).isEmpty();
        assertThat(received).hasSize(count);
        for (int i = 0; i < count; i++) {
            assertThat(received.get(i)).isEqualTo(i);
        }
    }

    /** Datagrams in flight, each delivered {@link #LATENCY_NS} after it was sent, unless lost. */
    private static final class DelayedPipe {
        private final ArrayDeque<UnsafeBuffer> inFlight = new ArrayDeque<>();
        private final ArrayDeque<Long> arrivals = new ArrayDeque<>();
        private long nowNs;

        boolean send(DirectBuffer buffer, int offset, int length, boolean lose) {
            if (!lose) {
                final UnsafeBuffer copy = new UnsafeBuffer(new byte[length]);
                copy.putBytes(0, buffer, offset, length);
                inFlight.add(copy);
                arrivals.add(nowNs + LATENCY_NS);
            }
            return true;
        }

        UnsafeBuffer poll(long nowNs) {
            this.nowNs = nowNs;
            if (arrivals.isEmpty() || arrivals.peek() > nowNs) {
                return null;
            }
            arrivals.poll();
            return inFlight.poll();
        }
    }
}
