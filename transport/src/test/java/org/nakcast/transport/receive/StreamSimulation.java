package org.nakcast.transport.receive;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.SplittableRandom;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.nakcast.transport.LossEvent;
import org.nakcast.transport.MessageHeader;
import org.nakcast.transport.StreamEventListener;
import org.nakcast.transport.StreamStarted;
import org.nakcast.transport.media.DatagramSink;
import org.nakcast.transport.protocol.FrameType;
import org.nakcast.transport.protocol.HeaderFlyweight;
import org.nakcast.transport.protocol.NakFlyweight;
import org.nakcast.transport.testing.TestCounters;

/**
 * A publisher, a lossy reordering network and one {@link InboundStream}, stepped one microsecond
 * at a time. The publisher sends datagram {@code t} at step {@code t}, heartbeats every few steps,
 * and answers NAKs from a history of the last {@code history} datagrams like nakcast's publisher:
 * RETRANSMIT for what it holds, one UNRECOVERABLE for what it no longer holds. The network drops,
 * duplicates and delays every datagram at random, repairs included. Another receiver sometimes
 * NAKs too; the publisher answers it and the stream hears it.
 */
final class StreamSimulation implements MessageBytesHandler, StreamEventListener, DatagramSink {
    private static final long STEP_NS = 1_000;
    private static final int HEARTBEAT_STEPS = 10;
    private static final long MAX_STEPS = 5_000_000;

    /** A message the handler received. */
    record Received(long index, byte[] bytes) {
    }

    /** How the network and publisher behave. */
    record Conditions(int windowCapacity, int datagramLength, int history, double dropRate, double duplicateRate,
        int maxDelaySteps, double otherReceiverNakRate, boolean startWithHeartbeat) {
    }

    /** What travels from the publisher to the stream. */
    private sealed interface Packet permits Data, Heartbeat, Lost {
    }

    private record Data(long sequence, boolean retransmit) implements Packet {
    }

    private record Heartbeat(long highestSequence) implements Packet {
    }

    private record Lost(long fromSequence, long toSequence, long firstMessageAfter) implements Packet {
    }

    /** A packet in flight, arriving at {@code step}; {@code order} breaks ties at random. */
    private record Arrival(long step, long order, Packet packet) {
    }

    final List<Received> received = new ArrayList<>();
    final List<LossEvent> losses = new ArrayList<>();
    final List<Long> starts = new ArrayList<>();
    final TestCounters counters = new TestCounters();
    private final PackedStream packed;
    private final Conditions conditions;
    private final Random random;
    private final InboundStream stream;
    private final PriorityQueue<Arrival> network = new PriorityQueue<>(
        Comparator.comparingLong(Arrival::step).thenComparingLong(Arrival::order));
    private final NakFlyweight nak = new NakFlyweight();
    private final HeartbeatDatagram heartbeats = new HeartbeatDatagram(StreamHarness.TOPIC, StreamHarness.SESSION);
    private long step;
    private long sentUpTo;
    /** DATA, RETRANSMIT and UNRECOVERABLE on the network; heartbeats are not counted. */
    private int dataInFlight;

    StreamSimulation(PackedStream packed, Conditions conditions, long seed) {
        this.packed = packed;
        this.conditions = conditions;
        this.random = new Random(seed);
        final InboundStreamSettings settings = new InboundStreamSettings(
            conditions.windowCapacity(), conditions.datagramLength(), 1 << 20, false, NakTiming.DEFAULTS);
        this.stream = new InboundStream(StreamHarness.TOPIC, StreamHarness.SESSION, StreamHarness.RECEIVER,
            settings, new SplittableRandom(seed), this, this, this,
            new UnsafeBuffer(ByteBuffer.allocateDirect(HeaderFlyweight.MAX_DATAGRAM_LENGTH)), counters.counters());
    }

