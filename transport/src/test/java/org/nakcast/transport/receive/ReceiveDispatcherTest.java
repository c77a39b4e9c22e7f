package org.nakcast.transport.receive;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.nakcast.config.LateJoinPolicy;
import org.nakcast.transport.LineDown;
import org.nakcast.transport.LineUp;
import org.nakcast.transport.LossEvent;
import org.nakcast.transport.MessageHeader;
import org.nakcast.transport.PublisherGone;
import org.nakcast.transport.StreamEventListener;
import org.nakcast.transport.StreamRefused;
import org.nakcast.transport.StreamStarted;
import org.nakcast.transport.media.DatagramSource;
import org.nakcast.transport.media.Line;
import org.nakcast.transport.media.MulticastAddress;
import org.nakcast.transport.protocol.DataFlyweight;
import org.nakcast.transport.protocol.FrameType;
import org.nakcast.transport.protocol.HeaderFlyweight;
import org.nakcast.transport.protocol.HeartbeatFlyweight;
import org.nakcast.transport.protocol.MessageFrame;
import org.nakcast.transport.protocol.NakFlyweight;
import org.nakcast.transport.protocol.StatusFlyweight;
import org.nakcast.transport.protocol.UnrecoverableFlyweight;
import org.nakcast.transport.status.DatagramCheck;
import org.nakcast.transport.status.SystemCounter;
import org.nakcast.transport.testing.DataDatagramBuilder;
import org.nakcast.transport.testing.TestCounters;

/**
 * A receiver's session lifecycle, on a stepped clock: where a stream first heard starts, what
 * happens to one that falls silent and comes back, how a restart is told from two publishers that
 * share an id, and what does not belong on a port. Each datagram of session {@value #SESSION}
 * carries one message, numbered like the datagram.
 */
class ReceiveDispatcherTest {
    private static final int TOPIC = 4;
    private static final int SESSION = 501;
    private static final long MS = 1_000_000;
    private static final long HEARTBEAT_NS = 10 * MS;
    private static final long TIMEOUT_NS = 50 * MS;
    private static final int MAX_PUBLISHERS = 64;
    private static final int MADE_UP_SESSIONS = 1_000_000;

    private final TestCounters counters = new TestCounters();
    private final List<Object> events = new ArrayList<>();
    private final List<long[]> naks = new ArrayList<>();
    private final DataDatagramBuilder data = new DataDatagramBuilder(SESSION, TOPIC);
    private final UnsafeBuffer control =
        new UnsafeBuffer(ByteBuffer.allocateDirect(HeaderFlyweight.MAX_DATAGRAM_LENGTH));
    private final ReceiveDispatcher dispatcher =
        new ReceiveDispatcher(counters.counters(), 1, 7, ReceiverLog.NONE, error -> events.add(error));
    private long nowNs = 1_000 * MS;
    /** The line the next datagrams are heard on. */
    private MulticastAddress line = TestLines.A;
    private int maxPublishers = MAX_PUBLISHERS;
    /** Where the datagrams the test hands in come from: the publisher's host, 10.0.0.7, port 40000. */
    private final DatagramSource source = new DatagramSource().ipv4(0x0A00_0007, 40_000);

    private record Delivered(int sessionId, long index) {
    }

    private record Started(int sessionId, long firstSequence) {
    }

    private void subscribe(LateJoinPolicy lateJoin) {
        subscribe(List.of(TestLines.lineA()), 0, lateJoin);
    }

    private void subscribeOnTwoLines() {
        subscribe(List.of(TestLines.lineA(), TestLines.lineB()), 5 * MS, LateJoinPolicy.NOW);
    }

    private void subscribe(List<Line> lines, long lineTimeoutNs, LateJoinPolicy lateJoin) {
        subscribe(lines, lineTimeoutNs, lateJoin, Map.of());
    }

    private void subscribe(List<Line> lines, long lineTimeoutNs, LateJoinPolicy lateJoin, Map<Integer, Long> resume) {
        final SubscriptionSettings settings = new SubscriptionSettings("t", TOPIC, lines, lineTimeoutNs,
            InboundStreamSettings.DEFAULTS, TIMEOUT_NS, lateJoin, HEARTBEAT_NS, 0, maxPublishers, TIMEOUT_NS,
            List.of(), resume);
        final Recorder recorder = new Recorder();
        dispatcher.addSubscription(settings, DeliveryTarget.onReceivingThread(recorder, recorder), this::sendNak,
            new UnsafeBuffer(ByteBuffer.allocateDirect(HeaderFlyweight.MAX_DATAGRAM_LENGTH)), nowNs);
    }

    @Test
    void aDatagramOfTheTopicHeardOnALineTheTopicDoesNotTravelOnIsNotItsAndIsDropped() throws Exception {
        subscribe(LateJoinPolicy.NOW);
        line = TestLines.B;

        data(0, 0, false);
        heartbeat(SESSION, 0, MS, 77);
        dispatcher.poll(nowNs);

        assertThat(events).isEmpty();
        assertThat(counters.get(SystemCounter.NOT_SUBSCRIBED)).isEqualTo(2);
        assertThat(dispatcher.streamCount()).isZero();
    }

