package org.nakcast.transport.publish;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersManager;
import org.junit.jupiter.api.Test;
import org.nakcast.transport.PublisherEventListener;
import org.nakcast.transport.ReceiverDropped;
import org.nakcast.transport.media.DatagramSource;
import org.nakcast.transport.receive.TestLines;
import org.nakcast.transport.status.DatagramCheck;
import org.nakcast.transport.status.SystemCounter;
import org.nakcast.transport.status.SystemCounters;

class MinFlowControlTest {
    private static final long WINDOW = 100;
    private static final long TIMEOUT_NS = 1_000_000;
    /** What the stream has sent in most tests: every datagram below it. */
    private static final long SENT = 1_000;

    private final SystemCounters counters = new SystemCounters(new CountersManager(
        new UnsafeBuffer(ByteBuffer.allocateDirect(64 * 1024)),
        new UnsafeBuffer(ByteBuffer.allocateDirect(16 * 1024))));
    private final List<ReceiverDropped> dropped = new ArrayList<>();
    private final MinFlowControl flowControl = new MinFlowControl(3, 77, List.of(TestLines.A, TestLines.B), WINDOW,
        TIMEOUT_NS, 256,
        new PublisherEventListener() {
            @Override
            public void onReceiverDropped(ReceiverDropped event) {
                dropped.add(event);
            }
        }, counters);

    /** Receiver {@code receiverId}'s STATUS on line A, from its own host, 10.0.0.{@code receiverId}. */
    private void status(int receiverId, long position, long sent, long nowNs) {
        flowControl.onStatus(TestLines.A, host(receiverId), receiverId, position, sent, nowNs);
    }

    private static DatagramSource host(int number) {
        return new DatagramSource().ipv4(0x0A00_0000 | number, 40_000 + number);
    }

    @Test
    void withNoReceiverThePublisherKeepsItsOwnPace() {
        assertThat(flowControl.sendLimit(SENT, 0)).isEqualTo(Long.MAX_VALUE);
        assertThat(flowControl.hasReceivers()).isFalse();
    }

    @Test
    void thePublisherRunsAWindowAheadOfItsSlowestLiveReceiver() {
        status(1, 500, SENT, 0);
        status(2, 300, SENT, 0);
        status(3, 900, SENT, 0);

        assertThat(flowControl.sendLimit(SENT, 10)).isEqualTo(300 + WINDOW);

        status(2, 700, SENT, 20);
        assertThat(flowControl.sendLimit(SENT, 30)).isEqualTo(500 + WINDOW);
    }

    @Test
    void aStatusBeyondWhatWasSentIsRefusedCountedAndTheReceiverStaysWhereItWas() {
        status(1, 400, SENT, 0);

        status(1, Long.MAX_VALUE - 1, SENT, 1);
        status(2, SENT + 1, SENT, 1);

        assertThat(flowControl.sendLimit(SENT, 2)).as("not halted, not let loose").isEqualTo(400 + WINDOW);
        assertThat(flowControl.liveReceivers()).as("a refused STATUS makes no receiver").isOne();
        assertThat(counters.malformed(DatagramCheck.STATUS_BEYOND_SENT).get()).isEqualTo(2);
        assertThat(counters.get(SystemCounter.MALFORMED).get()).isEqualTo(2);
    }

    @Test
    void aStatusAtWhatWasSentIsBelieved() {
        status(1, SENT, SENT, 0);

        assertThat(flowControl.sendLimit(SENT, 1)).isEqualTo(SENT + WINDOW);
        assertThat(counters.get(SystemCounter.MALFORMED).get()).isZero();
    }

