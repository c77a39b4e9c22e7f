package org.nakcast.transport.publish;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;

import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersManager;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.nakcast.transport.PublisherEventListener;
import org.nakcast.transport.ReceiverOutrun;
import org.nakcast.transport.media.DatagramSource;
import org.nakcast.transport.protocol.DataFlyweight;
import org.nakcast.transport.protocol.FrameType;
import org.nakcast.transport.protocol.HeaderFlyweight;
import org.nakcast.transport.protocol.HeartbeatFlyweight;
import org.nakcast.transport.protocol.MessageFrame;
import org.nakcast.transport.protocol.NakFlyweight;
import org.nakcast.transport.protocol.UnrecoverableFlyweight;
import org.nakcast.transport.receive.TestLines;
import org.nakcast.transport.status.SystemCounter;
import org.nakcast.transport.status.SystemCounters;

class OutboundStreamTest {
    /** Where the NAKs and STATUS of these tests come from: one receiver's host. */
    private static final DatagramSource RECEIVER_HOST = new DatagramSource().ipv4(0x0A00_0007, 40_007);
    private static final int SESSION = 77;
    private static final int TOPIC = 5;
    private static final long PUBLISHER_ID = 0x5EED_0001L;
    private static final int DATAGRAM = 256;
    private static final long HEARTBEAT_NS = 100_000_000L;
    private static final long HOLD_OFF_NS = 100_000L;
    private static final long CLOSE_LINGER_NS = 100_000_000L;
    private static final StreamTiming TIMING = new StreamTiming(HEARTBEAT_NS, 0, HOLD_OFF_NS, CLOSE_LINGER_NS);
    private static final long SECOND_NS = 1_000_000_000L;
    private static final long MILLISECOND_NS = 1_000_000L;
    /** The step of a clock that stands for a sending thread that never stops. */
    private static final long STEP_NS = 100_000L;
    /** The repair budget of {@link #stream}: about 3,900 datagrams a second, 8 at once. */
    private static final long REPAIR_RATE = 1_000_000;
    private static final long REPAIR_BURST = 8 * DATAGRAM;
    private static final long WHOLE_SEQUENCE_SPACE = 1L << 62;

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
    private final OfferBuffer offers = new OfferBuffer(64 * 1024, 8 * 1024, freed -> { });
    private final DatagramHistory history = new DatagramHistory(16L * DATAGRAM, DATAGRAM);
    private final OutboundStream stream =
        stream(SendRateLimiter.unpaced(), new RepairBudget(REPAIR_RATE, REPAIR_BURST, 0));
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

        stream.onNak(RECEIVER_HOST, nak(2, 2), nowNs);
        stream.onNak(RECEIVER_HOST, nak(2, 2), nowNs + HOLD_OFF_NS / 2);

        final List<UnsafeBuffer> retransmits = sink.ofType(FrameType.RETRANSMIT);
        assertThat(retransmits).hasSize(1);
        final DataFlyweight header = new DataFlyweight();
        header.wrap(retransmits.get(0), 0);
        assertThat(header.sequence()).isEqualTo(2);
        assertThat(messagesIn(retransmits)).isEqualTo(messagesIn(List.of(original)));
        assertThat(counters.get(SystemCounter.RETRANSMITS_HELD_OFF).get()).isEqualTo(1);

