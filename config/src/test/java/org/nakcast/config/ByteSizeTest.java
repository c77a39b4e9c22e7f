package org.nakcast.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Random;
import java.util.stream.LongStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class ByteSizeTest {

    @ParameterizedTest
    @CsvSource({
        "0, 0",
        "1408, 1408",
        "64k, 65536",
        "64K, 65536",
        "2m, 2097152",
        "2M, 2097152",
        "1g, 1073741824",
        "' 16 m ', 16777216",
        "1536k, 1572864",
    })
    void readsBytesAndBinarySuffixes(String text, long bytes) {
        assertThat(ByteSize.parse(text).bytes()).isEqualTo(bytes);
    }

    @ParameterizedTest
    @ValueSource(strings = {"1.5m", "-1", "4x", "", "k", "64kb", "2 mb", "0x10"})
    void refusesWhatIsNotASizeAndSaysHowToWriteOne(String text) {
        assertThatThrownBy(() -> ByteSize.parse(text))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("'" + text + "' is not a size")
            .hasMessageContaining("k, m or g");
    }

    @Test
    void refusesSizesBeyondALong() {
        assertThatThrownBy(() -> ByteSize.parse("8589934592g")).hasMessageContaining("too large");
        assertThatThrownBy(() -> ByteSize.parse("99999999999999999999")).hasMessageContaining("too large");
        assertThat(ByteSize.parse("8589934591g").bytes()).isEqualTo(8_589_934_591L << 30);
    }

    @Test
    void cannotBeNegative() {
        assertThatThrownBy(() -> new ByteSize(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest
    @CsvSource({"0, 0", "1408, 1408", "65536, 64k", "1572864, 1536k", "2097152, 2m", "3221225472, 3g", "1025, 1025"})
    void printsTheShortestExactForm(long bytes, String text) {
        assertThat(new ByteSize(bytes)).hasToString(text);
    }

    /** Sizes of every magnitude, exact multiples of each unit among them. */
    static LongStream sizes() {
        Random random = new Random(20_261_123L);
        return LongStream.range(0, 300).map(i -> {
            long number = random.nextLong(1L << 33);
            return number << (10 * (int) (i % 4));
        });
    }

    @ParameterizedTest
    @MethodSource("sizes")
    void readsBackWhatItPrints(long bytes) {
        assertThat(ByteSize.parse(new ByteSize(bytes).toString()).bytes()).isEqualTo(bytes);
    }

    @ParameterizedTest
    @MethodSource("sizes")
    void kilobytesAreTimes1024(long bytes) {
        long kilobytes = bytes >>> 12;
        assertThat(ByteSize.parse(kilobytes + "k").bytes()).isEqualTo(kilobytes * 1024);
    }

    @Test
    void convertsToIntOnlyWhenItFits() {
        assertThat(ByteSize.parse("2m").toIntExact()).isEqualTo(2 * 1024 * 1024);
        assertThatThrownBy(() -> ByteSize.parse("2g").toIntExact()).isInstanceOf(ArithmeticException.class);
    }

    @Test
    void ordersBySize() {
        assertThat(ByteSize.parse("1m")).isGreaterThan(ByteSize.parse("1023k")).isLessThan(ByteSize.parse("1025k"));
    }
}