    @Test
    void onTwoLinesEachMessageComesOnceAndALineThatStopsBringingTheStreamIsDownUntilItBringsItAgain() {
        subscribeOnTwoLines();
        nowNs += 10 * MS;
        for (long sequence = 0; sequence < 3; sequence++) {
            line = TestLines.A;
            data(sequence, 0, false);
            line = TestLines.B;
            data(sequence, 0, false);
        }
        line = TestLines.A;
        data(3, 0, false);
        for (int beat = 0; beat < 6; beat++) {
            pollFor(MS);
            heartbeat(SESSION, 3, 0, 77);
        }
        dispatcher.poll(nowNs);
        line = TestLines.B;
        data(4, 0, false);
        line = TestLines.A;
        data(4, 0, false);
        dispatcher.poll(nowNs);

        assertThat(delivered()).containsExactly(0L, 1L, 2L, 3L, 4L);
        assertThat(events).filteredOn(event -> event instanceof LineDown || event instanceof LineUp)
            .extracting(event -> event.getClass().getSimpleName() + " "
                + (event instanceof LineDown down ? down.line() : ((LineUp) event).line()))
            .containsExactly("LineDown md-b", "LineUp md-b");
        assertThat(naks).isEmpty();
        assertThat(counters.get(SystemCounter.DUPLICATES)).isEqualTo(4);
        assertThat(counters.get(SystemCounter.LINES_DOWN)).isOne();
    }

    @Test
    void aStreamOnTwoLinesPublishesEachLinesCountersUnderTheLinesNamesUntilItEnds() {
        subscribeOnTwoLines();
        nowNs += 10 * MS;
        for (long sequence = 0; sequence < 3; sequence++) {
            line = TestLines.A;
            data(sequence, 0, false);
            line = TestLines.B;
            data(sequence, 0, false);
        }
        line = TestLines.A;
        data(3, 0, false);
        line = TestLines.B;
        data(4, 0, false);
        line = TestLines.A;
        data(4, 0, false);
        dispatcher.poll(nowNs);

        final String stream = ": topic 't' (" + TOPIC + "), session " + SESSION;
        assertThat(counters.valuesByLabel())
            .containsEntry("line md-a first copies" + stream, 4L)
            .containsEntry("line md-b first copies" + stream, 1L)
            .containsEntry("line md-a second copies" + stream, 1L)
            .containsEntry("line md-b second copies" + stream, 3L)
            .containsEntry("line md-b missed alone (datagrams)" + stream, 1L)
            .containsEntry("line md-a missed alone (datagrams)" + stream, 0L)
            .containsEntry("line md-b down" + stream, 0L)
            .containsEntry("gaps both lines missed" + stream, 0L)
            .containsEntry("receiver position" + stream, 5L);

        dispatcher.close();

        assertThat(counters.valuesByLabel().keySet()).noneMatch(label -> label.endsWith(stream));
    }

    @Test
    void aSubscriberThereBeforeASessionBeganGetsItFromItsFirstMessageThoughItsFirstDatagramsWereLost()
        throws Exception {
        subscribe(LateJoinPolicy.NOW);
        final long sessionStartNs = nowNs + MS;
        nowNs += 2 * MS;

        data(5, nowNs - sessionStartNs, false);
        pollUntilNak();

        assertThat(started()).containsExactly(new Started(SESSION, 0));
        assertThat(naks).singleElement().satisfies(range -> assertThat(range).containsExactly(0, 4));
        for (long sequence = 0; sequence < 5; sequence++) {
            data(sequence, nowNs - sessionStartNs, true);
        }
        assertThat(delivered()).containsExactly(0L, 1L, 2L, 3L, 4L, 5L);
    }

    @Test
    void aSubscriberThatJoinedASessionUnderWayStartsAtTheLiveEdge() throws Exception {
        subscribe(LateJoinPolicy.NOW);
        nowNs += 10 * MS;

        data(500, 100_000 * MS, false);
        data(501, 100_000 * MS, false);

        assertThat(started()).containsExactly(new Started(SESSION, 500));
        assertThat(delivered()).containsExactly(500L, 501L);
        assertThat(naks).isEmpty();
    }

    @Test
    void whileInDoubtAStreamHoldsWhatArrivesUntilAHeartbeatSaysTheSessionBeganAfterTheSubscription()
        throws Exception {
        subscribe(LateJoinPolicy.NOW);
        nowNs += 1_500_000;
        final long ageNs = 1_200_000;

        data(2, ageNs, false);
        data(3, ageNs, false);
        dispatcher.poll(nowNs);
        assertThat(started()).as("age 1.05..2.1 ms, subscribed 1.5 ms ago: in doubt").isEmpty();
        assertThat(naks).isEmpty();

        heartbeat(SESSION, 3, ageNs + 10_000, 77);
        assertThat(started()).containsExactly(new Started(SESSION, 0));
        data(0, ageNs, true);
        data(1, ageNs, true);

        assertThat(delivered()).containsExactly(0L, 1L, 2L, 3L);
    }

    /**
     * A stream held while its start is in doubt that falls silent ends without an event (the subscriber
     * never heard it began), is counted, and its session heard again holds from scratch.
     */
    @Test
    void aStreamSilentBeforeItsStartEndsUnannouncedAndIsCounted() throws Exception {
        subscribe(LateJoinPolicy.NOW);
        nowNs += 1_500_000;
        data(2, 1_200_000, false);
        data(3, 1_200_000, false);

        nowNs += TIMEOUT_NS + 2 * MS;
        dispatcher.poll(nowNs);

        assertThat(events).isEmpty();
        assertThat(counters.get(SystemCounter.STREAMS_GONE_UNSTARTED)).isOne();
        heartbeat(SESSION, 3, 500_000, 77);
        assertThat(started()).as("begun after the subscription: from its first datagram, 0").containsExactly(
            new Started(SESSION, 0));
        assertThat(delivered()).as("2 and 3 went with the stream that fell silent").isEmpty();
    }

    @Test
    void aSessionResumedAtAPositionBeginsAtTheMessageWantedAndDeliversNothingBefore() throws Exception {
        subscribe(List.of(TestLines.lineA()), 0, LateJoinPolicy.NOW, Map.of(SESSION, 5L));
        nowNs += MS;
        for (long sequence = 3; sequence <= 6; sequence++) {
            data(sequence, 10 * TIMEOUT_NS, false);
        }

        assertThat(started()).as("3 holds message 3, before the one wanted").containsExactly(new Started(SESSION, 3));
        assertThat(delivered()).containsExactly(5L, 6L);
    }