    /**
     * Runs until everything was sent, the stream has it all or gave it up, and no data or answer
     * is still in flight (heartbeats go on for ever).
     *
     * @return false if that never happened
     */
    boolean run() {
        if (conditions.startWithHeartbeat()) {
            stream.onHeartbeat(0, heartbeats.saying(-1), 0);
        } else {
            sentUpTo = 1;
            deliverData(0, false);
        }
        while (step < MAX_STEPS) {
            step++;
            if (sentUpTo < packed.datagramCount()) {
                transmit(new Data(sentUpTo++, false));
            }
            if (step % HEARTBEAT_STEPS == 0) {
                transmit(new Heartbeat(sentUpTo - 1));
            }
            if (sentUpTo > 0 && random.nextDouble() < conditions.otherReceiverNakRate()) {
                otherReceiverNaks();
            }
            while (!network.isEmpty() && network.peek().step <= step) {
                arrive(network.poll().packet());
            }
            stream.poll(nowNs());
            if (sentUpTo == packed.datagramCount() && stream.expectedSequence() == sentUpTo
                && stream.naks().deadlineNs() == NakScheduler.NO_DEADLINE && dataInFlight == 0) {
                return true;
            }
        }
        return false;
    }

    private long nowNs() {
        return step * STEP_NS;
    }

    /** Puts a datagram on the network: maybe lost, maybe twice, each copy after its own delay. */
    private void transmit(Packet packet) {
        if (random.nextDouble() < conditions.dropRate()) {
            return;
        }
        final int copies = random.nextDouble() < conditions.duplicateRate() ? 2 : 1;
        for (int i = 0; i < copies; i++) {
            final long arrivesAt = step + random.nextInt(conditions.maxDelaySteps() + 1);
            network.add(new Arrival(arrivesAt, random.nextLong(), packet));
            if (!(packet instanceof Heartbeat)) {
                dataInFlight++;
            }
        }
    }

    private void arrive(Packet packet) {
        if (!(packet instanceof Heartbeat)) {
            dataInFlight--;
        }
        if (packet instanceof Data data) {
            deliverData(data.sequence(), data.retransmit());
        } else if (packet instanceof Heartbeat heartbeat) {
            stream.onHeartbeat(0, heartbeats.saying(heartbeat.highestSequence()), nowNs());
        } else if (packet instanceof Lost lost) {
            stream.onUnrecoverable(lost.fromSequence(), lost.toSequence(), lost.firstMessageAfter(), nowNs());
        }
    }

    private void deliverData(long sequence, boolean retransmit) {
        final byte[] datagram = packed.datagram(sequence).clone();
        final UnsafeBuffer buffer = new UnsafeBuffer(datagram);
        if (retransmit) {
            new HeaderFlyweight().wrap(buffer, 0).type(FrameType.RETRANSMIT);
        }
        stream.onData(0, buffer, 0, datagram.length, retransmit, nowNs());
    }

    /** The publisher's answer to a NAK, as nakcast's publisher gives it. */
    private void answer(NakFlyweight request) {
        final long oldest = Math.max(0, sentUpTo - conditions.history());
        for (int i = 0; i < request.rangeCount(); i++) {
            final long from = request.rangeFrom(i);
            final long to = Math.min(request.rangeTo(i), sentUpTo - 1);
            if (from < oldest) {
                transmit(new Lost(from, oldest - 1, packed.firstMessageIndexOf(oldest)));
            }
            for (long sequence = Math.max(from, oldest); sequence <= to; sequence++) {
                transmit(new Data(sequence, true));
            }
        }
    }

    private void otherReceiverNaks() {
        final long from = Math.max(0, sentUpTo - 1 - random.nextInt(20));
        final long to = Math.min(sentUpTo - 1, from + random.nextInt(4));
        final NakFlyweight other = StreamHarness.nakFromOther(from, to);
        stream.onNakHeard(other, nowNs());
        answer(other);
    }

    @Override
    public void onMessage(DirectBuffer buffer, int offset, int length, MessageHeader header) {
        final byte[] bytes = new byte[length];
        buffer.getBytes(offset, bytes);
        received.add(new Received(header.messageIndex(), bytes));
    }

    @Override
    public void onStreamStarted(StreamStarted started) {
        starts.add(started.firstSequence());
    }

    @Override
    public void onLoss(LossEvent event) {
        losses.add(event);
    }

    @Override
    public boolean send(DirectBuffer buffer, int offset, int length) {
        final UnsafeBuffer copy = new UnsafeBuffer(new byte[length]);
        copy.putBytes(0, buffer, offset, length);
        nak.wrap(copy, 0);
        answer(nak);
        return true;
    }
}
