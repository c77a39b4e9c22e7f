package org.nakcast.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nakcast.recorder.store.Catalog;
import org.nakcast.recorder.store.RecordingState;
import org.nakcast.recorder.store.SegmentGeometry;

/** {@code nakcast recordings} on a directory with recordings, an empty one, and a damaged catalog. */
class RecordingsCommandTest {
    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return Nakcast.run(new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8), args);
    }

    @Test
    void listsEachRecordingWithWhatItHoldsAndAJsonLine() throws IOException {
        try (Catalog catalog = Catalog.openForRecording(dir)) {
            final long id = catalog.add(2, "orders", -77, 0, 100, 1_795_000_000_000L, SegmentGeometry.DEFAULT);
            catalog.progress(id, 200, 12_345, 10, false);
            catalog.stop(id, RecordingState.ENDED, 1_795_000_060_000L);
            final long refusing = catalog.add(2, "orders", 5, 0, 0, 1_795_000_000_000L, SegmentGeometry.DEFAULT);
            catalog.progress(refusing, 0, 0, 0, true);
        }

        assertThat(run("recordings", "--dir", dir.toString())).isZero();

        final String[] lines = out.toString(StandardCharsets.UTF_8).split("\n");
        assertThat(lines).hasSize(5);
        assertThat(lines[2]).contains("orders (2)", "-77", "ended", "100..199", "10", "12,345");
        assertThat(lines[3]).contains("recording, disk refusing", "none from 0", " -");
        assertThat(lines[4]).startsWith("{\"command\":\"recordings\"").contains("\"session\":-77",
            "\"firstMessage\":100", "\"nextMessage\":200", "\"holeMessages\":10", "\"state\":\"recording\"",
            "\"diskRefusing\":true", "\"diskRefusing\":false");
    }

    @Test
    void aDirectoryWithoutRecordingsSaysSo() {
        assertThat(run("recordings", "--dir", dir.toString())).isZero();

        assertThat(out.toString(StandardCharsets.UTF_8)).startsWith("no recordings in " + dir)
            .contains("\"recordings\":[]");
    }

    @Test
    void aDamagedCatalogIsNamedNotThrown() throws IOException {
        Files.write(dir.resolve(Catalog.FILE_NAME), new byte[4096]);

        assertThat(run("recordings", "--dir", dir.toString())).isOne();

        assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("recordings: cannot read the catalog of " + dir);
    }
}