    @Test
    void aSessionResumedAtAPositionBeforeWhatIsHeardBeginsAtItsFirstDatagram() throws Exception {
        subscribe(List.of(TestLines.lineA()), 0, LateJoinPolicy.NOW, Map.of(SESSION, 2L));
        nowNs += MS;
        data(7, 10 * TIMEOUT_NS, false);

        assertThat(started()).containsExactly(new Started(SESSION, 0));
        pollUntilNak();
        assertThat(naks).last().satisfies(range -> assertThat(range).containsExactly(0, 6));
        for (long sequence = 0; sequence < 7; sequence++) {
            data(sequence, 10 * TIMEOUT_NS, true);
        }
        assertThat(delivered()).containsExactly(2L, 3L, 4L, 5L, 6L, 7L);
    }

    @Test
    void aLateJoinerFromTheSessionStartStartsAtItsFirstMessageHoweverLongAgoItBegan() throws Exception {
        subscribe(LateJoinPolicy.SESSION_START);
        nowNs += MS;
        heartbeat(SESSION, 99, 10 * TIMEOUT_NS, 77);
        data(100, 10 * TIMEOUT_NS, false);

        assertThat(started()).containsExactly(new Started(SESSION, 0));
        assertThat(delivered()).as("100 waits for 0..99").isEmpty();
        pollUntilNak();
        assertThat(naks).last().satisfies(range -> assertThat(range).containsExactly(0, 99));
    }

    @Test
    void aStreamSilentPastTheTimeoutEndsAndWhenHeardAgainResumesWithNothingTwiceOrSkipped() throws Exception {
        subscribe(LateJoinPolicy.OLDEST);
        nowNs += MS;
        heartbeat(SESSION, -1, 0, 77);
        for (long sequence = 0; sequence < 3; sequence++) {
            data(sequence, MS, false);
        }
        nowNs += TIMEOUT_NS + 2 * MS;
        dispatcher.poll(nowNs - MS);
        dispatcher.poll(nowNs);
        assertThat(events).filteredOn(PublisherGone.class::isInstance).singleElement()
            .extracting(event -> ((PublisherGone) event).cause()).isEqualTo(PublisherGone.Cause.SILENT);

        data(5, TIMEOUT_NS, false);
        pollUntilNak();
        data(3, TIMEOUT_NS, true);
        data(4, TIMEOUT_NS, true);

        assertThat(started()).containsExactly(new Started(SESSION, 0), new Started(SESSION, 3));
        assertThat(naks).last().satisfies(range -> assertThat(range).containsExactly(3, 4));
        assertThat(delivered()).containsExactly(0L, 1L, 2L, 3L, 4L, 5L);
    }

    /**
     * A stranger's made-up sessions, each one heartbeat and never a message, come and go by the
     * hundred while a real session is silent: the topic forgets them before the real one, which
     * resumes where it left off (late join {@code oldest} would replay it from its history, {@code
     * now} would skip what it sent meanwhile, were it forgotten).
     */
    @ParameterizedTest
    @EnumSource(LateJoinPolicy.class)
    void madeUpSessionsThatDeliveredNothingAreForgottenBeforeARealSessionThatFellSilent(LateJoinPolicy lateJoin)
        throws Exception {
        subscribe(lateJoin);
        nowNs += MS;
        final long sessionStartNs = nowNs;
        heartbeat(SESSION, -1, 0, 77);
        for (long sequence = 0; sequence < 3; sequence++) {
            data(sequence, MS, false);
        }
        pollFor(TIMEOUT_NS + 2 * MS);
        final int madeUpRounds = 6;
        final DatagramSource publisher = new DatagramSource().copy(source);
        for (int round = 0; round < madeUpRounds; round++) {
            for (int i = 0; i < MAX_PUBLISHERS; i++) {
                source.ipv4(0x0B00_0000 + i, 40_000);
                heartbeat(MADE_UP_SESSIONS + round * MAX_PUBLISHERS + i, 1_000, 100 * TIMEOUT_NS, 5_000 + i);
            }
            pollFor(TIMEOUT_NS + 2 * MS);
        }
        source.copy(publisher);
        assertThat(events).filteredOn(PublisherGone.class::isInstance)
            .as("every made-up session ended, so more were forgotten than the topic remembers")
            .hasSize(1 + madeUpRounds * MAX_PUBLISHERS);

        heartbeat(SESSION, 5, nowNs - sessionStartNs, 77);
        data(5, nowNs - sessionStartNs, false);
        pollUntilNak();
        data(3, nowNs - sessionStartNs, true);
        data(4, nowNs - sessionStartNs, true);

        assertThat(started()).filteredOn(started -> started.sessionId() == SESSION)
            .containsExactly(new Started(SESSION, 0), new Started(SESSION, 3));
        assertThat(delivered(SESSION)).containsExactly(0L, 1L, 2L, 3L, 4L, 5L);
        assertThat(events).noneMatch(LossEvent.class::isInstance);
    }

