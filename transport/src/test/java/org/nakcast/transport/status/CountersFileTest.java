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
        final long beforeMs = System.currentTimeMillis();
        try (CountersFile file = CountersFile.create(path, "pricer", false)) {
            final CountersManager manager = new CountersManager(file.metadataBuffer(), file.valuesBuffer());
            final AtomicCounter sent = manager.newCounter("datagrams sent", 1);
            sent.set(42);

            try (CountersFile.View view = CountersFile.open(path)) {
                final List<String> seen = new ArrayList<>();
                view.counters().forEach((counterId, typeId, key, label) ->
                    seen.add(label + "=" + view.counters().getCounterValue(counterId)));
                assertThat(seen).containsExactly("datagrams sent=42");
                final CountersFile.Header header = view.header();
                assertThat(header.nodeName()).isEqualTo("pricer");
                assertThat(header.pid()).isEqualTo(ProcessHandle.current().pid());
                assertThat(header.isProcessAlive()).isTrue();
                assertThat(header.startTimeMs()).isBetween(beforeMs, System.currentTimeMillis());
                assertThat(header.keep()).isFalse();
            }
        }
    }

    @Test
    void aNodeThatAsksToKeepItsFileMarksIt() {
        final Path path = directory.resolve("kept.counters");
        CountersFile.create(path, "kept", true).close();

        try (CountersFile.View view = CountersFile.open(path)) {
            assertThat(view.header().keep()).isTrue();
        }
    }

    @Test
    void aLongNameIsCutToTheRoomTheHeaderHas() {
        final Path path = directory.resolve("long.counters");
        CountersFile.create(path, "n".repeat(200), false).close();

        try (CountersFile.View view = CountersFile.open(path)) {
            assertThat(view.header().nodeName()).isEqualTo("n".repeat(CountersFile.MAX_NAME_BYTES));
        }
    }

    @Test
    void errorsAreRecordedOnceWithACount() {
        final Path path = directory.resolve("errors.counters");
        try (CountersFile file = CountersFile.create(path, "pricer", false)) {
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
    void aFileHeldByANodeOfThisProcessIsRefusedAndFreeAgainAfterClose() {
        final Path path = directory.resolve("busy.counters");
        final CountersFile first = CountersFile.create(path, "busy", false);

        assertThatIllegalStateException().isThrownBy(() -> CountersFile.create(directory.resolve("./busy.counters"),
            "busy", false)).withMessageContaining("belongs to a running node");

        first.close();
        CountersFile.create(path, "busy", false).close();
    }

    @Test
    void aSecondNodeOfThisProcessLeavesTheFirstsFileLockedForOtherProcesses() throws Exception {
        final Path path = directory.resolve("first.counters");
        try (CountersFile first = CountersFile.create(path, "first", false)) {
            assertThatIllegalStateException().isThrownBy(() -> CountersFile.create(first.path(), "second", false));

            try (OtherProcess other = OtherProcess.holding(path)) {
                assertThat(other.readLine())
                    .startsWith("refused: counters file " + path + " belongs to a running node");
            }
        }
    }

    @Test
    void aFileHeldByAnotherProcessIsRefused() throws Exception {
        final Path path = directory.resolve("elsewhere.counters");
        try (OtherProcess other = OtherProcess.holding(path)) {
            assertThat(other.readLine()).isEqualTo("held");

            assertThatIllegalStateException().isThrownBy(() -> CountersFile.create(path, "here", false))
                .withMessageContaining("belongs to a running node");
        }
        CountersFile.create(path, "here", false).close();
    }

    @Test
    void aFileThatIsNotACountersFileIsNamed() throws IOException {
        final Path path = Files.writeString(directory.resolve("notes.counters"), "x".repeat(200));

        assertThatIllegalArgumentException().isThrownBy(() -> CountersFile.open(path))
            .withMessageContaining("notes.counters").withMessageContaining("not a counters file");
    }

    @Test
    void aFileOfAnotherLayoutIsNamedWithThisLayout() throws IOException {
        final Path path = directory.resolve("old.counters");
        CountersFile.create(path, "old", false).close();
        HeaderEdits.layout(path, 1);

        assertThatIllegalArgumentException().isThrownBy(() -> CountersFile.open(path))
            .withMessage(path + " is not a counters file of layout " + CountersFile.LAYOUT_VERSION);
    }

    @Test
    void aProcessOfTheNodesIdStartedAfterTheNodeIsAnotherProcess() throws Exception {
        try (OtherProcess reusing = OtherProcess.waiting()) {
            final long nowMs = System.currentTimeMillis();

            assertThat(new CountersFile.Header("n", reusing.pid(), nowMs, false).isProcessAlive()).isTrue();
            assertThat(new CountersFile.Header("n", reusing.pid(), nowMs - 3_600_000, false).isProcessAlive())
                .as("a node that started an hour before its process").isFalse();
        }
        assertThat(new CountersFile.Header("n", OtherProcess.endedPid(), System.currentTimeMillis(), false)
            .isProcessAlive()).isFalse();
    }
}
