package org.nakcast.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class OrderEntryIT {
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void everyOrderIsAnsweredAndMatchedByItsId() {
        final OrderEntry.Result result = OrderEntry.run(2_000);

        assertThat(result.sent()).isEqualTo(2_000);
        assertThat(result.received()).isEqualTo(2_000);
        assertThat(result.acked()).isEqualTo(2_000);
        assertThat(result.stillPending()).isZero();
        assertThat(result.unmatched()).isZero();
        assertThat(result.rejected()).as("one order in ten has a leg over the limit").isEqualTo(200);
        assertThat(result.accepted()).isEqualTo(1_800);
    }

    @Test
    void theThirdTopicIsAddedInCodeAndConcluded() {
        assertThat(OrderEntry.config().topics()).extracting(topic -> topic.name() + ":" + topic.codec())
            .containsExactly("prices:flyweight", "orders:fst", "order-acks:kryo");
    }
}
