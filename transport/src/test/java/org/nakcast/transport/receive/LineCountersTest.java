package org.nakcast.transport.receive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.nakcast.transport.status.SystemCounter;

/** A stream on two lines publishes each line's tallies and the gaps both lines missed, and gives them back on close. */
class LineCountersTest {
    private static final long US = 1_000;
    private static final long MS = 1_000_000;
    private static final long LINE_TIMEOUT_NS = 10 * MS;
    private static final int A = 0;
    private static final int B = 1;
    private static final String STREAM =
        ": topic 'prices' (" + StreamHarness.TOPIC + "), session " + StreamHarness.SESSION;

    private final StreamHarness harness = new StreamHarness();

    LineCountersTest() {
        final String[] lines = {"md-a", "md-b"};
        harness.stream.arbitrateLines(lines, LINE_TIMEOUT_NS);
        harness.stream.reportLines(new LineCounters(harness.counters.counters().streams(), lines, "prices",
            StreamHarness.TOPIC, StreamHarness.SESSION));
    }

    private void send(int line, long sequence) {
        harness.on(line).data(sequence, sequence, "m" + sequence);
    }

    private void pollFor(long ns) {
        for (long end = harness.nowNs + ns; harness.nowNs < end; harness.advance(10 * US)) {
            harness.poll();
        }
    }

    private long line(String line, String what) {
        final Long value = harness.counters.valuesByLabel().get("line " + line + " " + what + STREAM);
        assertThat(value).as("line %s %s", line, what).isNotNull();
        return value;
    }

    @Test
    void eachLineCountsItsFirstAndSecondCopiesWhatItAloneMissedItsLagAndBothLinesTheGapsTheyMissedTogether() {
        // B trails A by 20 us; A misses 3 (B brings it before A goes past), B misses 5, both miss 7
        for (long sequence = 0; sequence < 10; sequence++) {
            if (sequence != 3 && sequence != 7) {
                send(A, sequence);
            }
            harness.advance(20 * US);
            if (sequence != 5 && sequence != 7) {
                send(B, sequence);
            }
            pollFor(100 * US);
        }
        pollFor(3 * MS);
        assertThat(harness.lastNakRanges()).containsExactly(new StreamHarness.Range(7, 7));
        harness.retransmit(7, 7, "m7");
        // A goes past 10 before B's first copy of it comes
        send(A, 11);
        send(B, 10);
        send(B, 11);
        pollFor(100 * US);

        assertThat(harness.deliveredTexts()).hasSize(12);
        assertThat(line("md-a", "first copies")).isEqualTo(9);
        assertThat(line("md-b", "first copies")).as("3 and 10").isEqualTo(2);
        assertThat(line("md-a", "second copies")).isZero();
        assertThat(line("md-b", "second copies")).isEqualTo(8);
        assertThat(line("md-a", "missed alone (datagrams)")).as("3, and 10 before B brought it").isEqualTo(2);
        assertThat(line("md-b", "missed alone (datagrams)")).as("5").isEqualTo(1);
        assertThat(line("md-a", "lag (ns)")).isZero();
        assertThat(line("md-b", "lag (ns)")).isPositive().isLessThanOrEqualTo(20 * US);
        assertThat(line("md-a", "down")).isZero();
        assertThat(line("md-b", "down")).isZero();
        assertThat(harness.counters.valuesByLabel()).containsEntry("gaps both lines missed" + STREAM, 1L);
        assertThat(harness.counter(SystemCounter.GAPS)).isOne();
        assertThat(harness.counter(SystemCounter.LINES_DOWN)).isZero();
    }

    @Test
    void aLineDownIsOneInItsCounterAndCountedOnceAsALineDownEventAndItsGapCountsAsMissedAloneWhenItIsBack() {
        send(A, 0);
        send(B, 0);
        for (long sequence = 1; sequence < 20; sequence++) {
            send(A, sequence);
            pollFor(MS);
        }
        assertThat(line("md-b", "down")).isOne();
        assertThat(line("md-a", "down")).isZero();
        assertThat(harness.counter(SystemCounter.LINES_DOWN)).isOne();

        send(B, 20);
        send(A, 20);
        pollFor(100 * US);

        assertThat(line("md-b", "down")).isZero();
        assertThat(line("md-b", "missed alone (datagrams)")).as("1 to 19, which A brought").isEqualTo(19);
        assertThat(line("md-a", "missed alone (datagrams)")).isZero();
        assertThat(harness.counter(SystemCounter.LINES_DOWN)).as("a line up is no second event").isOne();
        assertThat(harness.naks()).isEmpty();
    }

    @Test
    void closingTheStreamGivesEveryLineCounterBack() {
        send(A, 0);
        send(B, 0);
        harness.poll();
        assertThat(harness.counters.valuesByLabel().keySet()).filteredOn(label -> label.endsWith(STREAM))
            .hasSize(11);

        harness.stream.close();

        final Map<String, Long> left = harness.counters.valuesByLabel();
        assertThat(left.keySet()).noneMatch(label -> label.endsWith(STREAM));
    }

    @Test
    void aStreamOnOneLineHasNoLineCounters() {
        final StreamHarness oneLine = new StreamHarness();

        assertThatThrownBy(() -> oneLine.stream.reportLines(new LineCounters(oneLine.counters.counters().streams(),
            new String[] {"md-a", "md-b"}, "prices", StreamHarness.TOPIC, StreamHarness.SESSION)))
            .isInstanceOf(IllegalStateException.class).hasMessageContaining("one line");
    }
}
