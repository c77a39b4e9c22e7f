package org.nakcast.benchmarks.codec;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class QuickCodecSpeedTest {
    private static final long ONE_MILLISECOND = 1_000_000L;

    @ParameterizedTest
    @CsvSource({"flyweight, 36", "fst, 27", "kryo, 20", "jdk-externalizable, 103"})
    void measuresBothRatesAndTheEncodedLength(String codec, int bytes) {
        final QuickCodecSpeed.Speed speed = new QuickCodecSpeed(ONE_MILLISECOND, ONE_MILLISECOND).measure(codec);

        assertThat(speed.encodePerSecond()).isPositive();
        assertThat(speed.decodePerSecond()).isPositive();
        assertThat(speed.min()).isEqualTo(Math.min(speed.encodePerSecond(), speed.decodePerSecond()));
        assertThat(speed.bytes()).isEqualTo(bytes);
    }
}
