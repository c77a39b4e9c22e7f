package org.nakcast.transport;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LossEventTest {

    @Test
    void describesTheMessagesTheDatagramsTheCauseAndWhatHappensNext() {
        assertThat(new LossEvent(1, 77, 10, 44, 10_002, 35, LossEvent.Cause.UNRECOVERABLE, false).describe())
            .isEqualTo("topic 1, publisher session 77: 35 messages (10,002..10,036) lost in datagrams 10..44,"
                + " its publisher no longer holds them; delivery goes on after the gap (loss policy continue)");
        assertThat(new LossEvent(1, 77, 10, 44, 10_002, 35, LossEvent.Cause.UNRECOVERABLE, true).describe())
            .endsWith("stream dropped, no more messages from it (loss policy drop)");
    }

    @Test
    void aSingleMessageIsNamedAndEachCauseSaysWhy() {
        assertThat(new LossEvent(1, 77, 3, 3, 9, 1, LossEvent.Cause.SUBSCRIPTION_OVERRUN, false).describe())
            .contains("1 messages (9) lost in datagrams 3..3, this subscription's queue stayed full");
        assertThat(new LossEvent(1, 77, 3, 3, 9, 1, LossEvent.Cause.MESSAGE_TOO_LARGE, false).describe())
            .contains("longer than the largest message this receiver takes");
        assertThat(new LossEvent(1, 77, 3, 3, 9, 1, LossEvent.Cause.CUT_SHORT, false).describe())
            .contains("cut short by the next message's first fragment");
    }
}
