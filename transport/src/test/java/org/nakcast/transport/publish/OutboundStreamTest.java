package org.nakcast.transport.publish;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersManager;
import org.junit.jupiter.api.Test;
import org.nakcast.transport.PublisherEventListener;
import org.nakcast.transport.ReceiverOutrun;
import org.nakcast.transport.protocol.DataFlyweight;
import org.nakcast.transport.protocol.FrameType;
import org.nakcast.transport.protocol.HeaderFlyweight;
import org.nakcast.transport.protocol.HeartbeatFlyweight;
import org.nakcast.transport.protocol.MessageFrame;
import org.nakcast.transport.protocol.NakFlyweight;
import org.nakcast.transport.protocol.UnrecoverableFlyweight;
import org.nakcast.transport.status.SystemCounter;
import org.nakcast.transport.status.SystemCounters;

class OutboundStreamTest {
    private static final int SESSION = 77;
    private static final int TOPIC = 5;
    private static final long PUBLISHER_ID = 0x5EED_0001L;
    private static final int DATAGRAM = 256;
    private static final long HEARTBEAT_NS = 100_000_000L;
    private static final long HOLD_OFF_NS = 100_000L;

    private final SystemCounters counters = new SystemCounters(new CountersManager(
        new UnsafeBuffer(ByteBuffer.allocateDirect(64 * 1024)),
        new UnsafeBuffer(ByteBuffer.allocateDirect(16 * 1024))));
    private final CapturingSink sink = new CapturingSink();
    private final List<ReceiverOutrun> outrun = new ArrayList<>();
    private final PublisherEventListener events = new PublisherEventListener() {
        @Override
        public void onReceiverOutrun(ReceiverOutrun event) {
            outrun.add(event);
        }
    };
    private final OfferBuffer offers = new OfferBuffer(64 * 1024, 8 * 1024);
    private final DatagramHistory history = new DatagramHistory(16L * DATAGRAM, DATAGRAM);
    private final OutboundStream stream = new OutboundStream(SESSION, TOPIC, PUBLISHER_ID,
        new StreamTiming(HEARTBEAT_NS, 0, HOLD_OFF_NS), offers, history, SendRateLimiter.unpaced(), FlowControl.MAX,
        events,
        sink, counters);
    private long nowNs = 1_000_000_000L;

    @Test
    void firstWorkAnnouncesTheStreamWithAHeartbeat() {
        stream.doWork(nowNs);

        assertThat(sink.ofType(FrameType.HEARTBEAT)).hasSize(1);
        final HeartbeatFlyweight heartbeat = new HeartbeatFlyweight();
        heartbeat.wrap(sink.datagrams.get(0), 0);
        assertThat(heartbeat.sequence()).isEqualTo(-1);
        assertThat(heartbeat.oldestSequence()).isZero();
        assertThat(heartbeat.sessionId()).isEqualTo(SESSION);
        assertThat(heartbeat.topicId()).isEqualTo(TOPIC);
        assertThat(heartbeat.publisherId()).isEqualTo(PUBLISHER_ID);
    }

    @Test
    void theAnnouncingHeartbeatGoesBeforeMessagesOfferedEarly() {
        offer(message(1, 10));

        stream.doWork(nowNs);

        assertThat(sink.datagrams).extracting(datagram -> HeaderFlyweight.typeCodeAt(datagram, 0))
            .containsExactly(FrameType.HEARTBEAT.code(), FrameType.DATA.code());
        assertThat(HeaderFlyweight.sequenceAt(sink.datagrams.get(0), 0)).isEqualTo(-1);
    }

    @Test
    void packsSmallMessagesIntoFullDatagramsInOrder() {
        final int count = 40;
        for (int i = 0; i < count; i++) {
            offer(message(i, 30));
        }

        stream.doWork(nowNs);

        final List<UnsafeBuffer> data = sink.ofType(FrameType.DATA);
        final int perDatagram = (DATAGRAM - DataFlyweight.DATA_HEADER_LENGTH) / (30 + MessageFrame.FRAME_HEADER_LENGTH);
        assertThat(data).hasSize((count + perDatagram - 1) / perDatagram);
        assertThat(messagesIn(data)).containsExactlyElementsOf(expectedMessages(count, 30));
        final DataFlyweight header = new DataFlyweight();
        for (int i = 0; i < data.size(); i++) {
            header.wrap(data.get(i), 0);
            assertThat(header.sequence()).isEqualTo(i);
            assertThat(header.completedMessages()).isEqualTo((long) i * perDatagram);
        }
    }

