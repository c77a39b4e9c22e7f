package org.nakcast.recorder.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nakcast.transport.replay.HoleCause;

/**
 * A recording written, read back from any index, cut after a crash and resumed: small segments
 * (64 KiB, an index entry per 4 KiB) so that every run crosses many.
 */
class RecordingStoreTest {
    private static final SegmentGeometry SMALL = new SegmentGeometry(64 * 1024, 4096);
    private static final long RECORDING = 7;
    private static final long RETRY_NS = 1_000;

    @TempDir
    Path dir;

    private final UnsafeBuffer message = new UnsafeBuffer(new byte[SMALL.maxMessageLength()]);

    /** Message {@code index} of every test: its length and bytes follow from the index. */
    private static int lengthOf(long index) {
        return 1 + (int) (index * 37 % 700);
    }

    private DirectBuffer messageOf(long index) {
        for (int i = 0; i < lengthOf(index); i++) {
            message.putByte(i, (byte) (index * 31 + i));
        }
        return message;
    }

    private RecordingWriter start(long firstIndex) throws IOException {
        return RecordingWriter.start(dir, RECORDING, firstIndex, SMALL, SyncPolicy.NONE, RETRY_NS,
            SegmentMaker.inline(), 0);
    }

    private void append(RecordingWriter writer, long from, long to) {
        for (long index = from; index < to; index++) {
            assertThat(writer.appendMessage(messageOf(index), 0, lengthOf(index), index, index)).isTrue();
        }
    }

    @Test
    void messagesAndHolesComeBackInOrderFromAnyIndexAcrossSegments() throws IOException {
        try (RecordingWriter writer = start(100)) {
            append(writer, 100, 600);
            assertThat(writer.appendHole(600, 50, HoleCause.LOST_IN_TRANSPORT, 600)).isTrue();
            append(writer, 650, 1000);
            assertThat(writer.end(1000)).isTrue();
        }
        assertThat(SegmentFile.numbersOf(dir, RECORDING)).hasSizeGreaterThan(4);

        for (long from : new long[] {100, 101, 377, 599, 600, 625, 649, 650, 999}) {
            final Reads reads = readAll(from);
            assertThat(reads.ended).as("from %d", from).isTrue();
            final long firstMessage = Math.max(from, 650);
            if (from < 650) {
                assertThat(reads.holes).as("from %d", from)
                    .containsExactly(new long[] {Math.max(from, 600), 650 - Math.max(from, 600)});
            }
            final long expectedMessages = (from < 600 ? 600 - from : 0) + (1000 - firstMessage);
            assertThat(reads.indexes).as("from %d", from).hasSize((int) expectedMessages);
            assertThat(reads.indexes.get(0)).isEqualTo(from < 600 ? from : firstMessage);
        }
    }

    @Test
    void segmentsMadeAheadHoldTheSameAndNoneIsLeftPreparedOrTakenForASegmentEarly() throws IOException {
        try (SegmentMaker ahead = SegmentMaker.ahead()) {
            try (RecordingWriter writer = RecordingWriter.start(dir, RECORDING, 0, SMALL, SyncPolicy.PER_SEGMENT,
                RETRY_NS, ahead, 0)) {
                append(writer, 0, 300);
                final int[] numbers = SegmentFile.numbersOf(dir, RECORDING);
                assertThat(numbers).as("only the segments written to have a segment's name").hasSizeGreaterThan(1)
                    .endsWith(numbers.length - 1);
                assertThat(RecordingRecovery.recover(dir, RECORDING, 0).segmentNumber())
                    .isEqualTo(numbers.length - 1);
                append(writer, 300, 1000);
                assertThat(writer.end(1000)).isTrue();
            }
        }
        final Reads reads = readAll(0);
        assertThat(reads.ended).isTrue();
        assertThat(reads.indexes).hasSize(1000).startsWith(0L).endsWith(999L);
        try (var files = Files.list(dir)) {
            assertThat(files.map(file -> file.getFileName().toString()))
                .as("the segment made ahead for the recording that ended is gone").noneMatch(name -> name
                    .endsWith(".prepared"));
        }
    }

    @Test
    void aSegmentLeftPreparedByAKilledRecorderIsDeletedAndNeverRead() throws IOException {
        try (RecordingWriter writer = start(0)) {
            append(writer, 0, 10);
        }
        SegmentFile.createPrepared(dir, RECORDING, 1, SMALL).close();

        assertThat(SegmentFile.numbersOf(dir, RECORDING)).containsExactly(0);
        assertThat(SegmentMaker.deleteLeftovers(dir)).isOne();
        assertThat(Files.exists(SegmentFile.preparedPathOf(dir, RECORDING, 1))).isFalse();
    }