    /**
     * Made-up sessions that claim to have just begun, forgotten by the hundred, do not make a real
     * session begun before them look like one this receiver may have forgotten: it is still owed
     * from its first message.
     */
    @Test
    void forgottenMadeUpSessionsDoNotCostASessionBegunBeforeThemItsStart() throws Exception {
        subscribe(LateJoinPolicy.NOW);
        nowNs += MS;
        final long sessionStartNs = nowNs;
        final int madeUpRounds = 6;
        final DatagramSource publisher = new DatagramSource().copy(source);
        for (int round = 0; round < madeUpRounds; round++) {
            nowNs += MS;
            for (int i = 0; i < MAX_PUBLISHERS; i++) {
                source.ipv4(0x0B00_0000 + i, 40_000);
                heartbeat(MADE_UP_SESSIONS + round * MAX_PUBLISHERS + i, 1_000, 0, 5_000 + i);
            }
            pollFor(TIMEOUT_NS + 2 * MS);
        }
        assertThat(events).filteredOn(PublisherGone.class::isInstance)
            .as("every made-up session was taken, and ended").hasSize(madeUpRounds * MAX_PUBLISHERS);
        source.copy(publisher);

        heartbeat(SESSION, 2, nowNs - sessionStartNs, 77);
        pollUntilNak();
        for (long sequence = 0; sequence < 3; sequence++) {
            data(sequence, nowNs - sessionStartNs, true);
        }

        assertThat(started()).filteredOn(started -> started.sessionId() == SESSION)
            .containsExactly(new Started(SESSION, 0));
        assertThat(delivered(SESSION)).containsExactly(0L, 1L, 2L);
    }

    @Test
    void aStreamThatEndsWhileJoiningAMessageResumesAtTheDatagramWhereThatMessageBegan() throws Exception {
        subscribe(LateJoinPolicy.NOW);
        nowNs += MS;
        heartbeat(SESSION, -1, 0, 77);
        data.start(0, 0).message(text("m0")).frame(MessageFrame.BEGIN, text("m1 part one"));
        deliver(false);
        nowNs += TIMEOUT_NS + 2 * MS;
        dispatcher.poll(nowNs - MS);
        dispatcher.poll(nowNs);

        data.start(1, 1).frame(MessageFrame.END, text("m1 part two")).message(text("m2"));
        deliver(false);
        pollUntilNak();
        data.start(0, 0).message(text("m0")).frame(MessageFrame.BEGIN, text("m1 part one"));
        deliver(true);

        assertThat(naks).last().satisfies(range -> assertThat(range).containsExactly(0, 0));
        assertThat(delivered()).as("m0 once, m1 joined whole, m2").containsExactly(0L, 1L, 2L);
    }

    @Test
    void timeThisReceiverWasStoppedDoesNotCountAsAPublishersSilence() throws Exception {
        subscribe(LateJoinPolicy.NOW);
        nowNs += MS;
        heartbeat(SESSION, -1, 0, 77);
        dispatcher.poll(nowNs);

        nowNs += 3 * TIMEOUT_NS;
        dispatcher.poll(nowNs);
        nowNs += MS;
        dispatcher.poll(nowNs);

        assertThat(events).noneMatch(PublisherGone.class::isInstance);
    }

    /**
     * A receiver stopped for three timeouts reads, when it goes on, a heartbeat that waited in its
     * socket buffer all that time; its publisher died meanwhile. The stream was heard just now, so
     * the stop is no silence to forgive: it ends one timeout later, not one timeout plus the stop.
     */
    @Test
    void aStreamHeardAsThisReceiverGoesOnAfterAStopEndsOneTimeoutAfterIfNothingFollows() throws Exception {
        subscribe(LateJoinPolicy.NOW);
        nowNs += MS;
        heartbeat(SESSION, -1, 0, 77);
        dispatcher.poll(nowNs);

        nowNs += 3 * TIMEOUT_NS;
        heartbeat(SESSION, -1, 3 * TIMEOUT_NS, 77);
        dispatcher.poll(nowNs);
        pollFor(TIMEOUT_NS + 2 * MS);

        assertThat(events).filteredOn(PublisherGone.class::isInstance).singleElement()
            .extracting(event -> ((PublisherGone) event).cause()).isEqualTo(PublisherGone.Cause.SILENT);
    }

    /**
     * Two idle publishers share an id, their heartbeats half an interval apart; one heartbeat of the
     * first is lost, so when the second is next heard the first has been silent for one and a half
     * intervals: more than an interval (the rule that once ended it), less than two.
     */
    @Test
    void twoLivePublishersSharingAnIdDoNotEndEachOtherButARestartEndsTheOldSessionForGood() throws Exception {
        subscribe(LateJoinPolicy.NOW);
        final int other = SESSION + 1;
        for (int beat = 0; beat < 10; beat++) {
            pollFor(HEARTBEAT_NS / 2);
            if (beat != 4) {
                heartbeat(SESSION, -1, nowNs, 77);
            }
            pollFor(HEARTBEAT_NS / 2);
            heartbeat(other, -1, nowNs, 77);
        }
        assertThat(events).as("one missed heartbeat of an idle publisher").noneMatch(PublisherGone.class::isInstance);

        final int restarted = SESSION + 2;
        final long restartNs = nowNs + MS;
        for (int beat = 1; beat <= 4; beat++) {
            pollFor(HEARTBEAT_NS);
            heartbeat(other, -1, nowNs, 77);
            heartbeat(restarted, -1, nowNs - restartNs, 77);
        }
        data(0, nowNs, false);

        assertThat(events).filteredOn(PublisherGone.class::isInstance).singleElement().satisfies(event -> {
            assertThat(((PublisherGone) event).sessionId()).isEqualTo(SESSION);
            assertThat(((PublisherGone) event).cause()).isEqualTo(PublisherGone.Cause.RESTARTED);
            assertThat(((PublisherGone) event).newSessionId()).isEqualTo(restarted);
        });
        assertThat(delivered()).as("nothing of the earlier incarnation").isEmpty();
        assertThat(counters.get(SystemCounter.ENDED_SESSION_DATAGRAMS)).isOne();
    }

