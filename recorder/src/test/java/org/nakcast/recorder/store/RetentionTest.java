package org.nakcast.recorder.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nakcast.transport.replay.HoleCause;

class RetentionTest {
    private static final SegmentGeometry SMALL = new SegmentGeometry(64 * 1024, 4096);
    private static final long SECOND = 1_000_000_000L;

    @TempDir
    Path dir;

    /** A recording of {@code messages} 1,000-byte messages, message i stored at i seconds. */
    private long record(Catalog catalog, int messages, boolean stop) throws IOException {
        final long id = catalog.add(1, "t", 5, 0, 0, 0, SMALL);
        final UnsafeBuffer message = new UnsafeBuffer(new byte[1_000]);
        try (RecordingWriter writer = RecordingWriter.start(dir, id, 0, SMALL, SyncPolicy.NONE, 1,
            SegmentMaker.inline(), 0)) {
            for (int i = 0; i < messages; i++) {
                writer.appendMessage(message, 0, 1_000, i, i * SECOND);
            }
            catalog.progress(id, messages, writer.bytesStored(), 0, false);
        }
        if (stop) {
            catalog.stop(id, RecordingState.STOPPED, messages * 1_000L);
        }
        return id;
    }

    @Test
    void segmentsOlderThanTheMaxAgeGoOldestFirstAndTheCatalogMovesOn() throws IOException {
        try (Catalog catalog = Catalog.openForRecording(dir)) {
            final long id = record(catalog, 300, true);
            final int segments = SegmentFile.numbersOf(dir, id).length;
            assertThat(segments).isGreaterThan(4);

            final List<Path> removed = new Retention(100 * SECOND, Long.MAX_VALUE)
                .apply(dir, catalog, 250 * SECOND, new SegmentCensus());

            assertThat(removed).isNotEmpty().hasSizeLessThan(segments);
            final long first = catalog.get(id).firstMessageIndex();
            assertThat(first).as("everything before 150 s is gone, nothing after").isBetween(100L, 150L);
            assertThat(RecordingReader.openAt(dir, id, first - 1)).isNull();
            try (RecordingReader reader = RecordingReader.openAt(dir, id, first)) {
                assertThat(reader).isNotNull();
            }
        }
    }

    @Test
    void overTheMaxBytesTheOldestSegmentsGoButNeverTheOneBeingAppendedTo() throws IOException {
        try (Catalog catalog = Catalog.openForRecording(dir)) {
            final long stopped = record(catalog, 200, true);
            final long recording = record(catalog, 120, false);

            new Retention(Long.MAX_VALUE, 1).apply(dir, catalog, 0, new SegmentCensus());

            assertThat(SegmentFile.numbersOf(dir, stopped)).as("a stopped recording may go whole").isEmpty();
            assertThat(catalog.get(stopped).firstMessageIndex()).isEqualTo(200);
            assertThat(SegmentFile.numbersOf(dir, recording)).as("the active segment stays").hasSize(1);
            assertThat(RecordingReader.openAt(dir, recording, 119)).isNotNull().satisfies(reader -> reader.close());
        }
    }

    @Test
    void aReaderThatRetentionOvertookEndsAtTheGapInsteadOfWaitingThere() throws IOException {
        try (Catalog catalog = Catalog.openForRecording(dir)) {
            final long id = record(catalog, 300, true);
            final List<Long> read = new ArrayList<>();
            final RecordHandler handler = new RecordHandler() {
                @Override
                public void onMessage(long messageIndex, DirectBuffer buffer, int offset, int length, long atNs) {
                    read.add(messageIndex);
                }

                @Override
                public void onHole(long firstMessage, long count, HoleCause cause) {
                    throw new AssertionError("no hole was recorded");
                }
            };
            try (RecordingReader reader = RecordingReader.openAt(dir, id, 0)) {
                assertThat(reader.poll(handler, 1)).isOne();

                new Retention(100 * SECOND, Long.MAX_VALUE).apply(dir, catalog, 250 * SECOND, new SegmentCensus());
                assertThat(catalog.get(id).firstMessageIndex()).as("its next segments are gone").isGreaterThan(100);

                assertThatThrownBy(() -> {
                    for (int poll = 0; poll < 1_000; poll++) {
                        reader.poll(handler, 64);
                    }
                }).isInstanceOfSatisfying(SegmentsRemovedException.class,
                    removed -> assertThat(removed.nextMessageIndex()).isEqualTo(read.size()));
                assertThat(read).as("its first segment, read to its end from the mapping").hasSizeGreaterThan(1)
                    .isEqualTo(LongStream.range(0, read.size()).boxed().toList());
            }
        }
    }

    @Test
    void aFullSegmentIsReadOnceAndForgottenWhenRemoved() throws IOException {
        try (Catalog catalog = Catalog.openForRecording(dir)) {
            final long id = record(catalog, 300, true);
            final int segments = SegmentFile.numbersOf(dir, id).length;
            final SegmentCensus census = new SegmentCensus();
            final Retention keepAll = new Retention(1_000 * SECOND, Long.MAX_VALUE);

            assertThat(keepAll.apply(dir, catalog, 300 * SECOND, census)).isEmpty();
            assertThat(census.known()).as("every segment but the last, which may grow").isEqualTo(segments - 1);
            final List<Path> removed = new Retention(100 * SECOND, Long.MAX_VALUE).apply(dir, catalog, 250 * SECOND,
                census);

            assertThat(census.known()).isEqualTo(segments - 1 - removed.size());
            assertThat(removed).as("the same as a census that knew nothing decides").isNotEmpty();
            assertThat(catalog.get(id).firstMessageIndex()).isBetween(100L, 150L);
        }
    }

    @Test
    void withinItsLimitsNothingGoes() throws IOException {
        try (Catalog catalog = Catalog.openForRecording(dir)) {
            record(catalog, 100, true);

            assertThat(Retention.FOREVER.apply(dir, catalog, Long.MAX_VALUE, new SegmentCensus())).isEmpty();
            assertThat(new Retention(1_000 * SECOND, 1L << 30).apply(dir, catalog, 200 * SECOND, new SegmentCensus()))
                .isEmpty();
        }
    }
}
