package org.nakcast.transport;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LossEventTest {

    @Test
    void describesTheRangeTheCountAndWhatHappensNext() {
        assertThat(new LossEvent(1, 77, 10, 44, 35, false).describe()).isEqualTo(
            "topic 1, publisher session 77: 35 messages lost in datagrams 10..44;"
                + " delivery goes on after the gap (loss policy continue)");
        assertThat(new LossEvent(1, 77, 10, 44, 35, true).describe())
            .endsWith("stream dropped, no more messages from it (loss policy drop)");
    }
}
