package org.nakcast.transport.publish;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.nakcast.transport.PublisherEventListener;
import org.nakcast.transport.ReceiverOutrun;

class OutrunReportsTest {
    private static final long INTERVAL_NS = 1_000_000_000L;

    private final List<ReceiverOutrun> events = new ArrayList<>();
    private final OutrunReports reports = new OutrunReports(5, 77, INTERVAL_NS, new PublisherEventListener() {
        @Override
        public void onReceiverOutrun(ReceiverOutrun event) {
            events.add(event);
        }
    });

    @Test
    void theFirstRequestIsRaisedAtOnce() {
        reports.onOutrun(9, 3, 10, 11, 40, 0);

        assertThat(events).containsExactly(new ReceiverOutrun(5, 77, 9, 3, 10, 11, 40, 0));
    }

    @Test
    void requestsWithinTheIntervalAreFoldedIntoOneEventRaisedWhenItEnds() {
        reports.onOutrun(9, 3, 10, 11, 40, 0);
        reports.onOutrun(8, 4, 12, 13, 42, INTERVAL_NS / 4);
        reports.onOutrun(7, 5, 14, 15, 44, INTERVAL_NS / 2);

        reports.poll(INTERVAL_NS - 1);
        assertThat(events).hasSize(1);

        reports.poll(INTERVAL_NS);
        assertThat(events).hasSize(2).last().isEqualTo(new ReceiverOutrun(5, 77, 7, 5, 14, 15, 44, 1));
        assertThat(events.get(1).describe())
            .startsWith("topic 5, publisher session 77: receiver 00000007 asked for datagrams from 5")
            .endsWith("(and 1 more such requests since the last report)");
    }

    @Test
    void aRequestAfterAQuietIntervalIsRaisedAtOnceAndNothingIsRaisedForNothing() {
        reports.onOutrun(9, 3, 10, 11, 40, 0);
        reports.poll(5 * INTERVAL_NS);
        assertThat(events).hasSize(1);

        reports.onOutrun(9, 3, 20, 21, 50, 6 * INTERVAL_NS);

        assertThat(events).hasSize(2).last().extracting(ReceiverOutrun::suppressed).isEqualTo(0L);
    }

    @Test
    void aRequestThatEndsTheIntervalCarriesTheCountOfThoseHeldBeforeIt() {
        reports.onOutrun(9, 3, 10, 11, 40, 0);
        reports.onOutrun(9, 3, 10, 11, 40, 1);
        reports.onOutrun(9, 3, 10, 11, 40, 2);

        reports.onOutrun(6, 3, 30, 31, 60, INTERVAL_NS + 2);

        assertThat(events).extracting(ReceiverOutrun::receiverId, ReceiverOutrun::suppressed)
            .containsExactly(tuple(9, 0L), tuple(6, 2L));
    }
}
