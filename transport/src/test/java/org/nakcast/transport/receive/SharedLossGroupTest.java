package org.nakcast.transport.receive;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SplittableRandom;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.nakcast.transport.LossEvent;
import org.nakcast.transport.MessageHeader;
import org.nakcast.transport.StreamEventListener;
import org.nakcast.transport.media.DatagramSink;
import org.nakcast.transport.protocol.HeaderFlyweight;
import org.nakcast.transport.protocol.NakFlyweight;
import org.nakcast.transport.testing.DataDatagramBuilder;
import org.nakcast.transport.testing.TestCounters;

/**
 * A group of receivers that all miss the same datagrams (dropped before the network fans them
 * out), on a stepped clock: a NAK reaches the other receivers and the publisher in
 * {@link #ONE_WAY_NS}, the publisher answers after {@link #PUBLISHER_NS}, and resends a datagram
 * at most once per {@link #HOLD_OFF_NS}. How many NAKs does one loss cost the group, and how long
 * does its repair take?
 */
class SharedLossGroupTest {
    private static final long STEP_NS = 1_000;
    private static final long DATAGRAM_EVERY_NS = 20_000;
    private static final int LOSS_EVERY = 50;
    private static final long ONE_WAY_NS = 5_000;
    private static final long PUBLISHER_NS = 10_000;
    private static final long STALLED_PUBLISHER_NS = 2_000_000;
    private static final long HOLD_OFF_NS = 100_000;
    private static final int WARM_UP_LOSSES = 100;
    private static final int MEASURED_LOSSES = 300;

    @Test
    void aLoneReceiverAsksOncePerLoss() {
        final Group group = new Group(1, PUBLISHER_NS).run();

        assertThat(group.naksPerLoss()).isEqualTo(1.0);
    }

    @Test
    void sixteenReceiversAskAboutOncePerLossOnceTheyHaveHeardEachOther() {
        final Group group = new Group(16, PUBLISHER_NS).run();

        assertThat(group.sizeEstimates()).allSatisfy(size -> assertThat(size).isBetween(12, 16));
        assertThat(group.naksPerLoss()).isLessThan(1.5);
        assertThat(group.retransmitsPerLoss()).isEqualTo(1.0);
    }

    @Test
    void sixtyFourReceiversStillAskAboutOncePerLoss() {
        final Group group = new Group(64, PUBLISHER_NS).run();

        assertThat(group.naksPerLoss()).isLessThan(1.6);
    }

    @Test
    void aGroupRepairsWithinAFewRepairTimesOfALoneReceiver() {
        final double alone = new Group(1, PUBLISHER_NS).run().meanRepairNs();
        final double sixteen = new Group(16, PUBLISHER_NS).run().meanRepairNs();

        assertThat(sixteen).isLessThan(alone + 3 * (2 * ONE_WAY_NS + PUBLISHER_NS));
    }

    @Test
    void aGroupBacksOffTogetherFromAPublisherThatAnswersLate() {
        final Group group = new Group(16, STALLED_PUBLISHER_NS).run();

        assertThat(group.naksPerLoss()).as("about one NAK per round, rounds at 0.1, 0.2, 0.4, 0.8, 1.6 ms")
            .isLessThan(6.0);
    }

    /** The publisher, the network and the receivers. */
    private static final class Group {
        private final List<Receiver> receivers = new ArrayList<>();
        private final PriorityQueue<Event> events =
            new PriorityQueue<>(Comparator.comparingLong(Event::atNs).thenComparingLong(Event::order));
        private final DataDatagramBuilder builder = new DataDatagramBuilder(1, 1);
        private final long[] lastResentNs;
        private final long publisherNs;
        private final long datagrams = (long) (WARM_UP_LOSSES + MEASURED_LOSSES) * LOSS_EVERY;
        private long nowNs;
        private long order;
        private long naks;
        private long retransmits;
        private long repairNsTotal;
        private long repairs;

        Group(int size, long publisherNs) {
            this.publisherNs = publisherNs;
            for (int id = 0; id < size; id++) {
                receivers.add(new Receiver(this, id));
            }
            lastResentNs = new long[(int) datagrams];
            java.util.Arrays.fill(lastResentNs, Long.MIN_VALUE / 2);
        }