        stream.onNak(RECEIVER_HOST, nak(2, 2), nowNs + HOLD_OFF_NS);
        assertThat(sink.ofType(FrameType.RETRANSMIT)).hasSize(2);
    }

    @Test
    void answersANakForDatagramsGoneFromHistoryWithOneUnrecoverable() {
        final int sent = history.capacity() + 10;
        fillDatagrams(sent);
        final long oldest = stream.oldestRetained();

        stream.onNak(RECEIVER_HOST, nak(3, oldest + 1), nowNs);

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
        final List<Long> resent = sequencesOf(FrameType.RETRANSMIT);
        assertThat(resent).as("the datagrams asked for below the history stand for as many of the oldest held,"
            + " as far as the repair budget's burst goes").hasSizeGreaterThan(2)
            .containsExactlyElementsOf(range(oldest, oldest + resent.size()));
        assertThat(oldest + resent.size()).as("never more than it asked for").isLessThanOrEqualTo(2 * oldest - 3);
    }

    @Test
    void unrecoverableAnswersDrawOnTheRateLimiterLikeEverythingElse() {
        final int sent = history.capacity() + 10;
        final SendRateLimiter limiter = new SendRateLimiter(UnrecoverableFlyweight.UNRECOVERABLE_LENGTH,
            HeartbeatFlyweight.HEARTBEAT_LENGTH + (long) sent * DATAGRAM + UnrecoverableFlyweight.UNRECOVERABLE_LENGTH);
        final OutboundStream paced = stream(limiter, new RepairBudget(REPAIR_RATE, REPAIR_BURST, 0));
        fillDatagrams(paced, sent);

        paced.onNak(RECEIVER_HOST, nak(3, 3), nowNs);
        paced.onNak(RECEIVER_HOST, nak(3, 3), nowNs);

        assertThat(sink.ofType(FrameType.UNRECOVERABLE)).hasSize(1);
        assertThat(counters.get(SystemCounter.UNRECOVERABLE_SENT).get()).isEqualTo(1);

        paced.onNak(RECEIVER_HOST, nak(3, 3), nowNs + 1_000_000_000L);

        assertThat(sink.ofType(FrameType.UNRECOVERABLE)).hasSize(2);
    }

    @Test
    void repairsAFullRetransmitQueueCannotTakeAreCountedAndAskedForAgainLater() {
        final DatagramHistory large = new DatagramHistory(1024L * DATAGRAM, DATAGRAM);
        final OutboundStream starved = new OutboundStream(SESSION, TOPIC, PUBLISHER_ID, TIMING, offers, large,
            SendRateLimiter.unpaced(), new RepairBudget(1, DATAGRAM, 0), FlowControl.MAX, events, sink, counters);
        fillDatagrams(starved, 700);
        final int scattered = 300;

        for (int i = 0; i < scattered; i++) {
            starved.onNak(RECEIVER_HOST, nak(2L * i, 2L * i), nowNs);
        }

        final long resent = sink.ofType(FrameType.RETRANSMIT).size();
        assertThat(resent).as("the budget took one datagram").isOne();
        assertThat(counters.get(SystemCounter.RETRANSMITS_REFUSED).get()).as("256 ranges queued, one sent")
            .isEqualTo(scattered - 256 - resent);
    }

    @Test
    void ignoresNakedSequencesNotYetSent() {
        fillDatagrams(2);

        stream.onNak(RECEIVER_HOST, nak(5, 9), nowNs);

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

        stream.onNak(RECEIVER_HOST, nak(oldestSentStillRetained, oldestSentStillRetained), nowNs);
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

        stream.onNak(RECEIVER_HOST, nak(1, 2), nowNs);
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

    /**
     * Ten spells of 150 us spend the interval's quick heartbeats (each announced at 100 us) and make
     * 150 us the usual long spell; from then on a spell as long as usual goes unannounced, one that
     * lasts past twice the usual is announced once, at 300 us, however many it follows.
     */
    @Test
    void onceTheBudgetIsSpentASpellTwiceAsLongAsUsualIsStillAnnouncedOnce() {
        stream.doWork(nowNs);
        long at = nowNs;
        for (int spell = 0; spell < OutboundStream.QUICK_HEARTBEATS_PER_INTERVAL; spell++) {
            at = quietSpell(spell, at, 150_000);
        }
        final int afterBudget = sink.ofType(FrameType.HEARTBEAT).size();
        assertThat(afterBudget).as("the first, then one per spell")
            .isEqualTo(1 + OutboundStream.QUICK_HEARTBEATS_PER_INTERVAL);
        for (int spell = 0; spell < 20; spell++) {
            at = quietSpell(100 + spell, at, 150_000);
        }
        assertThat(sink.ofType(FrameType.HEARTBEAT)).as("usual spells, the budget spent").hasSize(afterBudget);

        offer(message(200, 100));
        stream.doWork(at);
        final List<Long> announcedAt = new ArrayList<>();
        for (long quiet = 10_000; quiet <= 2_000_000; quiet += 10_000) {
            final int before = sink.ofType(FrameType.HEARTBEAT).size();
            stream.doWork(at + quiet);
            if (sink.ofType(FrameType.HEARTBEAT).size() > before) {
                announcedAt.add(quiet);
            }
        }

        assertThat(at + 2_000_000 - nowNs).isLessThan(HEARTBEAT_NS);
        assertThat(announcedAt).as("twice the usual 150 us, once").containsExactly(300_000L);
    }

    /**
     * A stream paced at one datagram every 200 us never falls quiet for twice its usual spell: a
     * heartbeat interval of it costs the ten quick heartbeats of the budget and nothing more.
     */
    @Test
    void aStreamPacedSlowerThanTheFirstQuickHeartbeatCostsNoMoreThanTheBudget() {
        stream.doWork(nowNs);
        final int before = sink.ofType(FrameType.HEARTBEAT).size();
        long at = nowNs;
        final int datagrams = (int) (HEARTBEAT_NS / 200_000) - 10;
        for (int n = 0; n < datagrams; n++) {
            at = quietSpell(n, at, 200_000);
        }

        assertThat(sink.ofType(FrameType.DATA)).hasSize(datagrams);
        assertThat(sink.ofType(FrameType.HEARTBEAT).size() - before).as("within one interval")
            .isEqualTo(OutboundStream.QUICK_HEARTBEATS_PER_INTERVAL);
    }

    /**
     * Sends one datagram of message {@code number} at {@code at}, then keeps the stream working every
     * 10 us of a quiet spell of {@code spellNs}.
     *
     * @return when the spell ends
     */
    private long quietSpell(int number, long at, long spellNs) {
        offer(message(number, 100));
        stream.doWork(at);
        for (long quiet = 10_000; quiet < spellNs; quiet += 10_000) {
            stream.doWork(at + quiet);
        }
        return at + spellNs;
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
    void underFlowControlMaxNoDatagramWantsAStatus() {
        fillDatagrams(3 * history.capacity());

        assertThat(sink.ofType(FrameType.DATA)).noneSatisfy(datagram -> assertThat(wantsStatus(datagram)).isTrue());
    }

    @Test
    void underFlowControlMinEveryQuarterWindowADatagramWantsAStatusAndItsRetransmitToo() {
        final OutboundStream held = heldByOneReceiver();
        for (int round = 0; round < 4; round++) {
            fillDatagrams(held, history.capacity() / 2);
            held.onStatus(TestLines.A, RECEIVER_HOST, 7, held.sentUpTo(), nowNs);
        }
        held.onNak(RECEIVER_HOST, nak(history.capacity() + 4, history.capacity() + 5), nowNs);

        final long quarterWindow = history.capacity() / 2 / 4;
        assertThat(sink.ofType(FrameType.DATA).stream().filter(this::wantsStatus)
            .map(datagram -> HeaderFlyweight.sequenceAt(datagram, 0)))
            .containsExactlyElementsOf(LongStream.range(0, 2L * history.capacity())
                .filter(sequence -> sequence % quarterWindow == 0).boxed().toList());
        assertThat(sink.ofType(FrameType.RETRANSMIT)).extracting(this::wantsStatus).containsExactly(true, false);
    }

    private boolean wantsStatus(UnsafeBuffer datagram) {
        return DataFlyweight.statusWantedAt(datagram, 0);
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

    /**
     * Repairs draw on a budget of their own: they go first while it lasts, new data goes on when it
     * is spent, and a flood of NAKs takes no more than the budget.
     */
    @Nested
    class Closing {
        private final HeartbeatFlyweight heartbeat = new HeartbeatFlyweight();

        @Test
        void aClosedStreamSendsWhatWasOfferedThenHeartbeatsMarkedEndThenLingersForRepairs() {
            stream.doWork(nowNs);
            offer(message(1, 10));
            offer(message(2, 1000));
            offers.close();
            sink.datagrams.clear();

            stream.doWork(nowNs);

            final List<UnsafeBuffer> data = sink.ofType(FrameType.DATA);
            assertThat(messagesIn(data)).containsExactly(message(1, 10), message(2, 1000));
            heartbeat.wrap(sink.datagrams.get(sink.datagrams.size() - 1), 0);
            assertThat(heartbeat.typeCode()).isEqualTo(FrameType.HEARTBEAT.code());
            assertThat(heartbeat.isEndOfStream()).isTrue();
            assertThat(heartbeat.sequence()).as("the last datagram").isEqualTo(data.size() - 1);
            assertThat(stream.isFinished(nowNs)).isFalse();

            sink.datagrams.clear();
            stream.onNak(RECEIVER_HOST, nak(0, 0), nowNs + MILLISECOND_NS);
            assertThat(sequencesOf(FrameType.RETRANSMIT)).as("repairs while it lingers").containsExactly(0L);
            assertThat(stream.isFinished(nowNs + CLOSE_LINGER_NS - 1)).isFalse();
            assertThat(stream.isFinished(nowNs + CLOSE_LINGER_NS)).isTrue();
        }

        private boolean isEnd(UnsafeBuffer datagram) {
            heartbeat.wrap(datagram, 0);
            return heartbeat.isEndOfStream();
        }

        @Test
        void endOfStreamHeartbeatsFollowAtShortDoublingIntervals() {
            offer(message(1, 10));
            offers.close();
            stream.doWork(nowNs);
            final long endedNs = nowNs;
            sink.datagrams.clear();

            for (long step = 1; step <= 2_000; step++) {
                stream.doWork(endedNs + step * 10_000);
            }

            assertThat(sink.ofType(FrameType.HEARTBEAT)).as("within 20 ms of the end").hasSizeGreaterThanOrEqualTo(5)
                .allSatisfy(datagram -> {
                    assertThat(isEnd(datagram)).isTrue();
                    assertThat(HeaderFlyweight.sequenceAt(datagram, 0)).isZero();
                });
        }

        @Test
        void aStreamWaitsForWhatIsHeldBackBeforeItEnds() {
            offer(message(1, 10));
            offers.close();
            sink.refusing = true;
            stream.doWork(nowNs);
            assertThat(stream.isFinished(nowNs + CLOSE_LINGER_NS)).as("nothing sent yet").isFalse();

            sink.refusing = false;
            stream.doWork(nowNs + 1);

            assertThat(sink.ofType(FrameType.DATA)).hasSize(1);
            assertThat(stream.isFinished(nowNs + 1 + CLOSE_LINGER_NS)).isTrue();
        }

        @Test
        void anOpenStreamNeitherMarksItsEndNorFinishes() {
            offer(message(1, 10));
            for (long step = 0; step < 10; step++) {
                stream.doWork(nowNs + step * HEARTBEAT_NS);
            }

            assertThat(sink.ofType(FrameType.HEARTBEAT))
                .noneSatisfy(datagram -> assertThat(isEnd(datagram)).isTrue());
            assertThat(stream.isFinished(nowNs + 10 * HEARTBEAT_NS)).isFalse();
        }

        @Test
        void underFlowControlMinItFinishesOnceEveryReceiverHasTheEnd() {
            final OutboundStream held = heldByOneReceiver();
            offer(message(1, 10));
            offers.close();
            held.doWork(nowNs);

            held.onStatus(TestLines.A, RECEIVER_HOST, 7, held.sentUpTo(), nowNs);
            long stepNs = nowNs;
            while (!held.isFinished(stepNs) && stepNs < nowNs + CLOSE_LINGER_NS) {
                stepNs += 10_000;
                held.doWork(stepNs);
            }

            assertThat(stepNs - nowNs).as("done before the linger").isLessThan(CLOSE_LINGER_NS);
            assertThat(sink.ofType(FrameType.HEARTBEAT))
                .filteredOn(this::isEnd)
                .hasSizeGreaterThanOrEqualTo(OutboundStream.END_HEARTBEATS);
        }
    }

    @Nested
    class BudgetedRepairs {
        @Test
        void oneNakForEverySequenceThereIsQueuesNoMoreThanTheHistory() {
            fillDatagrams(history.capacity() + 10);
            final long oldest = stream.oldestRetained();
            sink.datagrams.clear();

            stream.onNak(RECEIVER_HOST, nak(0, WHOLE_SEQUENCE_SPACE), nowNs);
            for (int step = 1; step <= 100; step++) {
                stream.doWork(nowNs + step * 10 * MILLISECOND_NS);
            }

            assertThat(sequencesOf(FrameType.RETRANSMIT)).as("each sequence held and sent, once, lowest first")
                .containsExactlyElementsOf(range(oldest, stream.sentUpTo()));
            assertThat(sink.ofType(FrameType.UNRECOVERABLE)).hasSize(1);
        }

        @Test
        void repairsGoFirstWhileTheBudgetLastsThenNewDataThenTheRestAsItRefills() {
            fillDatagrams(history.capacity());
            sink.datagrams.clear();
            offer(message(99, OutboundStream.maxFragmentLength(DATAGRAM)));

            stream.onNak(RECEIVER_HOST, nak(4, 15), nowNs);
            stream.doWork(nowNs);

            assertThat(sink.datagrams).extracting(datagram -> HeaderFlyweight.sequenceAt(datagram, 0))
                .as("the burst of the budget (8 datagrams), then the new datagram")
                .containsExactly(4L, 5L, 6L, 7L, 8L, 9L, 10L, 11L, 16L);
            assertThat(counters.get(SystemCounter.REPAIRS_HELD_BACK).get()).isEqualTo(1);

            stream.doWork(nowNs + nanosToEarn(3 * DATAGRAM));
            assertThat(sequencesOf(FrameType.RETRANSMIT)).endsWith(12L, 13L, 14L).doesNotContain(15L);
            stream.doWork(nowNs + nanosToEarn(4 * DATAGRAM));
            assertThat(sequencesOf(FrameType.RETRANSMIT)).containsExactlyElementsOf(range(4, 16));
        }

        @Test
        void unpacedNewDataGoesOnUnderAFloodOfNaksThatGetsNoMoreThanTheBudget() {
            final int perStep = 4;
            final int steps = 1_000;
            for (int step = 0; step < steps; step++) {
                for (int i = 0; i < perStep; i++) {
                    assertThat(offer(message(step, OutboundStream.maxFragmentLength(DATAGRAM)))).isTrue();
                }
                stream.onNak(RECEIVER_HOST, nak(0, WHOLE_SEQUENCE_SPACE), nowNs);
                stream.doWork(nowNs);
                nowNs += MILLISECOND_NS;
            }
            stream.doWork(nowNs);

            assertThat(stream.sentUpTo()).as("everything offered is sent").isEqualTo((long) steps * perStep);

            final long repairBytes = bytesOf(FrameType.RETRANSMIT) + bytesOf(FrameType.UNRECOVERABLE);
            assertThat(repairBytes).as("a second at the repair rate, plus its burst")
                .isLessThanOrEqualTo(REPAIR_RATE + REPAIR_BURST)
                .isGreaterThan(REPAIR_RATE * 9 / 10);
            assertThat(counters.get(SystemCounter.REPAIRS_HELD_BACK).get()).isPositive();
        }

        @Test
        void unpacedTheBudgetGrowsWithNewDataAndAFloodTakesNoMoreThanItsShare() {
            final OutboundStream unpaced = stream(SendRateLimiter.unpaced(), new RepairBudget(1, REPAIR_BURST, 50));
            final int perStep = 4;
            final int steps = 1_000;
            for (int step = 0; step < steps; step++) {
                for (int i = 0; i < perStep; i++) {
                    offer(message(step, OutboundStream.maxFragmentLength(DATAGRAM)));
                }
                unpaced.onNak(RECEIVER_HOST, nak(0, WHOLE_SEQUENCE_SPACE), nowNs);
                unpaced.doWork(nowNs);
                nowNs += MILLISECOND_NS;
            }
            unpaced.doWork(nowNs);

            final long data = bytesOf(FrameType.DATA);
            assertThat(data).isEqualTo((long) steps * perStep * DATAGRAM);
            assertThat(bytesOf(FrameType.RETRANSMIT) + bytesOf(FrameType.UNRECOVERABLE))
                .as("half of the new data, give or take the burst")
                .isBetween(data / 2 - REPAIR_BURST, data / 2 + REPAIR_BURST);
        }

        @Test
        void pacedRepairsAndNewDataShareTheRateAndNewDataKeepsWhatTheBudgetLeaves() {
            final long rate = 2 * REPAIR_RATE;
            final long burst = 8 * DATAGRAM;
            final OutboundStream paced = stream(new SendRateLimiter(rate, burst),
                new RepairBudget(REPAIR_RATE, REPAIR_BURST, 0));
            final long endNs = nowNs + SECOND_NS;
            for (int step = 0; nowNs < endNs; step++, nowNs += STEP_NS) {
                while (offer(message(1, OutboundStream.maxFragmentLength(DATAGRAM)))) {
                    continue;
                }
                if (step % 10 == 0) {
                    paced.onNak(RECEIVER_HOST, nak(0, WHOLE_SEQUENCE_SPACE), nowNs);
                }
                paced.doWork(nowNs);
            }

            final long total = sink.datagrams.stream().mapToLong(UnsafeBuffer::capacity).sum();
            assertThat(total).as("everything within the send rate").isLessThanOrEqualTo(rate + burst);
            assertThat(bytesOf(FrameType.RETRANSMIT) + bytesOf(FrameType.UNRECOVERABLE))
                .as("repairs within their budget").isLessThanOrEqualTo(REPAIR_RATE + REPAIR_BURST);
            assertThat(bytesOf(FrameType.DATA)).as("new data keeps the rate less the repair budget and heartbeats")
                .isGreaterThanOrEqualTo(rate - REPAIR_RATE - REPAIR_BURST - bytesOf(FrameType.HEARTBEAT));
        }

        @Test
        void aFloodOfNaksForTheWholeHistoryDelaysAnotherReceiversRepairByOneRoundOfTheHistoryAtMost() {
            // a datagram and the UNRECOVERABLE answering the flood every millisecond
            final OutboundStream budgeted = stream(SendRateLimiter.unpaced(), new RepairBudget(
                1_000L * (DATAGRAM + UnrecoverableFlyweight.UNRECOVERABLE_LENGTH), 2L * DATAGRAM, 0));
            fillDatagrams(budgeted, history.capacity() + 10);
            final long oldest = budgeted.oldestRetained();
            final long newest = budgeted.sentUpTo() - 1;
            sink.datagrams.clear();

            budgeted.onNak(RECEIVER_HOST, nak(0, WHOLE_SEQUENCE_SPACE), nowNs);
            budgeted.onNak(RECEIVER_HOST, nak(newest, newest), nowNs);
            for (long step = 1; step < newest - oldest + 1; step++) {
                budgeted.onNak(RECEIVER_HOST, nak(0, WHOLE_SEQUENCE_SPACE), nowNs + step * MILLISECOND_NS);
                budgeted.doWork(nowNs + step * MILLISECOND_NS);
            }

            assertThat(sequencesOf(FrameType.RETRANSMIT)).as("one a millisecond, each held datagram once")
                .containsExactlyElementsOf(range(oldest, newest + 1));
        }

        @Test
        void whileAnotherHostAsksAFloodingHostQueuesNoMoreThanItsShareAndTheRestIsCounted() {
            final OutboundStream budgeted = stream(SendRateLimiter.unpaced(), new RepairBudget(
                1_000L * DATAGRAM, 4L * DATAGRAM, 0));
            fillDatagrams(budgeted, history.capacity() + 10);
            final long oldest = budgeted.oldestRetained();
            final long newest = budgeted.sentUpTo() - 1;
            final DatagramSource stranger = new DatagramSource().ipv4(0x0A00_0063, 40_099);
            budgeted.onNak(stranger, nak(0, WHOLE_SEQUENCE_SPACE), nowNs);
            assertThat(counters.get(SystemCounter.REPAIRS_OVER_SOURCE_SHARE).get()).as("alone: the budget's").isZero();
            sink.datagrams.clear();

            budgeted.onNak(RECEIVER_HOST, nak(newest, newest), nowNs + MILLISECOND_NS);
            for (long step = 2; step < 100; step++) {
                budgeted.onNak(stranger, nak(0, WHOLE_SEQUENCE_SPACE), nowNs + step * MILLISECOND_NS);
                budgeted.doWork(nowNs + step * MILLISECOND_NS);
            }

            assertThat(counters.get(SystemCounter.REPAIRS_OVER_SOURCE_SHARE).get())
                .as("held to its share while its repairs wait").isPositive();
            assertThat(sequencesOf(FrameType.RETRANSMIT)).as("the other host's repair, within the sweep")
                .contains(newest).allMatch(sequence -> sequence >= oldest && sequence <= newest);
        }

        @Test
        void unrecoverableAnswersDrawOnTheRepairBudget() {
            final int length = UnrecoverableFlyweight.UNRECOVERABLE_LENGTH;
            final OutboundStream budgeted = stream(SendRateLimiter.unpaced(), new RepairBudget(length, length, 0));
            fillDatagrams(budgeted, history.capacity() + 10);

            budgeted.onNak(RECEIVER_HOST, nak(3, 3), nowNs);
            budgeted.onNak(RECEIVER_HOST, nak(3, 3), nowNs);

            assertThat(sink.ofType(FrameType.UNRECOVERABLE)).hasSize(1);
            assertThat(counters.get(SystemCounter.REPAIRS_HELD_BACK).get())
                .as("the oldest datagram the first answer stands for, then the second answer").isEqualTo(2);

            budgeted.onNak(RECEIVER_HOST, nak(3, 3), nowNs + SECOND_NS);

            assertThat(sink.ofType(FrameType.UNRECOVERABLE)).hasSize(2);
        }

        /** How long the repair budget of {@link #stream} takes to earn {@code bytes}. */
        private static long nanosToEarn(long bytes) {
            return bytes * SECOND_NS / REPAIR_RATE + 1;
        }
    }

    /**
     * The sequences to resend are a set, ascending and merged; only what is sent and still in
     * history is resent, so a slot reused by a later datagram is never resent or rewritten.
     */
    @Nested
    class Retransmits {
        @Test
        void rangesAskedInAnyOrderAreResentLowestFirstAndEachOnce() {
            fillDatagrams(history.capacity());
            sink.datagrams.clear();
            sink.refusing = true;

            stream.onNak(RECEIVER_HOST, nak(9, 9), nowNs);
            stream.onNak(RECEIVER_HOST, nak(2, 5), nowNs);
            stream.onNak(RECEIVER_HOST, nak(4, 8), nowNs);
            stream.onNak(RECEIVER_HOST, nak(3, 3), nowNs);
            sink.refusing = false;
            stream.doWork(nowNs);

            assertThat(sequencesOf(FrameType.RETRANSMIT)).containsExactlyElementsOf(range(2, 10));
        }

        @Test
        void aQueuedRangeThatFallsOutOfHistoryIsNotResentFromItsReusedSlot() {
            final int length = DATAGRAM;
            final OutboundStream budgeted = stream(SendRateLimiter.unpaced(), new RepairBudget(length, length, 0));
            fillDatagrams(budgeted, history.capacity());
            sink.datagrams.clear();

            budgeted.onNak(RECEIVER_HOST, nak(10, 11), nowNs);
            budgeted.onNak(RECEIVER_HOST, nak(2, 3), nowNs);
            fillDatagrams(budgeted, 8);
            assertThat(budgeted.oldestRetained()).isEqualTo(9);
            budgeted.doWork(nowNs + 10 * SECOND_NS);
            budgeted.doWork(nowNs + 20 * SECOND_NS);

            assertThat(sequencesOf(FrameType.RETRANSMIT)).containsExactly(10L, 11L);
        }

        @Test
        void aRetransmitNeverSendsOrRewritesADatagramWaitingToBeSent() {
            fillDatagrams(history.capacity());
            sink.refusing = true;
            stream.onNak(RECEIVER_HOST, nak(10, 10), nowNs);
            stream.onNak(RECEIVER_HOST, nak(1, 2), nowNs);
            for (int i = 0; i < 3; i++) {
                offer(message(i, OutboundStream.maxFragmentLength(DATAGRAM)));
                stream.doWork(nowNs);
            }
            assertThat(stream.nextSequence()).as("sealed, in the slots of 0..2, not sent").isEqualTo(19);

            sink.refusing = false;
            stream.doWork(nowNs);

            assertThat(sequencesOf(FrameType.RETRANSMIT)).containsExactly(10L);
            assertThat(sequencesOf(FrameType.DATA)).containsExactlyElementsOf(range(0, 19));
        }
    }

    /** A receiver asking for data gone raises one {@link ReceiverOutrun} a second at most, counting the rest. */
    @Nested
    class OutrunEvents {
        @Test
        void aFloodOfNaksForDataGoneRaisesOneEventASecondThatCountsTheOthers() {
            fillDatagrams(history.capacity() + 10);
            final int naks = 2_500;
            for (int i = 0; i < naks; i++) {
                stream.onNak(RECEIVER_HOST, nak(100 + i % 3, 3, 3), nowNs + i * MILLISECOND_NS);
            }
            stream.doWork(nowNs + 3 * SECOND_NS);

            assertThat(outrun).extracting(ReceiverOutrun::suppressed).containsExactly(0L, 999L, 999L, 498L);
            assertThat(outrun).extracting(ReceiverOutrun::receiverId).containsExactly(100, 101, 102, 100);
            assertThat(outrun.get(1).describe()).endsWith("(and 999 more such requests since the last report)");
        }

        @Test
        void answeringAFloodOfNaksAllocatesNothingPerNak() {
            final com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
            final int[] sent = new int[1];
            final OutboundStream counting = new OutboundStream(SESSION, TOPIC, PUBLISHER_ID,
                TIMING, offers, history, SendRateLimiter.unpaced(),
                new RepairBudget(REPAIR_RATE, REPAIR_BURST, 0), FlowControl.MAX, events,
                (buffer, offset, length) -> ++sent[0] > 0, counters);
            final UnsafeBuffer message = message(1, OutboundStream.maxFragmentLength(DATAGRAM));
            final NakFlyweight wholeHistory = nak(0, WHOLE_SEQUENCE_SPACE);
            final NakFlyweight partly = nak(5, 9);
            floodFor(counting, message, wholeHistory, partly, 100);
            threads.getCurrentThreadAllocatedBytes();

            // Windows of 250 NAK rounds, all within the second after the first event, until one allocates
            // nothing: the JIT may deoptimize once and re-create an object; anything per NAK allocates
            // in every window.
            long allocated = -1;
            for (int window = 0; window < 3 && allocated != 0; window++) {
                final long before = threads.getCurrentThreadAllocatedBytes();
                floodFor(counting, message, wholeHistory, partly, 250);
                allocated = threads.getCurrentThreadAllocatedBytes() - before;
            }

            assertThat(outrun).as("the first, then every one folded within the second").hasSize(1);
            assertThat(counters.get(SystemCounter.RETRANSMITS_SENT).get()).isPositive();
            assertThat(allocated).isZero();
        }

        /** One NAK of each kind, one datagram of new data, every millisecond. */
        private void floodFor(OutboundStream target, UnsafeBuffer message, NakFlyweight wholeHistory,
            NakFlyweight partly, int milliseconds) {
            for (int i = 0; i < milliseconds; i++) {
                offers.offer(message, 0, message.capacity());
                target.onNak(RECEIVER_HOST, wholeHistory, nowNs);
                target.onNak(RECEIVER_HOST, partly, nowNs);
                target.doWork(nowNs);
                nowNs += MILLISECOND_NS;
            }
        }
    }

    /**
     * A stream over this test's offers, history, events and sink under flow control {@code min}
     * (a window of half the history), its one receiver (7) heard needing datagram 0.
     */
    private OutboundStream heldByOneReceiver() {
        final MinFlowControl flowControl = new MinFlowControl(TOPIC, SESSION, List.of(TestLines.A),
            history.capacity() / 2, SECOND_NS, history.capacity(), events, counters);
        final OutboundStream held = new OutboundStream(SESSION, TOPIC, PUBLISHER_ID, TIMING, offers, history,
            SendRateLimiter.unpaced(), new RepairBudget(REPAIR_RATE, REPAIR_BURST, 0), flowControl, events,
            sink, counters);
        held.onStatus(TestLines.A, RECEIVER_HOST, 7, 0, nowNs);
        return held;
    }

    /** A stream over this test's offers, history, events and sink. */
    private OutboundStream stream(SendRateLimiter rateLimiter, RepairBudget repairBudget) {
        return new OutboundStream(SESSION, TOPIC, PUBLISHER_ID, TIMING, offers, history, rateLimiter, repairBudget,
            FlowControl.MAX, events, sink, counters);
    }

    private void fillDatagrams(int count) {
        fillDatagrams(stream, count);
    }

    /** Offers and sends {@code count} more datagrams, one full message each. */
    private void fillDatagrams(OutboundStream target, int count) {
        final int length = OutboundStream.maxFragmentLength(DATAGRAM);
        final long before = target.sentUpTo();
        for (int i = 0; i < count; i++) {
            assertThat(offer(message(i, length))).isTrue();
            target.doWork(nowNs);
        }
        assertThat(target.sentUpTo()).isEqualTo(before + count);
    }

    private boolean offer(UnsafeBuffer message) {
        return offers.offer(message, 0, message.capacity());
    }

    private static NakFlyweight nak(long from, long to) {
        return nak(9, from, to);
    }

    private static NakFlyweight nak(int receiverId, long from, long to) {
        final NakFlyweight nak = new NakFlyweight();
        nak.wrap(new UnsafeBuffer(ByteBuffer.allocateDirect(NakFlyweight.lengthFor(1))), 0);
        nak.writeHeader(FrameType.NAK, NakFlyweight.lengthFor(1), SESSION, TOPIC, 0);
        nak.receiverId(receiverId).rangeCount(1).range(0, from, to);
        return nak;
    }

    /** The header sequences of the datagrams of {@code type} sent, in order. */
    private List<Long> sequencesOf(FrameType type) {
        return sink.ofType(type).stream().map(datagram -> HeaderFlyweight.sequenceAt(datagram, 0)).toList();
    }

    private long bytesOf(FrameType type) {
        return sink.ofType(type).stream().mapToLong(UnsafeBuffer::capacity).sum();
    }

    /** The sequences {@code from} (inclusive) to {@code to} (exclusive). */
    private static List<Long> range(long from, long to) {
        return LongStream.range(from, to).boxed().toList();
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
