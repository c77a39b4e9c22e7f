package org.nakcast.benchmarks.soak;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.nakcast.benchmarks.soak.SoakVerdict.HostOutcome;
import org.nakcast.benchmarks.soak.SoakVerdict.HostSubscriber;
import org.nakcast.benchmarks.soak.SoakVerdict.PublisherSession;

class SoakVerdictTest {
    private static final List<PublisherSession> PUBLISHERS =
        List.of(new PublisherSession(11, 1_000), new PublisherSession(22, 500));

    @Test
    void aSubscriberThatGotEverySessionWholeIsOk() {
        final HostOutcome outcome = judge(new HostSubscriber(2, false, Map.of(11, run(0, 1_000), 22, run(0, 500))));

        assertThat(outcome.ok()).isTrue();
        assertThat(outcome.received()).isEqualTo(1_500);
        assertThat(outcome.missing()).isZero();
    }

    @Test
    void aRestartedSubscriberOwesOnlyFromItsFirstMessageOfARunningSession() {
        final HostOutcome outcome = judge(new HostSubscriber(4, true, Map.of(11, run(600, 1_000), 22, run(0, 500))));

        assertThat(outcome.ok()).isTrue();
        assertThat(outcome.declaredGap()).isEqualTo(600);
        assertThat(outcome.missing()).isZero();
    }

    @Test
    void aSubscriberThatRanThroughoutHasNoGapToDeclare() {
        final HostOutcome outcome = judge(new HostSubscriber(2, false, Map.of(11, run(600, 1_000), 22, run(0, 500))));

        assertThat(outcome.ok()).isFalse();
        assertThat(outcome.missing()).isEqualTo(600);
    }

    @Test
    void aMissingTailASessionNeverHeardAndAForeignSessionAreFailures() {
        assertThat(judge(new HostSubscriber(2, false, Map.of(11, run(0, 990), 22, run(0, 500)))).missing())
            .isEqualTo(10);
        assertThat(judge(new HostSubscriber(2, false, Map.of(11, run(0, 1_000)))).missing()).isEqualTo(500);
        final HostOutcome foreign = judge(new HostSubscriber(2, false,
            Map.of(11, run(0, 1_000), 22, run(0, 500), 33, run(0, 1))));
        assertThat(foreign.foreignSessions()).isOne();
        assertThat(foreign.ok()).isFalse();
    }

    @Test
    void duplicatesAndReportedLossFailEvenWhenTheCountAddsUp() {
        final SessionTally doubled = run(0, 1_000);
        doubled.onMessage(999);
        final SessionTally lossy = run(0, 400);
        lossy.onLoss(100);
        for (long number = 500; number < 600; number++) {
            lossy.onMessage(number);
        }

        assertThat(judge(new HostSubscriber(2, false, Map.of(11, doubled, 22, run(0, 500)))).ok()).isFalse();
        final HostOutcome lost = judge(new HostSubscriber(2, false, Map.of(11, run(0, 1_000), 22, lossy)));
        assertThat(lost.lost()).isEqualTo(100);
        assertThat(lost.ok()).isFalse();
    }

    private static HostOutcome judge(HostSubscriber subscriber) {
        return SoakVerdict.judge(PUBLISHERS, List.of(subscriber)).get(0);
    }

    /** A tally that received {@code from} up to {@code to}, exclusive. */
    private static SessionTally run(long from, long to) {
        final SessionTally tally = new SessionTally();
        for (long number = from; number < to; number++) {
            tally.onMessage(number);
        }
        return tally;
    }
}