    @Test
    void fragmentsALargeMessageOverConsecutiveDatagrams() {
        offer(message(1, 10));
        offer(message(2, 1000));
        offer(message(3, 10));

        stream.doWork(nowNs);

        final List<UnsafeBuffer> data = sink.ofType(FrameType.DATA);
        assertThat(messagesIn(data)).containsExactly(message(1, 10), message(2, 1000), message(3, 10));
        final int maxFragment = OutboundStream.maxFragmentLength(DATAGRAM);
        assertThat(data).hasSize(1 + (1000 + maxFragment - 1) / maxFragment);
    }

    @Test
    void answersANakFromHistoryOncePerHoldOff() {
        fillDatagrams(4);
        final UnsafeBuffer original = sink.ofType(FrameType.DATA).get(2);

        stream.onNak(nak(2, 2), nowNs);
        stream.onNak(nak(2, 2), nowNs + HOLD_OFF_NS / 2);

        final List<UnsafeBuffer> retransmits = sink.ofType(FrameType.RETRANSMIT);
        assertThat(retransmits).hasSize(1);
        final DataFlyweight header = new DataFlyweight();
        header.wrap(retransmits.get(0), 0);
        assertThat(header.sequence()).isEqualTo(2);
        assertThat(messagesIn(retransmits)).isEqualTo(messagesIn(List.of(original)));
        assertThat(counters.get(SystemCounter.RETRANSMITS_HELD_OFF).get()).isEqualTo(1);

        stream.onNak(nak(2, 2), nowNs + HOLD_OFF_NS);
        assertThat(sink.ofType(FrameType.RETRANSMIT)).hasSize(2);
    }

    @Test
    void answersANakForDatagramsGoneFromHistoryWithOneUnrecoverable() {
        final int sent = history.capacity() + 10;
        fillDatagrams(sent);
        final long oldest = stream.oldestRetained();

        stream.onNak(nak(3, oldest + 1), nowNs);

        final List<UnsafeBuffer> unrecoverable = sink.ofType(FrameType.UNRECOVERABLE);
        assertThat(unrecoverable).hasSize(1);
        final UnrecoverableFlyweight answer = new UnrecoverableFlyweight();
        answer.wrap(unrecoverable.get(0), 0);
        assertThat(answer.fromSequence()).isEqualTo(3);
        assertThat(answer.toSequence()).isEqualTo(oldest - 1);
        final DataFlyweight oldestHeader = new DataFlyweight();
        oldestHeader.wrap(sink.ofType(FrameType.DATA).get((int) oldest), 0);
        assertThat(answer.firstMessageAfter()).isEqualTo(oldestHeader.completedMessages());
        assertThat(outrun).singleElement().satisfies(event -> {
            assertThat(event.receiverId()).isEqualTo(9);
            assertThat(event.fromSequence()).isEqualTo(3);
            assertThat(event.toSequence()).isEqualTo(oldest - 1);
            assertThat(event.oldestHeld()).isEqualTo(oldest);
            assertThat(event.describe()).contains("receiver 00000009 asked for datagrams from 3");
        });
        assertThat(sink.ofType(FrameType.RETRANSMIT)).hasSize(2);
    }

    @Test
    void unrecoverableAnswersDrawOnTheRateLimiterLikeEverythingElse() {
        final int sent = history.capacity() + 10;
        final SendRateLimiter limiter = new SendRateLimiter(UnrecoverableFlyweight.UNRECOVERABLE_LENGTH,
            HeartbeatFlyweight.HEARTBEAT_LENGTH + (long) sent * DATAGRAM + UnrecoverableFlyweight.UNRECOVERABLE_LENGTH);
        final OutboundStream paced = new OutboundStream(SESSION, TOPIC, PUBLISHER_ID,
            new StreamTiming(HEARTBEAT_NS, 0, HOLD_OFF_NS), offers, history, limiter, FlowControl.MAX, events, sink,
            counters);
        fillDatagrams(paced, sent);

        paced.onNak(nak(3, 3), nowNs);
        paced.onNak(nak(3, 3), nowNs);

        assertThat(sink.ofType(FrameType.UNRECOVERABLE)).hasSize(1);
        assertThat(counters.get(SystemCounter.UNRECOVERABLE_SENT).get()).isEqualTo(1);

        paced.onNak(nak(3, 3), nowNs + 1_000_000_000L);

        assertThat(sink.ofType(FrameType.UNRECOVERABLE)).hasSize(2);
    }

