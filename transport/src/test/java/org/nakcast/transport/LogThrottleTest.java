package org.nakcast.transport;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LogThrottleTest {
    private static final long MS = 1_000_000;

    @Test
    void writesAtMostItsLinesASecondAndTheNextLineSaysHowManyWereLeftOut() {
        final LogThrottle throttle = new LogThrottle(3);
        long now = 5_000 * MS;

        assertThat(throttle.admit(now)).isZero();
        assertThat(throttle.admit(now + MS)).isZero();
        assertThat(throttle.admit(now + 2 * MS)).isZero();
        assertThat(throttle.admit(now + 3 * MS)).as("a fourth within the second").isEqualTo(-1);
        assertThat(throttle.admit(now + 500 * MS)).isEqualTo(-1);

        now += 1_000 * MS;
        assertThat(throttle.admit(now)).as("a new second: written, two left out before it").isEqualTo(2);
        assertThat(throttle.admit(now + MS)).isZero();
    }
}