    /**
     * A session falls silent past the timeout and ends; another publisher sharing its id begins a
     * session, and a third session fills the topic. The first is heard again but finds no room; when
     * room is made, a stranger's UNRECOVERABLE from its address, past anything it sent, resumes it
     * and is ignored. The first was heard after the other began, though no stream took it: the
     * other's next heartbeat does not end it as restarted.
     */
    @Test
    void aSessionHeardWhileTheTopicHadNoRoomForItIsNotTakenForRestartedByAnotherOfItsId() throws Exception {
        maxPublishers = 2;
        subscribe(LateJoinPolicy.NOW);
        heartbeat(SESSION, -1, 0, 77);
        data(0, 0, false);
        pollFor(TIMEOUT_NS + 2 * MS);
        final int other = SESSION + 1;
        final long otherBeganNs = nowNs;
        source.ipv4(0x0A00_0008, 40_000);
        heartbeat(other, -1, 0, 77);
        source.ipv4(0x0A00_0009, 40_000);
        heartbeat(SESSION + 2, -1, 0, 99);
        while (events.stream().noneMatch(event -> event instanceof PublisherGone gone
            && gone.sessionId() == SESSION + 2)) {
            source.ipv4(0x0A00_0007, 40_000);
            heartbeat(SESSION, 0, nowNs, 77);
            source.ipv4(0x0A00_0008, 40_000);
            heartbeat(other, -1, nowNs - otherBeganNs, 77);
            pollFor(HEARTBEAT_NS);
        }
        assertThat(counters.get(SystemCounter.PUBLISHER_STREAMS_REFUSED)).as("heard, but no room").isPositive();

        source.ipv4(0x0A00_0007, 40_000);
        unrecoverable(SESSION, 5, 9, 10);
        source.ipv4(0x0A00_0008, 40_000);
        heartbeat(other, -1, nowNs - otherBeganNs, 77);

        assertThat(started()).as("resumed").endsWith(new Started(SESSION, 1));
        assertThat(events).filteredOn(PublisherGone.class::isInstance)
            .noneMatch(event -> ((PublisherGone) event).cause() == PublisherGone.Cause.RESTARTED);
    }

    /**
     * A publisher crashes and comes back as a new session whose announcing heartbeat is lost: its
     * first DATA decides where it starts, and its next heartbeats still prove the restart.
     */
    @Test
    void aRestartIsFoundWhenTheNewSessionsFirstDataDecidedItsStart() throws Exception {
        subscribe(LateJoinPolicy.NOW);
        final int crashed = SESSION + 5;
        final long restartNs = heardThenCrashed(crashed);

        data(0, 0, false);
        for (int beat = 1; beat <= 3; beat++) {
            pollFor(HEARTBEAT_NS);
            heartbeat(SESSION, 0, nowNs - restartNs, 77);
        }

        assertRestartedAs(crashed, SESSION);
        assertThat(delivered()).containsExactly(0L);
    }

    /** Two heartbeats of {@code session}, a heartbeat apart, then nothing: the time it crashed. */
    private long heardThenCrashed(int session) {
        heartbeat(session, -1, 0, 77);
        pollFor(HEARTBEAT_NS);
        heartbeat(session, -1, HEARTBEAT_NS, 77);
        pollFor(HEARTBEAT_NS);
        return nowNs;
    }

    private void assertRestartedAs(int crashed, int restarted) {
        assertThat(events).filteredOn(PublisherGone.class::isInstance).singleElement().satisfies(event -> {
            assertThat(((PublisherGone) event).sessionId()).isEqualTo(crashed);
            assertThat(((PublisherGone) event).cause()).isEqualTo(PublisherGone.Cause.RESTARTED);
            assertThat(((PublisherGone) event).newSessionId()).isEqualTo(restarted);
        });
    }

    /**
     * With max-publishers 2 a host holds one stream: its publisher, crashed and started again (a new
     * session from a new port), is still heard as a restart, not refused until the old one times out.
     */
    @Test
    void aPublisherRestartedOnAHostThatHoldsItsShareIsHeardAsARestart() throws Exception {
        maxPublishers = 2;
        subscribe(LateJoinPolicy.NOW);
        final int crashed = SESSION + 5;
        final long restartNs = heardThenCrashed(crashed);
        source.ipv4(0x0A00_0007, 40_001);
        for (int beat = 0; beat < 4; beat++) {
            heartbeat(SESSION, -1, nowNs - restartNs, 77);
            pollFor(HEARTBEAT_NS);
        }
        data(0, nowNs - restartNs, false);

        assertRestartedAs(crashed, SESSION);
        assertThat(nowNs - restartNs).as("sooner than the publisher timeout").isLessThan(TIMEOUT_NS);
        assertThat(delivered()).containsExactly(0L);
    }

    @Test
    void naksAndStatusOnADataPortAreMalformedAndMakeNoStream() throws Exception {
        subscribe(LateJoinPolicy.NOW);
        final NakFlyweight nak = new NakFlyweight();
        nak.wrap(control, 0);
        nak.writeHeader(FrameType.NAK, NakFlyweight.lengthFor(1), SESSION, TOPIC, 0);
        nak.receiverId(9).rangeCount(1).range(0, 0, 10);
        dispatcher.onDataDatagram(TestLines.A, source, control, 0, NakFlyweight.lengthFor(1), nowNs);
        final StatusFlyweight status = new StatusFlyweight();
        status.wrap(control, 0);
        status.writeHeader(FrameType.STATUS, StatusFlyweight.STATUS_LENGTH, SESSION, TOPIC, 3);
        dispatcher.onDataDatagram(TestLines.A, source, control, 0, StatusFlyweight.STATUS_LENGTH, nowNs);
        data.start(0, 0).message(text("m0"));
        dispatcher.onControlDatagram(data.buffer(), 0, data.length(), nowNs);
        dispatcher.poll(nowNs + TIMEOUT_NS * 3);

        assertThat(counters.counters().malformed(DatagramCheck.WRONG_PORT).get()).isEqualTo(3);
        assertThat(events).isEmpty();
    }