    @Test
    void theLimitSaturatesInsteadOfOverflowingNearTheEndOfTheSequenceSpace() {
        final long sent = Long.MAX_VALUE - 10;
        status(1, sent - 5, sent, 0);

        assertThat(flowControl.sendLimit(sent, 1)).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void aReceiverThatReportsLessThanBeforeIsBelievedSoARestartedReceiverHoldsThePublisher() {
        status(1, 900, SENT, 0);
        status(1, 50, SENT, 1);

        assertThat(flowControl.sendLimit(SENT, 2)).isEqualTo(50 + WINDOW);
    }

    @Test
    void anOlderStatusOvertakenOnTheWayHoldsThePublisherBackOnlyUntilTheReceiversNextStatus() {
        status(1, 600, SENT, 0);
        status(1, 500, SENT, 1);
        assertThat(flowControl.sendLimit(SENT, 2)).as("more cautious, never less").isEqualTo(500 + WINDOW);

        status(1, 650, SENT, 3);
        assertThat(flowControl.sendLimit(SENT, 4)).isEqualTo(650 + WINDOW);
    }

    @Test
    void aReceiverSilentBeyondTheTimeoutIsDroppedWithItsNumbersAndTheOthersGoOn() {
        status(1, 200, 700, 0);
        status(2, 600, 700, 0);
        status(2, 650, 700, TIMEOUT_NS);

        final long limit = flowControl.sendLimit(700, TIMEOUT_NS + 1);

        assertThat(limit).isEqualTo(650 + WINDOW);
        assertThat(dropped).singleElement().satisfies(event -> {
            assertThat(event.receiverId()).isEqualTo(1);
            assertThat(event.datagramsBehind()).isEqualTo(500);
            assertThat(event.forNs()).isEqualTo(TIMEOUT_NS + 1);
            assertThat(event.historyDatagrams()).isEqualTo(256);
            assertThat(event.describe()).contains("receiver 00000001 dropped", "500 datagrams behind",
                "history holds 256");
        });
        assertThat(counters.get(SystemCounter.RECEIVERS_DROPPED).get()).isOne();
        assertThat(flowControl.liveReceivers()).isOne();
    }

    @Test
    void whatWasOfferedStaysHeldForATimeoutWhereTheLastLiveReceiverLeftItThenGoesToNobody() {
        status(1, 200, 700, 0);
        assertThat(flowControl.sendLimit(700, 10)).isEqualTo(200 + WINDOW);

        final long droppedAtNs = TIMEOUT_NS + 1;
        assertThat(flowControl.sendLimit(700, droppedAtNs)).as("dropped, still held").isEqualTo(200 + WINDOW);
        assertThat(dropped).hasSize(1);
        assertThat(flowControl.hasReceivers()).as("new offers are not taken").isFalse();
        assertThat(flowControl.sendLimit(700, droppedAtNs + TIMEOUT_NS)).isEqualTo(200 + WINDOW);

        assertThat(flowControl.sendLimit(700, droppedAtNs + TIMEOUT_NS + 1)).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void aReceiverDroppedOnlyForItsLostStatusIsWaitedForAgainWhenItsNextStatusComes() {
        status(1, 200, 700, 0);
        flowControl.sendLimit(700, TIMEOUT_NS + 1);

        status(1, 210, 700, TIMEOUT_NS + 5);

        assertThat(flowControl.sendLimit(700, TIMEOUT_NS + 6)).isEqualTo(210 + WINDOW);
        assertThat(flowControl.hasReceivers()).isTrue();
        assertThat(flowControl.sendLimit(700, 2 * TIMEOUT_NS)).as("live again: waited for, with no end")
            .isEqualTo(210 + WINDOW);
    }

    @Test
    void forgedIdsFillingTheTableCannotCrowdOutASlowRealReceiver() {
        fillWithForgedReceiversAt(SENT);

        status(-1, 10, SENT, 1);

        assertThat(flowControl.liveReceivers()).isEqualTo(MinFlowControl.MAX_RECEIVERS);
        assertThat(flowControl.sendLimit(SENT, 2)).as("held to the real one").isEqualTo(10 + WINDOW);
        assertThat(turnedAway()).as("the fastest forged one displaced").isOne();
    }

    @Test
    void aNewcomerNoSlowerThanTheFastestTrackedIsTurnedAwayAndCounted() {
        fillWithForgedReceiversAt(500);

        status(-1, 500, SENT, 1);
        status(-2, 900, SENT, 1);

        assertThat(flowControl.sendLimit(SENT, 2)).isEqualTo(500 + WINDOW);
        assertThat(turnedAway()).isEqualTo(2);
        status(-2, 400, SENT, 3);
        assertThat(flowControl.sendLimit(SENT, 4)).as("no longer refused once slower").isEqualTo(400 + WINDOW);
    }

    @Test
    void aFullTableStillFollowsItsSlowestReceiverWhenOthersKeepArriving() {
        status(-1, 10, SENT, 0);
        fillWithForgedReceiversAt(20);

        for (int forged = 1_000; forged < 1_000 + 10 * MinFlowControl.MAX_RECEIVERS; forged++) {
            status(forged, 15, SENT, 1);
        }

        assertThat(flowControl.sendLimit(SENT, 2)).isEqualTo(10 + WINDOW);
        status(-1, 12, SENT, 3);
        assertThat(flowControl.sendLimit(SENT, 4)).as("it still moves the publisher").isEqualTo(12 + WINDOW);
    }

    /** Receivers 0, 1, ... at {@code position} until the table is full. */
    private void fillWithForgedReceiversAt(long position) {
        for (int receiver = 0; flowControl.liveReceivers() < MinFlowControl.MAX_RECEIVERS; receiver++) {
            status(receiver, position, SENT, 0);
        }
        assertThat(turnedAway()).isZero();
    }

    private long turnedAway() {
        return counters.get(SystemCounter.FLOW_CONTROL_RECEIVERS_TURNED_AWAY).get();
    }

    @Test
    void aStatusInAReceiversNameFromAnotherHostChangesNothingAndIsCounted() {
        status(1, 200, 700, 0);
        flowControl.onStatus(TestLines.A, host(9), 1, 690, 700, 10);
        assertThat(flowControl.sendLimit(700, 20)).as("not moved by the stranger").isEqualTo(200 + WINDOW);

        flowControl.onStatus(TestLines.A, host(9), 1, 200, 700, TIMEOUT_NS);
        flowControl.sendLimit(700, TIMEOUT_NS + 1);
        assertThat(dropped).as("not kept alive by the stranger").singleElement()
            .satisfies(event -> assertThat(event.cause()).isEqualTo(ReceiverDropped.Cause.SILENT));
        assertThat(counters.get(SystemCounter.STATUS_WRONG_SOURCE).get()).isEqualTo(2);
    }

    @Test
    void onAnAuthenticatedLineTheAddressIsNotAskedSoAReplayHeardFirstPinsNothing() {
        final MinFlowControl authenticated = new MinFlowControl(3, 77, List.of(TestLines.AUTHENTICATED_A), WINDOW,
            TIMEOUT_NS, 256, new PublisherEventListener() {
                @Override
                public void onReceiverDropped(ReceiverDropped event) {
                    dropped.add(event);
                }
            }, counters);
        // a stranger replays the receiver's signed STATUS from its own host before the receiver's own arrives
        authenticated.onStatus(TestLines.AUTHENTICATED_A, host(9), 1, 200, 700, 0);
        for (int k = 0; k <= 8; k++) {
            authenticated.onStatus(TestLines.AUTHENTICATED_A, host(1), 1, 300 + 10 * k, 700, k * TIMEOUT_NS / 4);
        }

        assertThat(authenticated.sendLimit(700, 2 * TIMEOUT_NS)).as("moved by its own STATUS").isEqualTo(380 + WINDOW);
        assertThat(dropped).as("not dropped as silent").isEmpty();
        assertThat(counters.get(SystemCounter.STATUS_WRONG_SOURCE).get()).isZero();
    }

    @Test
    void aDroppedReceiversIdStaysPinnedSoAStrangerCannotTakeItAndTheReceiverComesBack() {
        status(1, 600, 700, 0);
        flowControl.sendLimit(700, TIMEOUT_NS + 1);
        assertThat(dropped).as("silent").hasSize(1);

        flowControl.onStatus(TestLines.A, host(9), 1, 690, 700, TIMEOUT_NS + 2);
        assertThat(flowControl.liveReceivers()).as("not the stranger's to take").isZero();
        assertThat(counters.get(SystemCounter.STATUS_WRONG_SOURCE).get()).isOne();

        status(1, 650, 700, TIMEOUT_NS + 3);
        assertThat(flowControl.liveReceivers()).isOne();
        assertThat(flowControl.sendLimit(700, TIMEOUT_NS + 4)).isEqualTo(650 + WINDOW);
        flowControl.onStatus(TestLines.A, host(9), 1, 690, 700, TIMEOUT_NS + 5);
        assertThat(flowControl.sendLimit(700, TIMEOUT_NS + 6)).as("pinned as before").isEqualTo(650 + WINDOW);
    }

    @Test
    void aReceiverPushedOutOfAFullTableKeepsItsPins() {
        for (int id = 1; id <= MinFlowControl.MAX_RECEIVERS; id++) {
            status(id, 500 + id, 700, 0);
        }
        status(100, 300, 700, 0);
        assertThat(counters.get(SystemCounter.FLOW_CONTROL_RECEIVERS_TURNED_AWAY).get()).isOne();

        final int pushedOut = MinFlowControl.MAX_RECEIVERS;
        flowControl.onStatus(TestLines.A, host(9), pushedOut, 200, 700, 1);
        assertThat(counters.get(SystemCounter.STATUS_WRONG_SOURCE).get()).as("its id, another host").isOne();
    }

    @Test
    void aReceiverIsPinnedPerLineSoItsSecondLinesAddressIsItsOwnToo() {
        status(1, 200, 700, 0);
        flowControl.onStatus(TestLines.B, host(101), 1, 300, 700, 10);
        flowControl.onStatus(TestLines.B, host(101), 1, 400, 700, 20);
        flowControl.onStatus(TestLines.A, host(101), 1, 650, 700, 30);

        assertThat(flowControl.sendLimit(700, 40)).isEqualTo(400 + WINDOW);
        assertThat(counters.get(SystemCounter.STATUS_WRONG_SOURCE).get()).isOne();
    }

    @Test
    void aReceiverAFullWindowBehindAndNotMovingForTheTimeoutIsDroppedAsStuckThoughHeard() {
        status(1, 600, 700, 0);
        status(2, 650, 700, 0);
        for (long nowNs = 0; nowNs <= TIMEOUT_NS; nowNs += TIMEOUT_NS / 4) {
            status(1, 600, 700, nowNs);
            status(2, 650 + nowNs / 1000, 700 + nowNs / 1000, nowNs);
        }

        final long limit = flowControl.sendLimit(700, TIMEOUT_NS + 1);

        assertThat(dropped).singleElement().satisfies(event -> {
            assertThat(event.receiverId()).isEqualTo(1);
            assertThat(event.cause()).isEqualTo(ReceiverDropped.Cause.STUCK);
            assertThat(event.forNs()).isEqualTo(TIMEOUT_NS + 1);
            assertThat(event.describe()).contains("stuck (heard, not moving)");
        });
        assertThat(limit).isEqualTo(650 + 1_000 + WINDOW);
        assertThat(counters.get(SystemCounter.RECEIVERS_STUCK).get()).isOne();
        assertThat(counters.get(SystemCounter.RECEIVERS_DROPPED).get()).isOne();
    }

    @Test
    void aReceiverNotMovingIsWaitedForWhileThePublisherCanStillSend() {
        status(1, 650, 700, 0);
        status(1, 650, 700, TIMEOUT_NS);

        assertThat(flowControl.sendLimit(700, 2 * TIMEOUT_NS)).as("less than a window behind: not stuck")
            .isEqualTo(650 + WINDOW);
        assertThat(dropped).isEmpty();

        status(1, 650, 750, 2 * TIMEOUT_NS);
        assertThat(flowControl.sendLimit(750, 2 * TIMEOUT_NS + 1))
            .as("a window behind, unmoved since 0: dropped, and, heard standing still, not held for")
            .isEqualTo(Long.MAX_VALUE);
        assertThat(dropped).singleElement().satisfies(event ->
            assertThat(event.cause()).isEqualTo(ReceiverDropped.Cause.STUCK));
    }

    @Test
    void aReceiverThatHadAllThatWasSentIsNotStuckWhenThePublisherThenSendsAWindowAtOnce() {
        for (long nowNs = 0; nowNs <= 2 * TIMEOUT_NS; nowNs += TIMEOUT_NS / 4) {
            status(1, 700, 700, nowNs);
            assertThat(flowControl.sendLimit(700, nowNs)).isEqualTo(700 + WINDOW);
        }

        assertThat(flowControl.sendLimit(800, 2 * TIMEOUT_NS + 1))
            .as("it stood still with nothing to move for: waited for, not dropped").isEqualTo(700 + WINDOW);
        assertThat(dropped).isEmpty();

        status(1, 700, 800, 3 * TIMEOUT_NS);
        assertThat(flowControl.sendLimit(800, 3 * TIMEOUT_NS + 1)).as("a window behind for the timeout since")
            .isEqualTo(Long.MAX_VALUE);
        assertThat(dropped).singleElement().satisfies(event -> {
            assertThat(event.cause()).isEqualTo(ReceiverDropped.Cause.STUCK);
            assertThat(event.forNs()).isEqualTo(TIMEOUT_NS + 1);
        });
    }

    @Test
    void aHostWhoseReceiverWasStuckBringsInNoNewReceiverFarBehindWhileBenchedButOneCaughtUp() {
        status(1, 600, 700, 0);
        flowControl.sendLimit(700, TIMEOUT_NS / 2);
        status(1, 600, 700, TIMEOUT_NS);
        flowControl.sendLimit(700, TIMEOUT_NS + 1);
        assertThat(dropped).hasSize(1);

        final DatagramSource sameHostOtherPort = new DatagramSource().ipv4(0x0A00_0001, 50_000);
        flowControl.onStatus(TestLines.A, sameHostOtherPort, 77, 600, 700, 2 * TIMEOUT_NS);
        status(1, 600, 700, 2 * TIMEOUT_NS);
        assertThat(flowControl.liveReceivers()).as("made-up and stuck ids a window behind, benched").isZero();
        assertThat(counters.get(SystemCounter.STATUS_FROM_BENCHED_HOSTS).get()).isEqualTo(2);

        status(2, 600, 700, 3 * TIMEOUT_NS);
        assertThat(flowControl.liveReceivers()).as("another host is not benched").isOne();
        status(1, 601, 700, 3 * TIMEOUT_NS);
        assertThat(flowControl.liveReceivers()).as("the stuck one, caught up closer than a window").isEqualTo(2);

        final long benchEndsNs = TIMEOUT_NS + 1 + MinFlowControl.BENCH_TIMEOUTS * TIMEOUT_NS;
        flowControl.onStatus(TestLines.A, sameHostOtherPort, 79, 600, 700, benchEndsNs);
        assertThat(flowControl.liveReceivers()).as("a STATUS a window behind at its end keeps it benched")
            .isEqualTo(2);

        flowControl.onStatus(TestLines.A, sameHostOtherPort, 80, 600, 700, benchEndsNs + TIMEOUT_NS + 1);
        assertThat(flowControl.liveReceivers()).as("bench over").isEqualTo(3);
    }
}