    @Test
    void ignoresNakedSequencesNotYetSent() {
        fillDatagrams(2);

        stream.onNak(nak(5, 9), nowNs);

        assertThat(sink.ofType(FrameType.RETRANSMIT)).isEmpty();
        assertThat(sink.ofType(FrameType.UNRECOVERABLE)).isEmpty();
    }

    @Test
    void keepsUnsentDatagramsAndBacksUpWhenTheSocketRefuses() {
        sink.refusing = true;
        int offered = 0;
        while (offer(message(offered, 100))) {
            offered++;
            stream.doWork(nowNs);
        }
        assertThat(stream.nextSequence() - stream.sentUpTo()).isEqualTo(history.capacity() / 4);
        assertThat(stream.sentUpTo()).isZero();

        sink.refusing = false;
        while (stream.doWork(nowNs += 1_000) > 0) {
            continue;
        }

        assertThat(messagesIn(sink.ofType(FrameType.DATA))).containsExactlyElementsOf(expectedMessages(offered, 100));
    }

    @Test
    void packsAheadOfASlowSocketByAQuarterOfHistoryAndStillRepairsTheRest() {
        fillDatagrams(40);
        sink.refusing = true;
        for (int i = 0; i < 100 && offer(message(i, 100)); i++) {
            stream.doWork(nowNs);
        }
        final long oldestSentStillRetained = stream.sentUpTo() - history.capacity() * 3 / 4 + 1;

        stream.onNak(nak(oldestSentStillRetained, oldestSentStillRetained), nowNs);
        sink.refusing = false;
        stream.doWork(nowNs);

        assertThat(sink.ofType(FrameType.UNRECOVERABLE)).isEmpty();
        final List<UnsafeBuffer> retransmits = sink.ofType(FrameType.RETRANSMIT);
        assertThat(retransmits).hasSize(1);
        final DataFlyweight header = new DataFlyweight();
        header.wrap(retransmits.get(0), 0);
        assertThat(header.sequence()).isEqualTo(oldestSentStillRetained);
    }

    @Test
    void sendsRepairsBeforeNewData() {
        fillDatagrams(4);
        sink.datagrams.clear();
        offer(message(99, OutboundStream.maxFragmentLength(DATAGRAM)));

        stream.onNak(nak(1, 2), nowNs);
        stream.doWork(nowNs);

        assertThat(sink.datagrams).extracting(datagram -> HeaderFlyweight.typeCodeAt(datagram, 0))
            .containsExactly(FrameType.RETRANSMIT.code(), FrameType.RETRANSMIT.code(), FrameType.DATA.code());
    }

    @Test
    void onceQuietHeartbeatsComeAtDoublingIntervalsWithTheHighestSequenceSentThenEveryInterval() {
        fillDatagrams(3);
        sink.datagrams.clear();
        final List<Long> sentAt = new ArrayList<>();
        for (long at = nowNs; at <= nowNs + 3 * HEARTBEAT_NS; at += 10_000) {
            final int before = sink.ofType(FrameType.HEARTBEAT).size();
            stream.doWork(at);
            if (sink.ofType(FrameType.HEARTBEAT).size() > before) {
                sentAt.add(at - nowNs);
            }
        }

        final long quick = OutboundStream.QUICK_HEARTBEAT_NS;
        assertThat(sentAt).startsWith(quick, 3 * quick, 7 * quick, 15 * quick);
        assertThat(sentAt).as("gaps of 1, 2, 4 ... 512 quick intervals, then one heartbeat interval")
            .hasSize(11).last().isEqualTo(sentAt.get(9) + HEARTBEAT_NS);
        assertThat(sentAt.get(9)).isEqualTo(1023 * quick);
        final HeartbeatFlyweight heartbeat = new HeartbeatFlyweight();
        heartbeat.wrap(sink.ofType(FrameType.HEARTBEAT).get(0), 0);
        assertThat(heartbeat.sequence()).isEqualTo(2);
        assertThat(heartbeat.sessionAgeNs()).as("the session began at the first doWork").isEqualTo(quick);
    }

