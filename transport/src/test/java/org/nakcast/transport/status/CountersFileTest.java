package org.nakcast.transport.status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.agrona.concurrent.SystemEpochClock;
import org.agrona.concurrent.errors.DistinctErrorLog;
import org.agrona.concurrent.errors.ErrorLogReader;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CountersFileTest {
    @TempDir
    Path directory;

    @Test
    void anotherProcessReadsTheCountersAndTheHeader() {
        final Path path = directory.resolve("sub/pricer.counters");
        try (CountersFile file = CountersFile.create(path, "pricer")) {
            final CountersManager manager = new CountersManager(file.metadataBuffer(), file.valuesBuffer());
            final AtomicCounter sent = manager.newCounter("datagrams sent", 1);
            sent.set(42);

            try (CountersFile.View view = CountersFile.open(path)) {
                final List<String> seen = new ArrayList<>();
                view.counters().forEach((counterId, typeId, key, label) ->
                    seen.add(label + "=" + view.counters().getCounterValue(counterId)));
                assertThat(seen).containsExactly("datagrams sent=42");
                assertThat(view.nodeName()).isEqualTo("pricer");
                assertThat(view.pid()).isEqualTo(ProcessHandle.current().pid());
                assertThat(view.isProcessAlive()).isTrue();
                assertThat(view.startTimeMs()).isPositive();
            }
        }
    }

    @Test
    void errorsAreRecordedOnceWithACount() {
        final Path path = directory.resolve("errors.counters");
        try (CountersFile file = CountersFile.create(path, "pricer")) {
            final DistinctErrorLog log = new DistinctErrorLog(file.errorLogBuffer(), SystemEpochClock.INSTANCE);
            final IllegalStateException error = new IllegalStateException("socket gone");
            log.record(error);
            log.record(error);

            try (CountersFile.View view = CountersFile.open(path)) {
                final List<String> read = new ArrayList<>();
                final int distinct = ErrorLogReader.read(view.errorLog(),
                    (count, first, last, text) -> read.add(count + " x " + text.lines().findFirst().orElse("")));
                assertThat(distinct).isOne();
                assertThat(read).containsExactly("2 x java.lang.IllegalStateException: socket gone");
            }
        }
    }

    @Test
    void aFileHeldByARunningNodeIsRefusedAndFreeAgainAfterClose() {
        final Path path = directory.resolve("busy.counters");
        final CountersFile first = CountersFile.create(path, "busy");

        assertThatIllegalStateException().isThrownBy(() -> CountersFile.create(path, "busy"))
            .withMessageContaining("belongs to a running node");

        first.close();
        CountersFile.create(path, "busy").close();
    }

    @Test
    void aFileThatIsNotACountersFileIsNamed() throws IOException {
        final Path path = Files.writeString(directory.resolve("notes.counters"), "x".repeat(200));

        assertThatIllegalArgumentException().isThrownBy(() -> CountersFile.open(path))
            .withMessageContaining("notes.counters").withMessageContaining("not a counters file");
    }
}
