package org.nakcast.transport.receive;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.nakcast.transport.LineDown;
import org.nakcast.transport.LineUp;
import org.nakcast.transport.receive.StreamHarness.Range;
import org.nakcast.transport.status.SystemCounter;

/** A stream heard on two lines: first copies taken, gaps NAKed only when both lines missed them, lines down and up. */
class LineArbitrationTest {
    private static final long US = 1_000;
    private static final long MS = 1_000_000;
    private static final long LINE_TIMEOUT_NS = 10 * MS;
    private static final int A = 0;
    private static final int B = 1;

    private final StreamHarness harness = new StreamHarness();

    LineArbitrationTest() {
        harness.stream.arbitrateLines(new String[] {"md-a", "md-b"}, LINE_TIMEOUT_NS);
    }

    /** Sends DATA {@code sequence} (holding message "m{sequence}") on {@code line}. */
    private StreamHarness send(int line, long sequence) {
        return harness.on(line).data(sequence, sequence, "m" + sequence);
    }

    /**
     * Line {@code line} goes on talking for {@code ns}: a heartbeat of {@code highest} every
     * millisecond, as a publisher's heartbeats come once its data stops, polled every 10 us.
     */
    private void talkOn(int line, long highest, long ns) {
        for (long end = harness.nowNs + ns; harness.nowNs < end; ) {
            pollFor(MS);
            harness.on(line).heartbeat(highest);
        }
        harness.poll();
    }

    /** Polls every 10 us for {@code ns}, as a busy receiver does. */
    private void pollFor(long ns) {
        for (long end = harness.nowNs + ns; harness.nowNs < end; harness.advance(10 * US)) {
            harness.poll();
        }
    }

    @Test
    void aDatagramOneLineLostAndTheOtherBroughtCostsNoNak() {
        for (long sequence = 0; sequence < 5; sequence++) {
            if (sequence != 2) {
                send(A, sequence);
            }
            harness.advance(50 * US);
            send(B, sequence);
            pollFor(100 * US);
        }
        pollFor(5 * MS);

        assertThat(harness.deliveredTexts()).containsExactly("m0", "m1", "m2", "m3", "m4");
        assertThat(harness.naks()).isEmpty();
        assertThat(harness.counter(SystemCounter.GAPS)).isZero();
        final LineArbiter lines = harness.stream.lines();
        assertThat(lines.firstCopies(A)).isEqualTo(4);
        assertThat(lines.firstCopies(B)).isEqualTo(1);
        assertThat(lines.secondCopies(B)).isEqualTo(4);
        assertThat(lines.lagNs(B)).isPositive().isLessThanOrEqualTo(50 * US);
    }

    @Test
    void aGapBothLinesMissedIsNakedOnlyOnceTheLaterLineWentPastIt() {
        send(A, 0);
        send(B, 0);
        send(A, 2);
        pollFor(3 * MS);
        assertThat(harness.naks()).as("line B may still bring 1").isEmpty();
        assertThat(harness.stream.naks().deadlineNs()).isEqualTo(NakScheduler.NO_DEADLINE);

        send(B, 2);
        pollFor(3 * MS);

        assertThat(harness.naks()).isNotEmpty();
        assertThat(harness.naks().get(0).ranges()).containsExactly(new Range(1, 1));
        assertThat(harness.counter(SystemCounter.GAPS)).isEqualTo(1);
    }

    @Test
    void aLostTailIsNakedOnceBothLinesHeartbeatPastIt() {
        send(A, 0);
        send(B, 0);
        harness.on(A).heartbeat(1);
        pollFor(3 * MS);
        assertThat(harness.naks()).isEmpty();

        harness.on(B).heartbeat(1);
        pollFor(3 * MS);

        assertThat(harness.naks()).isNotEmpty();
        assertThat(harness.lastNakRanges()).containsExactly(new Range(1, 1));
    }

    @Test
    void aLineThatBringsNothingNewWhileTheOtherTalksForTheLineTimeoutIsDownAndTheOtherAloneDecidesWhatToNak() {
        send(A, 0);
        send(B, 0);
        send(A, 1);
        send(A, 3);
        talkOn(A, 3, LINE_TIMEOUT_NS - MS);
        assertThat(harness.eventsOf(LineDown.class)).isEmpty();
        assertThat(harness.naks()).isEmpty();

        talkOn(A, 3, 5 * MS);

        assertThat(harness.eventsOf(LineDown.class)).singleElement().satisfies(down -> {
            assertThat(down.line()).isEqualTo("md-b");
            assertThat(down.topicId()).isEqualTo(StreamHarness.TOPIC);
            assertThat(down.sessionId()).isEqualTo(StreamHarness.SESSION);
            assertThat(down.behindNs()).isGreaterThanOrEqualTo(LINE_TIMEOUT_NS);
        });
        assertThat(harness.naks()).isNotEmpty();
        assertThat(harness.naks().get(0).ranges()).containsExactly(new Range(2, 2));
        assertThat(harness.losses()).isEmpty();
    }

    @Test
    void aLineNeverHeardIsDownAfterTheLineTimeout() {
        for (long sequence = 0; sequence < 3; sequence++) {
            send(A, sequence);
            pollFor(MS);
        }
        talkOn(A, 2, LINE_TIMEOUT_NS);

        assertThat(harness.eventsOf(LineDown.class)).extracting(LineDown::line).containsExactly("md-b");
        assertThat(harness.deliveredTexts()).containsExactly("m0", "m1", "m2");
    }