    @Test
    void dataCarriesTheSessionsAgeClassWhenFirstSent() {
        stream.doWork(nowNs);
        nowNs += 5_000_000;
        fillDatagrams(1);

        final DataFlyweight data = new DataFlyweight();
        data.wrap(sink.ofType(FrameType.DATA).get(0), 0);
        assertThat(data.ageClass()).isEqualTo(DataFlyweight.ageClassOf(5_000_000L));
        assertThat(DataFlyweight.minAgeNs(data.ageClass())).isLessThanOrEqualTo(5_000_000);
        assertThat(DataFlyweight.maxAgeNs(data.ageClass())).isGreaterThan(5_000_000);
    }

    @Test
    void heartbeatsGoOutEveryIntervalWhileBusyToo() {
        final int steps = 12;
        for (int step = 0; step <= steps; step++) {
            offer(message(step, 100));
            stream.doWork(nowNs + step * (HEARTBEAT_NS / 4));
        }

        assertThat(sink.ofType(FrameType.DATA)).hasSize(steps + 1);
        assertThat(sink.ofType(FrameType.HEARTBEAT)).as("one at start, then one per interval").hasSize(1 + steps / 4);
    }

    private void fillDatagrams(int count) {
        fillDatagrams(stream, count);
    }

    private void fillDatagrams(OutboundStream target, int count) {
        final int length = OutboundStream.maxFragmentLength(DATAGRAM);
        for (int i = 0; i < count; i++) {
            assertThat(offer(message(i, length))).isTrue();
            target.doWork(nowNs);
        }
        assertThat(target.sentUpTo()).isEqualTo(count);
    }

    private boolean offer(UnsafeBuffer message) {
        return offers.offer(message, 0, message.capacity());
    }

    private static NakFlyweight nak(long from, long to) {
        final NakFlyweight nak = new NakFlyweight();
        nak.wrap(new UnsafeBuffer(ByteBuffer.allocateDirect(NakFlyweight.lengthFor(1))), 0);
        nak.writeHeader(FrameType.NAK, NakFlyweight.lengthFor(1), SESSION, TOPIC, 0);
        nak.receiverId(9).rangeCount(1).range(0, from, to);
        return nak;
    }

    private static UnsafeBuffer message(int id, int length) {
        final UnsafeBuffer message = new UnsafeBuffer(new byte[length]);
        for (int i = 0; i < length; i++) {
            message.putByte(i, (byte) (id * 31 + i));
        }
        return message;
    }

    private static List<UnsafeBuffer> expectedMessages(int count, int length) {
        final List<UnsafeBuffer> messages = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            messages.add(message(i, length));
        }
        return messages;
    }

    /** Reassembles the messages carried by datagrams given in sequence order. */
    private static List<UnsafeBuffer> messagesIn(List<UnsafeBuffer> datagrams) {
        final List<UnsafeBuffer> messages = new ArrayList<>();
        final ByteBuffer partial = ByteBuffer.allocate(1 << 16);
        for (UnsafeBuffer datagram : datagrams) {
            int frame = DataFlyweight.DATA_HEADER_LENGTH;
            while (frame < datagram.capacity()) {
                final int length = MessageFrame.fragmentLength(datagram, frame);
                final int flags = MessageFrame.flags(datagram, frame);
                if (MessageFrame.isBegin(flags)) {
                    partial.clear();
                }
                datagram.getBytes(frame + MessageFrame.FRAME_HEADER_LENGTH, partial, length);
                if (MessageFrame.isEnd(flags)) {
                    final UnsafeBuffer whole = new UnsafeBuffer(new byte[partial.position()]);
                    whole.putBytes(0, partial.flip(), 0, whole.capacity());
                    messages.add(whole);
                }
                frame += MessageFrame.FRAME_HEADER_LENGTH + length;
            }
        }
        return messages;
    }
}