    @Test
    void aStrangersNakForTheWholeHistoryIsMalformedAndSilencesNoReceiver() throws Exception {
        subscribe(LateJoinPolicy.OLDEST);
        nowNs += MS;
        heartbeat(SESSION, -1, 0, 77);
        data(0, MS, false);
        data(2, MS, false);
        final NakFlyweight stranger = new NakFlyweight();
        stranger.wrap(control, 0);
        stranger.writeHeader(FrameType.NAK, NakFlyweight.lengthFor(1), SESSION, TOPIC, 0);
        stranger.receiverId(9).rangeCount(1).range(0, 0, 1L << 62);

        for (int i = 0; i < 100; i++) {
            dispatcher.onControlDatagram(control, 0, NakFlyweight.lengthFor(1), nowNs);
            nowNs += 10_000;
            dispatcher.poll(nowNs);
        }

        assertThat(counters.counters().malformed(DatagramCheck.NAK_TOO_WIDE).get()).isEqualTo(100);
        assertThat(counters.counters().get(SystemCounter.NAKS_SUPPRESSED).get()).isZero();
        assertThat(naks).as("its own NAK and retries, a stranger's NAK every 10 us notwithstanding").isNotEmpty()
            .allSatisfy(range -> assertThat(range).containsExactly(1, 1));
    }

    @Test
    void aStreamItsPublisherEndedEndsOnceEverythingIsDeliveredAndStaysEnded() throws Exception {
        subscribe(LateJoinPolicy.NOW);
        nowNs += MS;
        heartbeat(SESSION, -1, 0, 77);
        data(0, MS, false);
        data(1, MS, false);
        endOfStream(SESSION, 3, 2 * MS);
        dispatcher.poll(nowNs);
        assertThat(events).as("datagrams 2 and 3 are still missing").noneMatch(PublisherGone.class::isInstance);

        pollUntilNak();
        assertThat(naks).last().satisfies(range -> assertThat(range).containsExactly(2, 3));
        data(2, MS, true);
        data(3, MS, true);
        dispatcher.poll(nowNs);

        assertThat(delivered()).containsExactly(0L, 1L, 2L, 3L);
        assertThat(events).filteredOn(PublisherGone.class::isInstance).singleElement()
            .extracting(event -> ((PublisherGone) event).cause()).isEqualTo(PublisherGone.Cause.ENDED);
        assertThat(dispatcher.streamCount()).isZero();
        data(3, MS, true);
        endOfStream(SESSION, 3, 3 * MS);
        assertThat(dispatcher.streamCount()).as("an ended session does not come back").isZero();
        assertThat(counters.counters().get(SystemCounter.ENDED_SESSION_DATAGRAMS).get()).isEqualTo(2);
    }

    @Test
    void theEndOfASessionThatBeganBeforeTheSubscriptionStartsNothing() throws Exception {
        subscribe(LateJoinPolicy.NOW);
        nowNs += 10 * MS;

        endOfStream(SESSION, 500, 100_000 * MS);
        dispatcher.poll(nowNs);

        assertThat(events).isEmpty();
        assertThat(dispatcher.streamCount()).isZero();
    }

    @Test
    void theEndOfASessionOwedFromItsStartIsRepairedThenEnded() throws Exception {
        subscribe(LateJoinPolicy.NOW);
        nowNs += 2 * MS;

        endOfStream(SESSION, 1, MS);
        pollUntilNak();
        data(0, MS, true);
        data(1, MS, true);
        dispatcher.poll(nowNs);

        assertThat(started()).containsExactly(new Started(SESSION, 0));
        assertThat(delivered()).containsExactly(0L, 1L);
        assertThat(events).filteredOn(PublisherGone.class::isInstance).singleElement()
            .extracting(event -> ((PublisherGone) event).cause()).isEqualTo(PublisherGone.Cause.ENDED);
    }

    /**
     * A session is its publisher's on each line from the address and port it was first heard from
     * there: another host, or another process on the publisher's own host, sending in its name
     * changes nothing, and is counted.
     */
    @Nested
    class SourcePinning {
        private final DatagramSource publisher = new DatagramSource().copy(source);
        private final DatagramSource otherHost = new DatagramSource().ipv4(0x0A00_0009, 40_000);
        private final DatagramSource otherProcess = new DatagramSource().ipv4(0x0A00_0007, 40_001);

        private void from(DatagramSource sender) {
            source.copy(sender);
        }

        @Test
        void dataFromAnotherHostOrProcessIsDroppedAndCountedAndTheRealStreamGoesOnWithNothingLost() {
            subscribe(LateJoinPolicy.NOW);
            nowNs += MS;
            heartbeat(SESSION, -1, 0, 77);
            data(0, MS, false);
            from(otherHost);
            data(1, MS, false);
            data(2, MS, true);
            from(otherProcess);
            data(1, MS, false);
            from(publisher);
            data(1, MS, false);
            data(2, MS, false);
            dispatcher.poll(nowNs);

            assertThat(delivered()).containsExactly(0L, 1L, 2L);
            assertThat(counters.get(SystemCounter.WRONG_SOURCE)).isEqualTo(3);
            assertThat(counters.get(SystemCounter.DUPLICATES)).as("the forged copies were never taken").isZero();
        }

        @Test
        void anEndOfStreamOrUnrecoverableFromAnotherSourceEndsAndGivesUpNothing() {
            subscribe(LateJoinPolicy.NOW);
            nowNs += MS;
            heartbeat(SESSION, -1, 0, 77);
            data(0, MS, false);
            data(1, MS, false);
            data(3, MS, false);
            from(otherHost);
            unrecoverable(SESSION, 2, 2, 3);
            endOfStream(SESSION, 3, 2 * MS);
            dispatcher.poll(nowNs);
            from(publisher);
            data(2, MS, true);
            data(4, MS, false);
            pollFor(TIMEOUT_NS / 2);

            assertThat(delivered()).containsExactly(0L, 1L, 2L, 3L, 4L);
            assertThat(events).noneMatch(PublisherGone.class::isInstance).noneMatch(LossEvent.class::isInstance);
            assertThat(counters.get(SystemCounter.WRONG_SOURCE)).isEqualTo(2);
        }

