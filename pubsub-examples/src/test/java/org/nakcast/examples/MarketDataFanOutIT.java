package org.nakcast.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class MarketDataFanOutIT {
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void everySubscriberGetsEveryUpdateInOrder() {
        final MarketDataFanOut.Result result = MarketDataFanOut.run(20_000, 3);

        assertThat(result.published()).isEqualTo(20_000);
        assertThat(result.subscribers()).hasSize(3).allSatisfy(tally -> {
            assertThat(tally.received()).as(tally.name()).isEqualTo(20_000);
            assertThat(tally.outOfOrder()).as(tally.name()).isZero();
            assertThat(tally.lossEvents()).as(tally.name()).isZero();
            assertThat(tally.lastPrices()).as(tally.name()).isEqualTo(result.expectedLastPrices());
        });
        assertThat(result.subscribers()).extracting(MarketDataFanOut.SubscriberTally::name)
            .containsExactly("md-subscriber-1", "md-subscriber-2", "md-subscriber-3");
        assertThat(result.everySubscriberGotEverything()).isTrue();
    }
}