    @Test
    void anIndexNotHeldIsRefused() throws IOException {
        try (RecordingWriter writer = start(100)) {
            append(writer, 100, 200);
        }
        assertThat(RecordingReader.openAt(dir, RECORDING, 99)).as("before the first").isNull();
        assertThat(RecordingReader.openAt(dir, RECORDING, 201)).as("past the next").isNull();
        try (RecordingReader atTheLiveEnd = RecordingReader.openAt(dir, RECORDING, 200)) {
            assertThat(atTheLiveEnd).as("the next to be written is waited for").isNotNull();
        }
    }

    @Test
    void aReaderFollowsTheWriterAcrossSegmentsAsItWrites() throws IOException {
        try (RecordingWriter writer = start(0);
             RecordingReader reader = readerAfterFirst(writer)) {
            final Reads reads = new Reads();
            long next = 1;
            for (int round = 0; round < 40; round++) {
                append(writer, next, next + 50);
                next += 50;
                while (reader.poll(reads, 7) > 0) {
                    // drain what is written so far
                }
                assertThat(reads.indexes).hasSize((int) next - 1);
                assertThat(reads.indexes.get(reads.indexes.size() - 1)).isEqualTo(next - 1);
            }
            assertThat(writer.end(next)).isTrue();
            reader.poll(reads, 1);
            assertThat(reader.isEnded()).isTrue();
        }
    }

    private RecordingReader readerAfterFirst(RecordingWriter writer) throws IOException {
        append(writer, 0, 1);
        return RecordingReader.openAt(dir, RECORDING, 1);
    }

    @Test
    void aTornFrameAfterACrashIsCutAndTheRecordingGoesOnFromItsLastWholeFrame() throws IOException {
        final RecordingWriter crashed = start(0);
        append(crashed, 0, 300);
        final long[] end = lastSegmentAndOffset();
        // The process died in the middle of the next frame: its header and payload written, its
        // length (written last) not.
        writeAt(end, 8, new byte[] {1, 0, 0, 0, 44, 1, 0, 0, 0, 0, 0, 0, 9, 9, 9, 9});
        writeAt(end, 40, new byte[] {5, 5, 5, 5, 5, 5, 5, 5});
        crashed.close();

        final RecordingEnd recovered = RecordingRecovery.recover(dir, RECORDING, 0);

        assertThat(recovered.nextMessageIndex()).isEqualTo(300);
        assertThat(recovered.endOffset()).isEqualTo(end[1]);
        assertThat(recovered.cutBytes()).isEqualTo(24);
        assertThat(recovered.ended()).isFalse();
        try (RecordingWriter resumed = RecordingWriter.resume(dir, recovered, SyncPolicy.NONE, RETRY_NS,
            SegmentMaker.inline(), 0)) {
            append(resumed, 300, 400);
        }
        final Reads reads = readAll(0);
        assertThat(reads.indexes).hasSize(400);
        assertThat(reads.indexes.get(399)).isEqualTo(399);
    }

    @Test
    void aFrameDamagedInThePastIsReportedNeverServed() throws IOException {
        try (RecordingWriter writer = start(0)) {
            append(writer, 0, 20);
        }
        overwriteInFourthFrame(RecordFrame.HEADER_LENGTH, ByteBuffer.wrap(new byte[] {0x55}));

        assertServedUntilTheFourthFrameThenDamaged();
    }

    /** The checksum does not cover the frame length (written after it), but the payload length it covers must agree. */
    @Test
    void aFrameWhoseLengthWasOverwrittenIsReportedNeverServed() throws IOException {
        try (RecordingWriter writer = start(0)) {
            append(writer, 0, 20);
        }
        final int longer = RecordFrame.HEADER_LENGTH + lengthOf(3) + RecordFrame.ALIGNMENT;
        overwriteInFourthFrame(0, ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0, longer));