        @Test
        void onAnAuthenticatedLineTheAddressIsNotAskedSoAReplayHeardFirstPinsNothing() {
            subscribe(List.of(TestLines.authenticatedLineA()), 0, LateJoinPolicy.NOW);
            line = TestLines.AUTHENTICATED_A;
            nowNs += MS;
            from(otherHost); // a stranger replays the publisher's signed datagrams before they arrive
            heartbeat(SESSION, -1, 0, 77);
            data(0, MS, false);
            from(publisher);
            data(0, MS, false);
            data(1, MS, false);
            data(2, MS, false);
            dispatcher.poll(nowNs);

            assertThat(delivered()).containsExactly(0L, 1L, 2L);
            assertThat(counters.get(SystemCounter.WRONG_SOURCE)).isZero();
            assertThat(counters.get(SystemCounter.DUPLICATES)).as("the replayed copy and the real one").isEqualTo(1);
        }

        @Test
        void aSilentStreamResumesOnlyWhenHeardFromItsOwnSourceAgain() {
            subscribe(LateJoinPolicy.OLDEST);
            nowNs += MS;
            heartbeat(SESSION, -1, 0, 77);
            data(0, MS, false);
            nowNs += TIMEOUT_NS + 2 * MS;
            dispatcher.poll(nowNs - MS);
            dispatcher.poll(nowNs);
            from(otherHost);
            data(1, TIMEOUT_NS, false);
            heartbeat(SESSION, 1, TIMEOUT_NS, 77);

            assertThat(dispatcher.streamCount()).as("nothing resumed").isZero();
            assertThat(counters.get(SystemCounter.WRONG_SOURCE)).isEqualTo(2);

            from(publisher);
            data(1, TIMEOUT_NS, false);
            assertThat(started()).containsExactly(new Started(SESSION, 0), new Started(SESSION, 1));
            assertThat(delivered()).containsExactly(0L, 1L);
        }

        @Test
        void eachLineHasItsOwnSource() {
            subscribeOnTwoLines();
            nowNs += 10 * MS;
            final DatagramSource lineB = new DatagramSource().ipv4(0x0A01_0007, 40_000);
            line = TestLines.A;
            data(0, 0, false);
            line = TestLines.B;
            from(lineB);
            data(0, 0, false);
            data(1, 0, false);
            line = TestLines.A;
            data(2, 0, false);
            from(publisher);
            data(2, 0, false);
            dispatcher.poll(nowNs);

            assertThat(delivered()).containsExactly(0L, 1L, 2L);
            assertThat(counters.get(SystemCounter.WRONG_SOURCE)).as("line B's source on line A").isOne();
        }
    }

    /**
     * One host making sessions up, from as many ports as it likes, holds at most half of a topic's
     * streams: a publisher on another host is taken at once, and delivers from its first message.
     */
    @Test
    void oneHostsSessionsTakeAtMostHalfTheTopicSoAPublisherElsewhereIsTakenAtOnce() {
        subscribe(LateJoinPolicy.NOW);
        nowNs += MS;
        final DatagramSource publisher = new DatagramSource().copy(source);
        for (int i = 0; i < MAX_PUBLISHERS; i++) {
            source.ipv4(0x0B00_0009, 50_000 + i);
            heartbeat(MADE_UP_SESSIONS + i, 1_000, 0, 5_000 + i);
        }
        assertThat(dispatcher.streamCount()).isEqualTo(MAX_PUBLISHERS / 2);
        assertThat(counters.get(SystemCounter.PUBLISHER_STREAMS_REFUSED)).isEqualTo(MAX_PUBLISHERS / 2);
        assertThat(events).filteredOn(StreamRefused.class::isInstance).hasSize(MAX_PUBLISHERS / 2)
            .allSatisfy(event -> assertThat(((StreamRefused) event).reason())
                .isEqualTo(StreamRefused.Reason.SOURCE_SHARE));

        source.copy(publisher);
        heartbeat(SESSION, -1, 0, 77);
        data(0, MS, false);
        data(1, MS, false);
        dispatcher.poll(nowNs);

        assertThat(started()).filteredOn(started -> started.sessionId() == SESSION)
            .containsExactly(new Started(SESSION, 0));
        assertThat(delivered(SESSION)).containsExactly(0L, 1L);
    }

    /**
     * A full topic tells its subscriptions of each session it turns away, once until a stream ends and
     * makes room: a recorder answers for such a session that its node turns it away.
     */
    @Test
    void aFullTopicTellsOfEachSessionItTurnsAwayOnceUntilAStreamEnds() {
        maxPublishers = 2;
        subscribe(LateJoinPolicy.NOW);
        nowNs += MS;
        heartbeat(SESSION, -1, 0, 77);
        source.ipv4(0x0A00_0008, 40_000);
        heartbeat(SESSION + 1, -1, 0, 78);
        source.ipv4(0x0A00_0009, 40_000);
        for (int i = 0; i < 3; i++) {
            heartbeat(SESSION + 2, -1, 0, 79);
        }
        assertThat(counters.get(SystemCounter.PUBLISHER_STREAMS_REFUSED)).isEqualTo(3);
        assertThat(events).filteredOn(StreamRefused.class::isInstance)
            .containsExactly(new StreamRefused(TOPIC, SESSION + 2, StreamRefused.Reason.TOPIC_FULL, 2));

        pollFor(TIMEOUT_NS + 2 * MS);
        heartbeat(SESSION + 2, -1, 0, 79);
        source.ipv4(0x0A00_000A, 40_000);
        heartbeat(SESSION + 3, -1, 0, 80);
        source.ipv4(0x0A00_000B, 40_000);
        heartbeat(SESSION + 4, -1, 0, 81);

        assertThat(dispatcher.streamCount()).isEqualTo(2);
        assertThat(events).filteredOn(StreamRefused.class::isInstance).as("told again once room was made")
            .containsExactly(new StreamRefused(TOPIC, SESSION + 2, StreamRefused.Reason.TOPIC_FULL, 2),
                new StreamRefused(TOPIC, SESSION + 4, StreamRefused.Reason.TOPIC_FULL, 2));
    }

