package org.nakcast.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class HandWrittenTicksIT {
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void everyTickWrittenByHandArrivesOnceInOrderAsItWasSent() {
        final HandWrittenTicks.Result result = HandWrittenTicks.run(20_000);

        assertThat(result.received()).isEqualTo(20_000);
        assertThat(result.outOfOrder()).isZero();
        assertThat(result.lossEvents()).isZero();
        assertThat(result.everyTickArrived()).isTrue();
    }
}
