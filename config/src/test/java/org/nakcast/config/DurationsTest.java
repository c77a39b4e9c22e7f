package org.nakcast.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Random;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class DurationsTest {

    @ParameterizedTest
    @CsvSource({
        "250ns, 250",
        "50us, 50000",
        "10ms, 10000000",
        "2s, 2000000000",
        "100MS, 100000000",
        "' 3 s ', 3000000000",
        "0ms, 0",
        "36h, 129600000000000",
        "7d, 604800000000000",
    })
    void readsEveryUnit(String text, long nanos) {
        assertThat(Durations.parse(text)).isEqualTo(Duration.ofNanos(nanos));
    }

    @ParameterizedTest
    @ValueSource(strings = {"100", "0"})
    void refusesANumberWithoutUnitAndNamesTheUnits(String text) {
        assertThatThrownBy(() -> Durations.parse(text))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("duration '" + text + "' has no unit")
            .hasMessageContaining("ns, us, ms, s, h or d");
    }

    @ParameterizedTest
    @ValueSource(strings = {"2m", "1min", "5sec", "10 millis"})
    void refusesUnknownUnitsAndNamesTheKnownOnes(String text) {
        assertThatThrownBy(() -> Durations.parse(text))
            .hasMessageContaining("unknown unit")
            .hasMessageContaining("ns, us, ms, s, h or d");
    }

    @Test
    void refusesADayCountPastWhatNanosecondsHold() {
        assertThatThrownBy(() -> Durations.parse("200000d")).hasMessageContaining("duration '200000d' is too long");
    }

    @ParameterizedTest
    @ValueSource(strings = {"1.5s", "-10ms", "ms", "", "fast"})
    void refusesWhatIsNotADuration(String text) {
        assertThatThrownBy(() -> Durations.parse(text)).hasMessageContaining("'" + text + "' is not a duration");
    }

    @ParameterizedTest
    @CsvSource({"100000000, 100ms", "2000000000, 2s", "1500000, 1500us", "7, 7ns", "0, 0s"})
    void printsInTheLargestExactUnit(long nanos, String text) {
        assertThat(Durations.format(Duration.ofNanos(nanos))).isEqualTo(text);
    }

    static Stream<Duration> durations() {
        Random random = new Random(20_261_124L);
        ChronoUnit[] units = {ChronoUnit.NANOS, ChronoUnit.MICROS, ChronoUnit.MILLIS, ChronoUnit.SECONDS};
        return Stream.generate(() -> Duration.of(random.nextLong(1L << 40), units[random.nextInt(units.length)]))
            .limit(300);
    }

    @ParameterizedTest
    @MethodSource("durations")
    void readsBackWhatItPrints(Duration duration) {
        assertThat(Durations.parse(Durations.format(duration))).isEqualTo(duration);
    }
}
