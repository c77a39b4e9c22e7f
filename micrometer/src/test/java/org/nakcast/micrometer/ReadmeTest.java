package org.nakcast.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.nakcast.transport.status.DatagramCheck;
import org.nakcast.transport.status.LineCounter;
import org.nakcast.transport.status.SystemCounter;

/** micrometer/README.md names every meter and cause tag this module exports (tests run in the module's directory). */
class ReadmeTest {
    @Test
    void theReadmeNamesEveryMeterAndEveryCause() throws IOException {
        final String readme = Files.readString(Path.of("README.md"));

        for (SystemCounter counter : SystemCounter.values()) {
            assertThat(readme).contains("| `" + NakcastMetrics.meterName(counter) + "` | " + counter.label());
        }
        for (DatagramCheck cause : DatagramCheck.values()) {
            if (cause != DatagramCheck.VALID) {
                assertThat(readme).contains("`" + CounterMeter.causeTag(cause) + "`");
            }
        }
        assertThat(readme).contains(NakcastMetrics.MALFORMED_BY_CAUSE, NakcastMetrics.PUBLISHER_POSITION,
            NakcastMetrics.RECEIVER_POSITION, NakcastMetrics.RECEIVER_LAG, NakcastMetrics.GAPS_BOTH_LINES_MISSED);
        for (LineCounter counter : LineCounter.values()) {
            assertThat(readme).contains("| `" + NakcastMetrics.lineMeterName(counter) + "` |");
        }
    }
}
