package org.nakcast.transport.receive;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.nakcast.transport.protocol.HeaderFlyweight;

class StatusReporterTest {
    private static final long KEEP_ALIVE_NS = 50_000_000L;
    private static final long STEP_NS = 10_000L;

    /** The position of each STATUS sent, in order. */
    private final List<Long> sent = new ArrayList<>();
    private final StatusReporter reporter = new StatusReporter(77, 5, 9,
        (buffer, offset, length) -> sent.add(HeaderFlyweight.sequenceAt(buffer, offset)), KEEP_ALIVE_NS);
    private long nowNs = 1_000_000_000L;

    @Test
    void whileThePositionMovesAStatusGoesAtMostEveryInterval() {
        reporter.poll(0, nowNs);
        for (long position = 1; position <= 200; position++) {
            nowNs += STEP_NS;
            reporter.poll(position, nowNs);
        }

        assertThat(sent).as("the first at once, then one per interval of %d steps",
            StatusReporter.MIN_INTERVAL_NS / STEP_NS).containsExactly(0L, 100L, 200L);
    }

    @Test
    void aPositionPastADatagramThatWantedAStatusIsReportedAtOnce() {
        reporter.poll(0, nowNs);
        reporter.wantedPast(4);

        reporter.poll(4, nowNs += STEP_NS);
        reporter.poll(5, nowNs += STEP_NS);
        reporter.poll(6, nowNs += STEP_NS);

        assertThat(sent).as("not while position 4 is still needed; once, when it is passed").containsExactly(0L, 5L);
    }

    @Test
    void severalDatagramsThatWantedAStatusPassedBetweenTwoPollsMakeOne() {
        reporter.poll(0, nowNs);
        reporter.wantedPast(2);
        reporter.wantedPast(4);
        reporter.wantedPast(6);

        reporter.poll(7, nowNs += STEP_NS);
        reporter.poll(8, nowNs += STEP_NS);

        assertThat(sent).containsExactly(0L, 7L);
    }

    @Test
    void aWantedStatusTheNetworkRefusedGoesAtTheNextPoll() {
        final List<Long> taken = new ArrayList<>();
        final boolean[] refusing = {false};
        final StatusReporter refused = new StatusReporter(77, 5, 9, (buffer, offset, length) -> {
            if (refusing[0]) {
                return false;
            }
            taken.add(HeaderFlyweight.sequenceAt(buffer, offset));
            return true;
        }, KEEP_ALIVE_NS);
        refused.poll(0, nowNs);
        refused.wantedPast(3);
        refusing[0] = true;

        assertThat(refused.poll(4, nowNs += STEP_NS)).isZero();
        refusing[0] = false;
        assertThat(refused.poll(4, nowNs += STEP_NS)).isOne();

        assertThat(taken).containsExactly(0L, 4L);
    }
}