        Group run() {
            for (long sequence = 0; sequence < datagrams; sequence++) {
                final long sentNs = sequence * DATAGRAM_EVERY_NS;
                if (sequence % LOSS_EVERY != LOSS_EVERY / 2) {
                    final long s = sequence;
                    schedule(sentNs + ONE_WAY_NS, () -> deliver(s, false));
                }
            }
            final long endNs = datagrams * DATAGRAM_EVERY_NS + 10_000_000;
            while (nowNs < endNs) {
                while (!events.isEmpty() && events.peek().atNs() <= nowNs) {
                    events.poll().action().run();
                }
                for (Receiver receiver : receivers) {
                    receiver.stream.poll(nowNs);
                }
                nowNs += STEP_NS;
            }
            for (Receiver receiver : receivers) {
                assertThat(receiver.delivered).as("receiver %d got everything", receiver.id).isEqualTo(datagrams);
            }
            return this;
        }

        double naksPerLoss() {
            return (double) naks / MEASURED_LOSSES;
        }

        double retransmitsPerLoss() {
            return (double) retransmits / MEASURED_LOSSES;
        }

        double meanRepairNs() {
            return (double) repairNsTotal / repairs;
        }

        List<Integer> sizeEstimates() {
            return receivers.stream().map(receiver -> receiver.stream.naks().groupSizeEstimate(nowNs)).toList();
        }

        private boolean measuring() {
            return nowNs >= (long) WARM_UP_LOSSES * LOSS_EVERY * DATAGRAM_EVERY_NS;
        }

        private void schedule(long atNs, Runnable action) {
            events.add(new Event(atNs, order++, action));
        }

        private void deliver(long sequence, boolean retransmit) {
            builder.start(sequence, sequence).retransmit(retransmit).message(new byte[] {(byte) sequence});
            for (Receiver receiver : receivers) {
                final boolean repair = sequence >= receiver.stream.expectedSequence()
                    && sequence <= receiver.stream.naks().highestSeen();
                receiver.stream.onData(0, builder.buffer(), 0, builder.length(), retransmit, nowNs);
                if (repair && measuring()) {
                    repairNsTotal += nowNs - (sequence * DATAGRAM_EVERY_NS + ONE_WAY_NS);
                    repairs++;
                }
            }
        }

        /** A NAK from {@code sender}: heard by the other receivers and answered by the publisher. */
        private void onNak(Receiver sender, UnsafeBuffer copy) {
            if (measuring()) {
                naks++;
            }
            final NakFlyweight nak = new NakFlyweight();
            nak.wrap(copy, 0);
            schedule(nowNs + ONE_WAY_NS, () -> receivers.stream().filter(other -> other != sender)
                .forEach(other -> other.stream.onNakHeard(nak, nowNs)));
            schedule(nowNs + ONE_WAY_NS + publisherNs, () -> resend(nak));
        }

        private void resend(NakFlyweight nak) {
            for (int i = 0; i < nak.rangeCount(); i++) {
                for (long sequence = nak.rangeFrom(i); sequence <= nak.rangeTo(i); sequence++) {
                    if (nowNs - lastResentNs[(int) sequence] >= HOLD_OFF_NS) {
                        lastResentNs[(int) sequence] = nowNs;
                        if (measuring()) {
                            retransmits++;
                        }
                        final long s = sequence;
                        schedule(nowNs + ONE_WAY_NS, () -> deliver(s, true));
                    }
                }
            }
        }
    }

    /** Something that happens at {@code atNs}. */
    private record Event(long atNs, long order, Runnable action) {
    }

    /** One receiver: its stream, the NAKs it sends, the messages it gets. */
    private static final class Receiver implements MessageBytesHandler, StreamEventListener, DatagramSink {
        private final Group group;
        private final int id;
        private final InboundStream stream;
        private long delivered;

        Receiver(Group group, int id) {
            this.group = group;
            this.id = id;
            this.stream = new InboundStream(1, 1, id, InboundStreamSettings.DEFAULTS, new SplittableRandom(id), this,
                this, this, new UnsafeBuffer(ByteBuffer.allocateDirect(HeaderFlyweight.MAX_DATAGRAM_LENGTH)),
                new TestCounters().counters());
        }

        @Override
        public boolean send(DirectBuffer buffer, int offset, int length) {
            final UnsafeBuffer copy = new UnsafeBuffer(new byte[length]);
            copy.putBytes(0, buffer, offset, length);
            group.onNak(this, copy);
            return true;
        }

        @Override
        public void onMessage(DirectBuffer buffer, int offset, int length, MessageHeader header) {
            delivered++;
        }

        @Override
        public void onLoss(LossEvent event) {
            throw new AssertionError("no loss expected: " + event);
        }
    }
}