    @Test
    void aLineDownThatBringsTheStreamAgainIsUpAndGapsWaitForItOnceMore() {
        send(A, 0);
        send(A, 1);
        talkOn(A, 1, LINE_TIMEOUT_NS + MS);
        assertThat(harness.eventsOf(LineDown.class)).hasSize(1);

        send(B, 2);
        pollFor(100 * US);
        assertThat(harness.eventsOf(LineUp.class)).singleElement().satisfies(up -> {
            assertThat(up.line()).isEqualTo("md-b");
            assertThat(up.downNs()).isGreaterThanOrEqualTo(LINE_TIMEOUT_NS);
        });

        send(A, 4);
        pollFor(3 * MS);
        assertThat(harness.naks()).as("line B may still bring 3").isEmpty();
        send(B, 3);
        send(B, 4);
        pollFor(3 * MS);
        assertThat(harness.naks()).isEmpty();
        assertThat(harness.deliveredTexts()).containsExactly("m0", "m1", "m2", "m3", "m4");
    }

    /**
     * The publisher's thread stopped for longer than the line timeout between its two sends of
     * datagram 1: line A is one datagram ahead all that time, but says nothing more either.
     */
    @Test
    void aPublisherStoppedBetweenItsTwoSendsOfADatagramIsNoLineDown() {
        send(A, 0);
        send(B, 0);
        send(A, 1);
        pollFor(3 * LINE_TIMEOUT_NS);
        send(B, 1);
        send(A, 2);
        send(B, 2);
        pollFor(MS);

        assertThat(harness.eventsOf(LineDown.class)).isEmpty();
        assertThat(harness.naks()).isEmpty();
        assertThat(harness.deliveredTexts()).containsExactly("m0", "m1", "m2");
    }

    /**
     * As a receiver driven in turns with its publisher on one thread saw it: a round every 23 us,
     * each datagram on both lines; line B loses datagram 10 (10% loss), the thread is stopped for
     * 12.3 ms, and line B loses datagram 11 too, the first after the stop. Line A said nothing new
     * during the stop either: line B missed two datagrams, it is not down.
     */
    @Test
    void aLineThatLostTheDatagramsEitherSideOfAStopOfTheWholeStreamIsNotDown() {
        final long round = 23 * US;
        for (long sequence = 0; sequence < 10; sequence++) {
            send(A, sequence);
            send(B, sequence);
            harness.poll();
            harness.advance(round);
        }
        send(A, 10);
        harness.poll();
        harness.advance(12_300_501);
        send(A, 11);
        harness.poll();
        harness.advance(round);
        for (long sequence = 12; sequence < 20; sequence++) {
            send(A, sequence);
            send(B, sequence);
            harness.poll();
            harness.advance(round);
        }
        pollFor(MS);

        assertThat(harness.eventsOf(LineDown.class)).isEmpty();
        assertThat(harness.naks()).isEmpty();
        assertThat(harness.stream.lines().missedAlone(B)).isEqualTo(2);
    }

    /**
     * After a stop of the whole stream, line B brings nothing new while line A goes on: line B is
     * down once line A has gone on for half the line timeout more, the stop counting for the other half.
     */
    @Test
    void aLineDeadAcrossAStopOfTheWholeStreamIsDownOnceTheOtherTalkedHalfTheLineTimeoutMore() {
        send(A, 0);
        send(B, 0);
        send(A, 1);
        harness.advance(3 * LINE_TIMEOUT_NS);
        send(A, 2);
        harness.poll();
        talkOn(A, 2, LINE_TIMEOUT_NS / 2 - MS);
        assertThat(harness.eventsOf(LineDown.class)).isEmpty();

        talkOn(A, 2, 2 * MS);

        assertThat(harness.eventsOf(LineDown.class)).extracting(LineDown::line).containsExactly("md-b");
    }

    @Test
    void bothLinesQuietIsNoLineDown() {
        send(A, 0);
        harness.advance(30 * US);
        send(B, 0);
        for (int beat = 0; beat < 5; beat++) {
            pollFor(100 * MS);
            harness.on(A).heartbeat(0);
            harness.advance(30 * US);
            harness.on(B).heartbeat(0);
        }
        pollFor(100 * MS);

        assertThat(harness.eventsOf(LineDown.class)).isEmpty();
        assertThat(harness.naks()).isEmpty();
    }

    @Test
    void aLineLaggingLongerThanTheLineTimeoutIsDownUntilItsFirstDatagramThenStaysUpWhileItBringsNewOnes() {
        for (long sequence = 0; sequence < 60; sequence++) {
            send(A, sequence);
            if (sequence >= 20) {
                send(B, sequence - 20);
            }
            pollFor(MS);
        }

        assertThat(harness.events.stream().filter(event -> event instanceof LineDown || event instanceof LineUp))
            .as("down while nothing came on it, up with its first datagram, and never down again")
            .extracting(Object::getClass).containsExactly(LineDown.class, LineUp.class);
        assertThat(harness.stream.lines().lagNs(B)).isGreaterThan(LINE_TIMEOUT_NS);
        assertThat(harness.naks()).isEmpty();
    }

    @Test
    void oneLineStreamsNakAsSoonAsTheyFindAGap() {
        final StreamHarness oneLine = new StreamHarness();
        oneLine.data(0, 0, "m0").data(2, 2, "m2");

        assertThat(oneLine.stream.naks().deadlineNs()).isNotEqualTo(NakScheduler.NO_DEADLINE);
        assertThat(oneLine.stream.lines()).isNull();
        assertThat(List.of(oneLine.counter(SystemCounter.GAPS))).containsExactly(1L);
    }
}