        assertServedUntilTheFourthFrameThenDamaged();
    }

    /** Writes {@code bytes} at {@code at} of the fourth frame (message 3) of the first segment. */
    private void overwriteInFourthFrame(int at, ByteBuffer bytes) throws IOException {
        try (FileChannel file = FileChannel.open(SegmentFile.pathOf(dir, RECORDING, 0), StandardOpenOption.WRITE)) {
            int offset = SMALL.dataOffset();
            for (int i = 0; i < 3; i++) {
                offset += RecordFrame.alignedLength(lengthOf(i));
            }
            file.write(bytes, offset + at);
        }
    }

    /** A reader from the start hands out messages 0 to 2, then reports the fourth frame damaged. */
    private void assertServedUntilTheFourthFrameThenDamaged() throws IOException {
        try (RecordingReader reader = RecordingReader.openAt(dir, RECORDING, 0)) {
            final Reads reads = new Reads();
            assertThatThrownBy(() -> reader.poll(reads, 100)).isInstanceOf(CorruptSegmentException.class)
                .hasMessageContaining("damaged frame at offset");
            assertThat(reads.indexes).containsExactly(0L, 1L, 2L);
        }
    }

    /** Frames of another layout would be read wrong: such a segment is refused by name, with both versions. */
    @Test
    void aSegmentOfAnotherLayoutVersionIsRefusedNeverRead() throws IOException {
        try (RecordingWriter writer = start(0)) {
            append(writer, 0, 20);
        }
        final Path segment = SegmentFile.pathOf(dir, RECORDING, 0);
        try (FileChannel file = FileChannel.open(segment, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            final ByteBuffer header = ByteBuffer.allocate(36).order(ByteOrder.LITTLE_ENDIAN);
            file.read(header, 0);
            header.putInt(8, SegmentFile.LAYOUT_VERSION - 1);
            final CRC32C crc = new CRC32C();
            crc.update(header.array(), 8, 24);
            header.putInt(32, (int) crc.getValue());
            file.write(header.flip(), 0);
        }

        final String refused = "has layout version " + (SegmentFile.LAYOUT_VERSION - 1) + "; this version reads "
            + SegmentFile.LAYOUT_VERSION;
        assertThatThrownBy(() -> RecordingReader.openAt(dir, RECORDING, 0)).isInstanceOf(CorruptSegmentException.class)
            .hasMessageContaining(segment.getFileName().toString()).hasMessageContaining(refused);
        assertThatThrownBy(() -> RecordingRecovery.recover(dir, RECORDING, 0))
            .isInstanceOf(CorruptSegmentException.class).hasMessageContaining(refused);
    }

    @Test
    void aSegmentWhoseMakingWasCutShortIsRemovedOnRecovery() throws IOException {
        try (RecordingWriter writer = start(0)) {
            append(writer, 0, 10);
        }
        Files.write(SegmentFile.pathOf(dir, RECORDING, 1), new byte[100]);

        final RecordingEnd recovered = RecordingRecovery.recover(dir, RECORDING, 0);

        assertThat(recovered.segmentNumber()).isZero();
        assertThat(recovered.nextMessageIndex()).isEqualTo(10);
        assertThat(SegmentFile.pathOf(dir, RECORDING, 1)).doesNotExist();
    }

    @Test
    void whatCameWhileNoSegmentCouldBeMadeBecomesOneHoleOnceOneCanBe() throws IOException {
        try (RecordingWriter writer = start(0)) {
            // In the way of the next segment's file, as a full disk would be.
            final Path blocker = Files.createDirectory(SegmentFile.pathOf(dir, RECORDING, 1));
            long index = 0;
            while (writer.appendMessage(messageOf(index), 0, lengthOf(index), index, 0)) {
                index++;
            }
            final long firstRefused = index;
            assertThat(writer.lastError()).isNotNull();
            assertThat(writer.isRefusing()).isTrue();
            index++;
            assertThat(writer.appendMessage(messageOf(index), 0, lengthOf(index), index, RETRY_NS - 1))
                .as("not tried again before the retry interval").isFalse();
            index++;
            Files.delete(blocker);

            assertThat(writer.appendMessage(messageOf(index), 0, lengthOf(index), index, RETRY_NS)).isTrue();
            assertThat(writer.messagesNotStored()).isEqualTo(2);
            writer.end(RETRY_NS);

            final Reads reads = readAll(0);
            assertThat(reads.holes).containsExactly(new long[] {firstRefused, 2});
            assertThat(reads.holeCauses).containsExactly(HoleCause.NOT_STORED);
            assertThat(reads.indexes).hasSize((int) firstRefused + 1);
            assertThat(reads.indexes.get((int) firstRefused)).isEqualTo(index);
        }
    }

    @Test
    void aSpaceThatRefusesASegmentIsAFullDiskToTheWriterAndIsAskedBeforeEachSegment() throws IOException {
        final List<Path> asked = new ArrayList<>();
        final boolean[] full = {false};
        final SegmentSpace space = (segment, length) -> {
            asked.add(segment);
            if (full[0]) {
                throw new IOException("No space left on device");
            }
        };
        try (RecordingWriter writer = RecordingWriter.start(dir, RECORDING, 0, SMALL, SyncPolicy.NONE, RETRY_NS,
            SegmentMaker.inline(space), 0)) {
            full[0] = true;
            long index = 0;
            while (writer.appendMessage(messageOf(index), 0, lengthOf(index), index, 0)) {
                index++;
            }
            final long firstRefused = index++;
            assertThat(writer.lastError()).hasMessage("No space left on device");
            full[0] = false;
            assertThat(writer.appendMessage(messageOf(index), 0, lengthOf(index), index, RETRY_NS)).isTrue();
            writer.end(RETRY_NS);

            final Reads reads = readAll(0);
            assertThat(reads.holes).containsExactly(new long[] {firstRefused, 1});
            assertThat(reads.holeCauses).containsExactly(HoleCause.NOT_STORED);
            final Path second = SegmentFile.pathOf(dir, RECORDING, 1);
            assertThat(asked).containsExactly(SegmentFile.pathOf(dir, RECORDING, 0), second, second);
        }
    }

    @Test
    void aGapIsNeverSkippedAndAMessageLongerThanASegmentIsRefused() throws IOException {
        try (RecordingWriter writer = start(5)) {
            assertThatThrownBy(() -> writer.appendMessage(messageOf(6), 0, 1, 6, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("expects message 5 next, not 6");
            assertThatThrownBy(() -> writer.appendMessage(new UnsafeBuffer(new byte[70_000]), 0, 70_000, 5, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("does not fit a segment");
        }
    }

    @Test
    void appendingAllocatesNothing() throws IOException {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        try (RecordingWriter writer = RecordingWriter.start(dir, RECORDING, 0, new SegmentGeometry(64 << 20, 64 << 10),
            SyncPolicy.NONE, RETRY_NS, SegmentMaker.inline(), 0)) {
            final UnsafeBuffer seventy = new UnsafeBuffer(new byte[70]);
            long index = 0;
            for (; index < 200_000; index++) {
                writer.appendMessage(seventy, 0, 70, index, index);
            }
            long allocated = -1;
            for (int window = 0; window < 3 && allocated != 0; window++) {
                final long before = threads.getCurrentThreadAllocatedBytes();
                for (final long end = index + 100_000; index < end; index++) {
                    writer.appendMessage(seventy, 0, 70, index, index);
                }
                allocated = threads.getCurrentThreadAllocatedBytes() - before;
            }
            assertThat(allocated).isZero();
            assertThat(writer.messagesStored()).isEqualTo(index);
        }
    }

    private long[] lastSegmentAndOffset() throws IOException {
        final RecordingEnd end = RecordingRecovery.recover(dir, RECORDING, 0);
        return new long[] {end.segmentNumber(), end.endOffset()};
    }

    private void writeAt(long[] segmentAndOffset, int at, byte[] bytes) throws IOException {
        try (FileChannel file = FileChannel.open(SegmentFile.pathOf(dir, RECORDING, (int) segmentAndOffset[0]),
            StandardOpenOption.WRITE)) {
            file.write(ByteBuffer.wrap(bytes), segmentAndOffset[1] + at);
        }
    }

    private Reads readAll(long from) throws IOException {
        final Reads reads = new Reads();
        try (RecordingReader reader = RecordingReader.openAt(dir, RECORDING, from)) {
            assertThat(reader).as("from %d", from).isNotNull();
            while (reader.poll(reads, 64) > 0) {
                // read to the end
            }
            reads.ended = reader.isEnded();
        }
        return reads;
    }

    /** What a reader handed out, each message checked against what was written. */
    private static final class Reads implements RecordHandler {
        final List<Long> indexes = new ArrayList<>();
        final List<long[]> holes = new ArrayList<>();
        final List<HoleCause> holeCauses = new ArrayList<>();
        boolean ended;

        @Override
        public void onMessage(long messageIndex, DirectBuffer buffer, int offset, int length, long recordedAtNs) {
            assertThat(length).as("message %d", messageIndex).isEqualTo(lengthOf(messageIndex));
            for (int i = 0; i < length; i++) {
                assertThat(buffer.getByte(offset + i)).isEqualTo((byte) (messageIndex * 31 + i));
            }
            indexes.add(messageIndex);
        }

        @Override
        public void onHole(long firstMessage, long count, HoleCause cause) {
            holes.add(new long[] {firstMessage, count});
            holeCauses.add(cause);
        }
    }
}
