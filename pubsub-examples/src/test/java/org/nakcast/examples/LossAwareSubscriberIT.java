package org.nakcast.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.nakcast.config.LossPolicy;

class LossAwareSubscriberIT {
    private static final int UPDATES = LossAwareSubscriber.MIN_UPDATES;

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void withLossPolicyContinueEveryUpdateIsDeliveredOrCountedLostAndTheBookResyncs() {
        final LossAwareSubscriber.Result result = LossAwareSubscriber.run(LossPolicy.CONTINUE, UPDATES);

        assertThat(result.lossEvents()).as(result.toString()).isPositive();
        assertThat(result.messagesLost()).isPositive();
        assertThat(result.delivered() + result.messagesLost()).as("each update delivered or counted lost, once: %s",
            result).isEqualTo(UPDATES);
        assertThat(result.resyncs()).as("one resync per loss").isEqualTo(result.lossEvents());
        assertThat(result.staleInstruments()).as("every instrument updated since the loss").isZero();
        assertThat(result.feedDown()).isFalse();
        assertThat(result.descriptions()).hasSize((int) result.lossEvents());
        assertThat(result.descriptions().get(0))
            .containsPattern("messages \\([0-9,]+\\.\\.[0-9,]+\\) lost in datagrams "
                + LossAwareSubscriber.FIRST_DROPPED + "\\.\\.")
            .contains("delivery goes on after the gap");
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void withLossPolicyDropTheStreamIsDroppedAtTheGap() {
        final LossAwareSubscriber.Result result = LossAwareSubscriber.run(LossPolicy.DROP, UPDATES);

        assertThat(result.feedDown()).as(result.toString()).isTrue();
        assertThat(result.lossEvents()).isOne();
        assertThat(result.delivered()).as("the updates before the gap").isPositive();
        assertThat(result.delivered() + result.messagesLost()).as("nothing after the gap")
            .isLessThan(UPDATES);
        assertThat(result.resyncs()).isZero();
        assertThat(result.descriptions()).singleElement().asString().contains("stream dropped");
    }

    @Test
    void tooFewUpdatesToReachTheDroppedRangeAreRefused() {
        assertThatThrownBy(() -> LossAwareSubscriber.run(LossPolicy.CONTINUE, 100))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least");
    }
}
