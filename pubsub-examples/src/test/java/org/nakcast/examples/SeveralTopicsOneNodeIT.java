package org.nakcast.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class SeveralTopicsOneNodeIT {
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void eachTopicArrivesThroughItsOwnCodec() {
        final SeveralTopicsOneNode.Result result = SeveralTopicsOneNode.run(10_000);

        assertThat(result.codecs()).containsExactly(
            Map.entry("prices", "flyweight"), Map.entry("orders", "fst"), Map.entry("trades", "jdk"));
        assertThat(result.published()).containsExactly(
            Map.entry("prices", 10_000L), Map.entry("orders", 1_000L), Map.entry("trades", 1_000L));
        assertThat(result.received()).isEqualTo(result.published());
        assertThat(result.lastTradeReceived()).isEqualTo(result.lastTradePublished())
            .isEqualTo(new SeveralTopicsOneNode.Trade(500_999, 999, "EURUSD", 100, 1.0825 + 99 * 0.0001));
        assertThat(result.undecodable()).isZero();
        assertThat(result.lossEvents()).isZero();
        assertThat(result.everythingArrived()).isTrue();
    }
}
