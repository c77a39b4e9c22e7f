package org.nakcast.transport.media;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ControlPollScheduleTest {
    private final ControlPollSchedule schedule = new ControlPollSchedule();

    @Test
    void theFirstRoundReadsThenOnlyOncePerInterval() {
        assertThat(schedule.isDue(5_000)).isTrue();
        schedule.polled(5_000, false);

        assertThat(schedule.isDue(5_000 + ControlPollSchedule.INTERVAL_NS - 1)).isFalse();
        assertThat(schedule.isDue(5_000 + ControlPollSchedule.INTERVAL_NS)).isTrue();
    }

    @Test
    void aReadThatStoppedAtItsLimitIsFollowedAtOnce() {
        schedule.polled(1_000, true);
        assertThat(schedule.isDue(1_001)).isTrue();

        schedule.polled(1_001, false);
        assertThat(schedule.isDue(1_002)).isFalse();
    }
}
