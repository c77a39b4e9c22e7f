package org.nakcast.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class ThrottledErrorLogTest {
    private static final long SECOND = 1_000_000_000L;

    private final List<String> lines = new ArrayList<>();
    private final List<Throwable> traces = new ArrayList<>();
    private long nowNs;
    private final ThrottledErrorLog log = new ThrottledErrorLog("n1", () -> nowNs, 10 * SECOND, (line, error) -> {
        lines.add(line);
        traces.add(error);
    });

    @Test
    void aHandlerThrowingOnEveryMessageWritesOneTraceThenALineOfCountsPerInterval() {
        for (int i = 0; i < 20_000; i++) {
            nowNs = i * 1_000_000L;
            log.log(thrownBy("the handler", i % 2 == 0 ? "order 1" : "order 2"));
        }

        assertThat(lines).hasSize(2 + 2 * 1);
        assertThat(lines.get(0)).isEqualTo("node n1: java.lang.IllegalStateException: order 1");
        assertThat(traces.get(0)).isNotNull();
        assertThat(lines.subList(2, lines.size())).allSatisfy(line -> assertThat(line)
            .startsWith("node n1: ").contains("more in the last 1000").contains("of the error logged before"));
        assertThat(traces.subList(2, traces.size())).containsOnlyNulls();
    }

    @Test
    void whatWasCountedAndNotWrittenIsWrittenAtTheEnd() {
        log.log(thrownBy("the handler", "x"));
        log.log(thrownBy("the handler", "x"));
        log.log(thrownBy("the handler", "x"));

        log.flush();

        assertThat(lines).hasSize(2);
        assertThat(lines.get(1)).contains("2 more in the last 0 ms");
    }

    @Test
    void errorsThrownElsewhereOrBeyondTheOnesFollowedAreEachWrittenWhole() {
        log.log(thrownBy("the handler", "x"));
        log.log(thrownBy("the codec", "x"));
        for (int i = 0; i < ThrottledErrorLog.MAX_DISTINCT + 5; i++) {
            log.log(new IllegalArgumentException("distinct " + i));
        }
        log.log(new IllegalArgumentException("distinct " + (ThrottledErrorLog.MAX_DISTINCT + 1)));

        assertThat(lines).hasSize(2 + ThrottledErrorLog.MAX_DISTINCT + 5 + 1);
        assertThat(traces).doesNotContainNull();
    }

    /** An error as if thrown in a method named {@code where}: the frame that threw tells errors apart. */
    private static IllegalStateException thrownBy(String where, String message) {
        final IllegalStateException error = new IllegalStateException(message);
        error.setStackTrace(new StackTraceElement[] {new StackTraceElement("Service", where, "Service.java", 1)});
        return error;
    }
}
