package org.nakcast.benchmarks.child;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ChildJvmTest {
    @ParameterizedTest
    @CsvSource({
        "-XX:+UseSerialGC, true",
        "-XX:+UseG1GC, true",
        "-XX:+UseZGC, true",
        "-XX:+UseParallelGC, true",
        "-XX:-UseG1GC, false",
        "-Xlog:gc, false",
        "-XX:+UseCompressedOops, false",
        "-XX:+UseStringDeduplication, false",
        "--add-opens=java.base/java.nio=ALL-UNNAMED, false"})
    void aFlagChoosesACollectorOnlyWhenItSwitchesOneOn(String flag, boolean choosesCollector) {
        assertThat(ChildJvm.isCollectorFlag(flag)).isEqualTo(choosesCollector);
    }
}
