package org.nakcast.transport.status;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The policy a starting node applies to the counters files beside its own: those of stopped nodes
 * go, unless kept; nothing else does.
 */
class StaleCountersFilesTest {
    @TempDir
    Path directory;

    @Test
    void theFileOfANodeWhoseProcessEndedIsRemoved() throws Exception {
        final Path stopped = stoppedNodesFile("stopped", false);

        assertThat(StaleCountersFiles.remove(directory)).containsExactly(stopped);
        assertThat(stopped).doesNotExist();
    }

    @Test
    void theFileOfANodeWhoseProcessIdAnotherProcessReusesIsRemoved() throws Exception {
        final Path stopped = directory.resolve("reused.counters");
        CountersFile.create(stopped, "reused", false).close();
        try (OtherProcess reusing = OtherProcess.waiting()) {
            HeaderEdits.process(stopped, reusing.pid(), System.currentTimeMillis() - 3_600_000);

            assertThat(StaleCountersFiles.remove(directory)).containsExactly(stopped);
        }
    }

    @Test
    void aFileItsNodeAskedToKeepStays() throws Exception {
        final Path kept = stoppedNodesFile("kept", true);

        assertThat(StaleCountersFiles.remove(directory)).isEmpty();
        assertThat(kept).exists();
    }

    @Test
    void theFileOfAStoppedNodeInALiveProcessStays() {
        final Path path = directory.resolve("closed.counters");
        CountersFile.create(path, "closed", false).close();

        assertThat(StaleCountersFiles.remove(directory)).isEmpty();
        assertThat(path).exists();
    }

    @Test
    void theFileOfARunningNodeOfThisProcessStaysAndStaysItsOwn() {
        final Path path = directory.resolve("running.counters");
        try (CountersFile running = CountersFile.create(path, "running", false)) {
            assertThat(StaleCountersFiles.remove(directory)).isEmpty();
            assertThat(running.path()).exists();
        }
    }

    @Test
    void aFileLockedByARunningNodeStaysWhateverProcessItNames() throws Exception {
        final Path path = directory.resolve("elsewhere.counters");
        try (OtherProcess holder = OtherProcess.holding(path)) {
            assertThat(holder.readLine()).isEqualTo("held");
            HeaderEdits.process(path, OtherProcess.endedPid(), System.currentTimeMillis());

            assertThat(StaleCountersFiles.remove(directory)).as("locked: its node runs").isEmpty();
            assertThat(path).exists();
        }
        assertThat(StaleCountersFiles.remove(directory)).as("its node stopped").containsExactly(path);
    }

    @Test
    void filesOfAnotherLayoutOrKindStay() throws Exception {
        final Path otherLayout = stoppedNodesFile("old", false);
        HeaderEdits.layout(otherLayout, 1);
        final Path notCounters = Files.writeString(directory.resolve("notes.counters"), "x".repeat(500));
        final Path empty = Files.createFile(directory.resolve("empty.counters"));
        final Path otherName = stoppedNodesFile("other", false);
        final Path renamed = Files.move(otherName, directory.resolve("other.counters.bak"));

        assertThat(StaleCountersFiles.remove(directory)).isEmpty();
        assertThat(otherLayout).exists();
        assertThat(notCounters).exists();
        assertThat(empty).exists();
        assertThat(renamed).exists();
    }

    @Test
    void onlyTheDirectoryGivenIsSwept() throws Exception {
        final Path nested = Files.createDirectory(directory.resolve("nested"));
        final Path deeper = stoppedNodesFile("deeper", false);
        final Path moved = Files.move(deeper, nested.resolve("deeper.counters"));

        assertThat(StaleCountersFiles.remove(directory)).isEmpty();
        assertThat(moved).exists();
    }

    @Test
    void aDirectoryThatIsNotThereHasNothingToRemove() {
        assertThat(StaleCountersFiles.remove(directory.resolve("none"))).isEmpty();
    }

    /** A counters file, closed, as a node whose process has ended left it. */
    private Path stoppedNodesFile(String name, boolean keep) throws IOException, InterruptedException {
        final Path path = directory.resolve(name + CountersFile.SUFFIX);
        CountersFile.create(path, name, keep).close();
        HeaderEdits.process(path, OtherProcess.endedPid(), System.currentTimeMillis());
        return path;
    }
}
