package org.nakcast.transport.status;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.nakcast.transport.OfferResult;
import org.nakcast.transport.PublisherEventListener;
import org.nakcast.transport.StreamEventListener;

/**
 * {@code ops/RUNBOOK.md} tells an operator about everything a node reports: every counter by the
 * label the stat tool prints (a line counter with LINE for the line's name), every event callback,
 * every offer result code. A new one without a runbook entry fails here.
 */
class RunbookTest {
    @Test
    void everySystemCounterHasAnEntryUnderItsLabel() throws IOException {
        final String runbook = runbook();
        for (SystemCounter counter : SystemCounter.values()) {
            assertThat(runbook).as("ops/RUNBOOK.md on %s", counter).contains("`" + counter.label() + "`");
        }
    }

    @Test
    void everyLineCounterHasAnEntryUnderItsLabel() throws IOException {
        final String runbook = runbook();
        for (LineCounter counter : LineCounter.values()) {
            assertThat(runbook).as("ops/RUNBOOK.md on %s", counter).contains("`line LINE " + counter.label() + "`");
        }
        assertThat(runbook).contains("`" + StreamCounters.GAPS_BOTH_LINES_MISSED_LABEL + "`");
    }

    @Test
    void everyCauseOfMalformedDatagramIsExplained() throws IOException {
        final String runbook = runbook();
        for (DatagramCheck cause : DatagramCheck.values()) {
            if (cause != DatagramCheck.VALID) {
                assertThat(runbook.replaceAll("\\s+", " ")).as("ops/RUNBOOK.md on %s", cause)
                    .contains("`malformed: " + cause.description() + "`");
            }
        }
    }

    @Test
    void everyEventCallbackIsExplained() throws IOException {
        final String runbook = runbook();
        final List<String> callbacks = Stream.of(StreamEventListener.class, PublisherEventListener.class)
            .flatMap(type -> Arrays.stream(type.getDeclaredMethods()))
            .map(Method::getName)
            .toList();
        assertThat(callbacks).isNotEmpty().allSatisfy(name -> assertThat(runbook).contains("`" + name + "`"));
    }

    @Test
    void everyOfferResultCodeIsExplained() throws IOException {
        final String runbook = runbook();
        final List<String> codes = Arrays.stream(OfferResult.class.getFields())
            .filter(field -> Modifier.isStatic(field.getModifiers()) && field.getType() == long.class)
            .map(Field::getName)
            .toList();
        assertThat(codes).contains("BACK_PRESSURED", "UNENCODABLE")
            .allSatisfy(code -> assertThat(runbook).contains("`" + code + "`"));
    }

    /** ops/RUNBOOK.md, found upwards from the working directory (the module's). */
    private static String runbook() throws IOException {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            final Path file = dir.resolve("ops/RUNBOOK.md");
            if (Files.isRegularFile(file)) {
                return Files.readString(file);
            }
        }
        throw new IOException("no ops/RUNBOOK.md above " + Path.of("").toAbsolutePath());
    }
}