    /** Sends DATA (or RETRANSMIT) {@code sequence}, holding message {@code sequence}, the session {@code ageNs} old. */
    private void data(long sequence, long ageNs, boolean retransmit) {
        data.start(sequence, sequence).message(text("m" + sequence));
        final DataFlyweight header = new DataFlyweight();
        header.wrap(data.buffer(), 0);
        header.flags(DataFlyweight.ageClassOf(ageNs), false);
        deliver(retransmit);
    }

    private void deliver(boolean retransmit) {
        data.retransmit(retransmit);
        dispatcher.onDataDatagram(line, source, data.buffer(), 0, data.length(), nowNs);
    }

    private void heartbeat(int sessionId, long highestSequence, long ageNs, long publisherId) {
        heartbeat(sessionId, highestSequence, ageNs, publisherId, false);
    }

    /** An UNRECOVERABLE: datagrams {@code from..to} are gone, the message after them is {@code firstMessageAfter}. */
    private void unrecoverable(int sessionId, long from, long to, long firstMessageAfter) {
        final UnrecoverableFlyweight unrecoverable = new UnrecoverableFlyweight();
        unrecoverable.wrap(control, 0);
        unrecoverable.writeHeader(FrameType.UNRECOVERABLE, UnrecoverableFlyweight.UNRECOVERABLE_LENGTH, sessionId,
            TOPIC, 0);
        unrecoverable.lostRange(from, to, firstMessageAfter);
        dispatcher.onDataDatagram(line, source, control, 0, UnrecoverableFlyweight.UNRECOVERABLE_LENGTH, nowNs);
    }

    /** An end-of-stream heartbeat: {@code lastSequence} is the session's last datagram. */
    private void endOfStream(int sessionId, long lastSequence, long ageNs) {
        heartbeat(sessionId, lastSequence, ageNs, 77, true);
    }

    private void heartbeat(int sessionId, long highestSequence, long ageNs, long publisherId, boolean end) {
        final HeartbeatFlyweight heartbeat = new HeartbeatFlyweight();
        heartbeat.wrap(control, 0);
        heartbeat.writeHeader(
            FrameType.HEARTBEAT, HeartbeatFlyweight.HEARTBEAT_LENGTH, sessionId, TOPIC, highestSequence);
        heartbeat.endOfStream(end).oldestSequence(0).publisherId(publisherId).sessionAgeNs(ageNs);
        dispatcher.onDataDatagram(line, source, control, 0, HeartbeatFlyweight.HEARTBEAT_LENGTH, nowNs);
    }

    /** Polls every millisecond, as a running receiver does at least, for {@code ns}. */
    private void pollFor(long ns) {
        for (long end = nowNs + ns; nowNs < end; ) {
            nowNs += MS;
            dispatcher.poll(nowNs);
        }
    }

    /** Polls, stepping the clock, until a NAK has gone out. */
    private void pollUntilNak() {
        final int before = naks.size();
        for (int i = 0; i < 1_000 && naks.size() == before; i++) {
            nowNs += 10_000;
            dispatcher.poll(nowNs);
        }
        assertThat(naks).as("a NAK went out").hasSizeGreaterThan(before);
    }

    private boolean sendNak(DirectBuffer buffer, int offset, int length) {
        if (HeaderFlyweight.typeCodeAt(buffer, offset) == FrameType.NAK.code()) {
            final NakFlyweight nak = new NakFlyweight();
            final UnsafeBuffer copy = new UnsafeBuffer(new byte[length]);
            copy.putBytes(0, buffer, offset, length);
            nak.wrap(copy, 0);
            naks.add(new long[] {nak.rangeFrom(0), nak.rangeTo(nak.rangeCount() - 1)});
        }
        return true;
    }

    private List<Started> started() {
        return events.stream().filter(Started.class::isInstance).map(Started.class::cast).toList();
    }

    private List<Long> delivered() {
        return events.stream().filter(Delivered.class::isInstance).map(event -> ((Delivered) event).index()).toList();
    }

    private List<Long> delivered(int sessionId) {
        return events.stream().filter(Delivered.class::isInstance).map(Delivered.class::cast)
            .filter(delivered -> delivered.sessionId() == sessionId).map(Delivered::index).toList();
    }

    private static byte[] text(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    /** Records what the subscription gets. */
    private final class Recorder implements MessageBytesHandler, StreamEventListener {
        @Override
        public void onMessage(DirectBuffer buffer, int offset, int length, MessageHeader header) {
            events.add(new Delivered(header.sessionId(), header.messageIndex()));
        }

        @Override
        public void onStreamStarted(StreamStarted started) {
            events.add(new Started(started.sessionId(), started.firstSequence()));
        }

        @Override
        public void onPublisherGone(PublisherGone event) {
            events.add(event);
        }

        @Override
        public void onLoss(LossEvent event) {
            events.add(event);
        }

        @Override
        public void onLineDown(LineDown event) {
            events.add(event);
        }

        @Override
        public void onLineUp(LineUp event) {
            events.add(event);
        }

        @Override
        public void onStreamRefused(StreamRefused event) {
            events.add(event);
        }
    }
}
