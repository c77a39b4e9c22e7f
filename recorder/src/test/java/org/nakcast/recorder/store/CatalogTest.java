package org.nakcast.recorder.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nakcast.transport.replay.ReplayRefusal;

class CatalogTest {
    private static final SegmentGeometry GEOMETRY = new SegmentGeometry(1 << 20, 1 << 14);

    @TempDir
    Path dir;

    /**
     * Past its end, a recording being recorded (or ended) may only be behind; one whose disk refuses,
     * whose session its node turns away, or that stopped (seed 1650153) will not come to hold it.
     */
    @Test
    void whatLiesPastARecordingsEndIsRefusedForWhyItWillNotComeOrAsNotHeldYet() throws IOException {
        try (Catalog catalog = Catalog.openForRecording(dir)) {
            final long id = catalog.add(3, "orders", 77, 0xABCDL, 100, 1_000, GEOMETRY);
            catalog.progress(id, 250, 9_000, 0, false);
            assertThat(catalog.get(id).refusalPastItsEnd(false)).isEqualTo(ReplayRefusal.NOT_HELD);
            assertThat(catalog.get(id).refusalPastItsEnd(true)).isEqualTo(ReplayRefusal.SESSION_REFUSED);

            catalog.stop(id, RecordingState.STOPPED, 2_000);
            assertThat(catalog.get(id).refusalPastItsEnd(false)).isEqualTo(ReplayRefusal.NOT_RECORDING);
            catalog.resume(id);
            catalog.progress(id, 260, 9_500, 0, true);
            assertThat(catalog.get(id).refusalPastItsEnd(true)).isEqualTo(ReplayRefusal.NOT_STORING);
            catalog.progress(id, 270, 10_000, 0, false);
            catalog.stop(id, RecordingState.ENDED, 3_000);
            assertThat(catalog.get(id).refusalPastItsEnd(false)).isEqualTo(ReplayRefusal.NOT_HELD);
        }
    }

    @Test
    void aRecordingsLifeIsReadBackByItsRecorderAndByAToolWhileItRuns() throws IOException {
        try (Catalog catalog = Catalog.openForRecording(dir)) {
            final long id = catalog.add(3, "orders", 77, 0xABCDL, 100, 1_000, GEOMETRY);
            catalog.progress(id, 250, 9_000, 12, false);

            final RecordingDescriptor seen = Catalog.read(dir).get(0);
            assertThat(seen).isEqualTo(catalog.get(id));
            assertThat(seen.recordingId()).isZero();
            assertThat(seen.topicId()).isEqualTo(3);
            assertThat(seen.topicName()).isEqualTo("orders");
            assertThat(seen.sessionId()).isEqualTo(77);
            assertThat(seen.publisherId()).isEqualTo(0xABCDL);
            assertThat(seen.firstMessageIndex()).isEqualTo(100);
            assertThat(seen.nextMessageIndex()).isEqualTo(250);
            assertThat(seen.bytes()).isEqualTo(9_000);
            assertThat(seen.holeMessages()).isEqualTo(12);
            assertThat(seen.state()).isEqualTo(RecordingState.RECORDING);
            assertThat(seen.stopEpochMs()).isEqualTo(-1);
            assertThat(seen.geometry()).isEqualTo(GEOMETRY);

            assertThat(seen.refusing()).isFalse();

            catalog.progress(id, 260, 9_000, 12, true);
            catalog.stop(id, RecordingState.STOPPED, 2_000);
            assertThat(Catalog.read(dir).get(0).refusing()).as("a recording stopped while its disk refused").isTrue();
            catalog.resume(id);
            assertThat(catalog.get(id).refusing()).as("resumed: its writer could make a segment").isFalse();
            catalog.trimmed(id, 150);
            catalog.stop(id, RecordingState.ENDED, 3_000);
        }
        final RecordingDescriptor reopened = Catalog.read(dir).get(0);
        assertThat(reopened.state()).isEqualTo(RecordingState.ENDED);
        assertThat(reopened.stopEpochMs()).isEqualTo(3_000);
        assertThat(reopened.firstMessageIndex()).isEqualTo(150);
        try (Catalog again = Catalog.openForRecording(dir)) {
            assertThat(again.list()).containsExactly(reopened);
            assertThat(again.add(3, "orders", 78, 0xABCDL, 0, 4_000, GEOMETRY)).isOne();
        }
    }

    @Test
    void theFileGrowsPastItsFirstThousandRecordings() throws IOException {
        try (Catalog catalog = Catalog.openForRecording(dir)) {
            for (int i = 0; i < 2_500; i++) {
                assertThat(catalog.add(1, "t" + i, i, 0, i, i, GEOMETRY)).isEqualTo(i);
            }
            catalog.progress(5, 99, 1, 0, false);
            assertThat(catalog.list()).hasSize(2_500);
        }
        final List<RecordingDescriptor> read = Catalog.read(dir);
        assertThat(read).hasSize(2_500);
        assertThat(read.get(2_499).topicName()).isEqualTo("t2499");
        assertThat(read.get(5).nextMessageIndex()).isEqualTo(99);
    }

    @Test
    void oneRecorderHoldsADirectory() throws IOException {
        try (Catalog first = Catalog.openForRecording(dir)) {
            assertThatThrownBy(() -> Catalog.openForRecording(dir)).isInstanceOf(IOException.class)
                .hasMessageContaining("held by another recorder");
            first.add(1, "t", 1, 0, 0, 0, GEOMETRY);
        }
    }

    @Test
    void aFileThatIsNoCatalogAndADamagedDescriptorAreReportedNotRead() throws IOException {
        try (Catalog catalog = Catalog.openForRecording(dir)) {
            catalog.add(1, "t", 1, 0, 0, 0, GEOMETRY);
        }
        try (FileChannel file = FileChannel.open(dir.resolve(Catalog.FILE_NAME), StandardOpenOption.WRITE)) {
            file.write(ByteBuffer.wrap(new byte[] {9}), 256 + 30);
        }
        assertThatThrownBy(() -> Catalog.read(dir)).isInstanceOf(CorruptCatalogException.class)
            .hasMessageContaining("recording 0 whose checksum never matched");

        Files.write(dir.resolve(Catalog.FILE_NAME), new byte[300]);
        assertThatThrownBy(() -> Catalog.read(dir)).isInstanceOf(CorruptCatalogException.class)
            .hasMessageContaining("does not start with the catalog magic");
        assertThatThrownBy(() -> Catalog.openForRecording(dir)).isInstanceOf(CorruptCatalogException.class);
    }

    @Test
    void aDirectoryWithNoCatalogHasNoRecordingsAndATopicNameTooLongIsRefused() throws IOException {
        assertThat(Catalog.read(dir)).isEmpty();
        try (Catalog catalog = Catalog.openForRecording(dir)) {
            assertThatThrownBy(() -> catalog.add(1, "x".repeat(161), 1, 0, 0, 0, GEOMETRY))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at most 160");
        }
    }
}
