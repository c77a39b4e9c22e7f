package org.nakcast.recorder.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

import org.agrona.IoUtil;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One segment of a recording: a file of fixed length, written in full with zeros when made (so a
 * full disk is found then, as an {@link IOException}, never later as a fault on a mapped page),
 * then mapped whole. Little-endian.
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+  0
 *  |                 magic "NAKSEG01" (64 bits)                    |
 *  +---------------------------------------------------------------+  8
 *  |                        layout version                         |
 *  +---------------------------------------------------------------+  12
 *  |                        segment length                         |
 *  +---------------------------------------------------------------+  16
 *  |                     recording id (64 bits)                    |
 *  +---------------------------------------------------------------+  24
 *  |                        segment number                         |
 *  +---------------------------------------------------------------+  28
 *  |                        index interval                         |
 *  +---------------------------------------------------------------+  32
 *  |                  CRC32C of bytes 8..31                        |
 *  +---------------------------------------------------------------+  36
 *  |                  zeros to the end of the page                 |
 *  +---------------------------------------------------------------+  4096
 *  |  sparse index: one 16-byte entry per index interval of data:  |
 *  |  message index (64 bits), frame offset (32), zero (32)        |
 *  +---------------------------------------------------------------+  data offset
 *  |  frames ({@link RecordFrame}), each at a multiple of 8;       |
 *  |  a PADDING frame closes a segment that the next frame         |
 *  |  did not fit; then zeros to the segment length                |
 *  +---------------------------------------------------------------+  segment length
 * </pre>
 *
 * <p>Index entry {@code k} names the first frame that starts at or after the start of the k-th
 * interval of data; entries are written in order, so the written ones are a prefix whose message
 * indexes never go down. An entry is a hint: it is used only when the frame it names is intact and
 * has the message index it says (see {@link SegmentGeometry} for the region sizes).
 */
final class SegmentFile implements AutoCloseable {
    /** "NAKSEG01" as a little-endian long. */
    static final long MAGIC = 0x3130_4745_534B_414EL;
    /** The layout of segments and their frames: 2 since frames are checksummed over one range ({@link RecordFrame}). */
    static final int LAYOUT_VERSION = 2;
    private static final String SUFFIX = ".seg";
    /** The suffix of a segment made ahead under a name no reader, retention or recovery takes for a segment. */
    private static final String PREPARED_SUFFIX = ".prepared";
    private static final int MAGIC_OFFSET = 0;
    private static final int VERSION_OFFSET = 8;
    private static final int LENGTH_OFFSET = 12;
    private static final int RECORDING_ID_OFFSET = 16;
    private static final int NUMBER_OFFSET = 24;
    private static final int INTERVAL_OFFSET = 28;
    private static final int HEADER_CHECKSUM_OFFSET = 32;
    private static final int ENTRY_OFFSET_FIELD = 8;
    private static final int ZERO_CHUNK = 64 * 1024;
    private static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;

    private Path path;
    private final FileChannel channel;
    private final MappedByteBuffer mapped;
    private final AtomicBuffer buffer;
    private final SegmentGeometry geometry;
    private final long recordingId;
    private final int number;

    private SegmentFile(Path path, FileChannel channel, MappedByteBuffer mapped, SegmentGeometry geometry,
        long recordingId, int number) {
        this.path = path;
        this.channel = channel;
        this.mapped = mapped;
        this.buffer = new UnsafeBuffer(mapped);
        this.geometry = geometry;
        this.recordingId = recordingId;
        this.number = number;
    }

    /** The file name of a recording's segment: {@code <recording id>-<segment number>.seg}. */
    static String fileName(long recordingId, int number) {
        return recordingId + "-" + number + SUFFIX;
    }

    /**
     * The segment number of {@code fileName} if it is a segment of {@code recordingId}, else -1.
     */
    static int numberOf(String fileName, long recordingId) {
        final String prefix = recordingId + "-";
        if (!fileName.startsWith(prefix) || !fileName.endsWith(SUFFIX)) {
            return -1;
        }
        final String digits = fileName.substring(prefix.length(), fileName.length() - SUFFIX.length());
        if (digits.isEmpty() || digits.length() > 9 || !digits.chars().allMatch(Character::isDigit)) {
            return -1;
        }
        return Integer.parseInt(digits);
    }

    /** The recording id of a segment's file name; -1 if {@code fileName} is not a segment's. */
    static long recordingIdOf(String fileName) {
        final int dash = fileName.indexOf('-');
        if (dash < 1 || dash > 19 || !fileName.endsWith(SUFFIX)) {
            return -1;
        }
        final String digits = fileName.substring(0, dash);
        if (!digits.chars().allMatch(Character::isDigit)) {
            return -1;
        }
        final long recordingId = Long.parseLong(digits);
        return numberOf(fileName, recordingId) >= 0 ? recordingId : -1;
    }

    /** The numbers of the recording's segment files in {@code dir}, lowest first. */
    static int[] numbersOf(Path dir, long recordingId) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.mapToInt(file -> numberOf(file.getFileName().toString(), recordingId))
                .filter(number -> number >= 0).sorted().toArray();
        }
    }

    /** The path of a recording's segment. */
    static Path pathOf(Path dir, long recordingId, int number) {
        return dir.resolve(fileName(recordingId, number));
    }

    /**
     * Makes a new segment file, zero-filled to its length, with its header written. A file that
     * cannot be made whole (a full disk) is removed, and the error thrown.
     */
    static SegmentFile create(Path dir, long recordingId, int number, SegmentGeometry geometry) throws IOException {
        return createAt(pathOf(dir, recordingId, number), recordingId, number, geometry);
    }

    /**
     * Makes a segment file as {@link #create} does, under its prepared name ({@code <name>.prepared}):
     * nothing takes it for a segment until {@link #publish()} gives it its name.
     */
    static SegmentFile createPrepared(Path dir, long recordingId, int number, SegmentGeometry geometry)
        throws IOException {
        return createAt(preparedPathOf(dir, recordingId, number), recordingId, number, geometry);
    }

    /** Where a segment made ahead waits for its turn. */
    static Path preparedPathOf(Path dir, long recordingId, int number) {
        return dir.resolve(fileName(recordingId, number) + PREPARED_SUFFIX);
    }

    /**
     * Deletes the segments made ahead that a recorder left in {@code dir} when it stopped without
     * taking them (killed while making one, say): none ever held a frame.
     *
     * @return how many were deleted
     */
    static int deletePrepared(Path dir) throws IOException {
        int deleted = 0;
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                if (file.getFileName().toString().endsWith(SUFFIX + PREPARED_SUFFIX) && Files.deleteIfExists(file)) {
                    deleted++;
                }
            }
        }
        return deleted;
    }

    /** Gives a segment made ahead its own name, at once: from then on it is the recording's next segment. */
    void publish() throws IOException {
        final Path published = pathOf(path.getParent(), recordingId, number);
        Files.move(path, published, StandardCopyOption.ATOMIC_MOVE);
        path = published;
    }

    private static SegmentFile createAt(Path path, long recordingId, int number, SegmentGeometry geometry)
        throws IOException {
        final FileChannel channel = FileChannel.open(path,
            StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE);
        try {
            zeroFill(channel, geometry.segmentLength());
            final MappedByteBuffer mapped = channel.map(FileChannel.MapMode.READ_WRITE, 0, geometry.segmentLength());
            final SegmentFile segment = new SegmentFile(path, channel, mapped, geometry, recordingId, number);
            segment.writeHeader();
            return segment;
        } catch (IOException | RuntimeException e) {
            channel.close();
            Files.deleteIfExists(path);
            throw e;
        }
    }

    /**
     * Whether {@code path} is a segment whose making was cut short (its process died while zero
     * filling it or writing its header): shorter than a header, or with no magic yet. Such a file
     * never held a frame. The magic is written last and is not under the header checksum.
     */
    static boolean isUnfinished(Path path) throws IOException {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
            if (channel.size() < SegmentGeometry.PAGE) {
                return true;
            }
            final ByteBuffer magic = ByteBuffer.allocate(Long.BYTES).order(ORDER);
            channel.read(magic, MAGIC_OFFSET);
            return magic.getLong(0) == 0;
        }
    }

    /**
     * Opens an existing segment file after checking its header: magic, version, checksum, and a
     * file length equal to the one it states.
     *
     * @throws CorruptSegmentException if the file is not a whole segment of this layout
     */
    static SegmentFile open(Path path, boolean writable) throws IOException {
        final FileChannel channel = writable
            ? FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE)
            : FileChannel.open(path, StandardOpenOption.READ);
        try {
            final long fileLength = channel.size();
            if (fileLength < SegmentGeometry.PAGE) {
                throw new CorruptSegmentException(path, "is " + fileLength + " bytes, shorter than a segment header");
            }
            final UnsafeBuffer header = new UnsafeBuffer(ByteBuffer.allocateDirect(SegmentGeometry.PAGE));
            channel.read(header.byteBuffer(), 0);
            checkHeader(path, header, fileLength);
            final SegmentGeometry geometry = new SegmentGeometry(header.getInt(LENGTH_OFFSET, ORDER),
                header.getInt(INTERVAL_OFFSET, ORDER));
            final MappedByteBuffer mapped = channel.map(
                writable ? FileChannel.MapMode.READ_WRITE : FileChannel.MapMode.READ_ONLY, 0, fileLength);
            return new SegmentFile(path, channel, mapped, geometry, header.getLong(RECORDING_ID_OFFSET, ORDER),
                header.getInt(NUMBER_OFFSET, ORDER));
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    private static void checkHeader(Path path, UnsafeBuffer header, long fileLength) throws CorruptSegmentException {
        if (header.getLong(MAGIC_OFFSET, ORDER) != MAGIC) {
            throw new CorruptSegmentException(path, "does not start with the segment magic NAKSEG01");
        }
        if (header.getInt(HEADER_CHECKSUM_OFFSET, ORDER) != headerChecksum(header)) {
            throw new CorruptSegmentException(path, "has a header whose checksum does not match");
        }
        final int version = header.getInt(VERSION_OFFSET, ORDER);
        if (version != LAYOUT_VERSION) {
            throw new CorruptSegmentException(path, "has layout version " + version + "; this version reads "
                + LAYOUT_VERSION);
        }
        final int length = header.getInt(LENGTH_OFFSET, ORDER);
        if (length != fileLength) {
            throw new CorruptSegmentException(path, "states " + length + " bytes but is " + fileLength);
        }
        try {
            new SegmentGeometry(length, header.getInt(INTERVAL_OFFSET, ORDER));
        } catch (IllegalArgumentException e) {
            throw new CorruptSegmentException(path, "has a header this version cannot use: " + e.getMessage());
        }
    }

    private static int headerChecksum(AtomicBuffer header) {
        final CRC32C crc = new CRC32C();
        final ByteBuffer view = header.byteBuffer().duplicate();
        view.limit(HEADER_CHECKSUM_OFFSET).position(VERSION_OFFSET);
        crc.update(view);
        return (int) crc.getValue();
    }

    private static void zeroFill(FileChannel channel, int length) throws IOException {
        final ByteBuffer zeros = ByteBuffer.allocateDirect(ZERO_CHUNK);
        long position = 0;
        while (position < length) {
            zeros.clear().limit((int) Math.min(ZERO_CHUNK, length - position));
            position += channel.write(zeros, position);
        }
    }

    private void writeHeader() {
        buffer.putInt(VERSION_OFFSET, LAYOUT_VERSION, ORDER);
        buffer.putInt(LENGTH_OFFSET, geometry.segmentLength(), ORDER);
        buffer.putLong(RECORDING_ID_OFFSET, recordingId, ORDER);
        buffer.putInt(NUMBER_OFFSET, number, ORDER);
        buffer.putInt(INTERVAL_OFFSET, geometry.indexInterval(), ORDER);
        buffer.putInt(HEADER_CHECKSUM_OFFSET, headerChecksum(buffer), ORDER);
        // Last: a segment whose magic is written has a whole header (see isUnfinished).
        buffer.putLongRelease(MAGIC_OFFSET, MAGIC);
    }

    /** The file. */
    Path path() {
        return path;
    }

    /** The whole segment, mapped. */
    AtomicBuffer buffer() {
        return buffer;
    }

    /** A new view of the mapped memory, for a {@link RecordFrame} to compute checksums through. */
    ByteBuffer newView() {
        return mapped.duplicate();
    }

    SegmentGeometry geometry() {
        return geometry;
    }

    long recordingId() {
        return recordingId;
    }

    int number() {
        return number;
    }

    /** Where frames start. */
    int dataOffset() {
        return geometry.dataOffset();
    }

    /** Where frames end: the segment's length. */
    int dataLimit() {
        return geometry.segmentLength();
    }

    /** The index entry for the interval that holds {@code frameOffset}. */
    int entryFor(int frameOffset) {
        return (frameOffset - dataOffset()) / geometry.indexInterval();
    }

    /** The frame offset entry {@code k} names: 0 if it was not written. */
    int entryFrameOffset(int k) {
        return buffer.getIntAcquire(entryAddress(k) + ENTRY_OFFSET_FIELD);
    }

    /** The message index entry {@code k} names. */
    long entryMessageIndex(int k) {
        return buffer.getLong(entryAddress(k), ORDER);
    }

    /** How many entries were written: they are a prefix of the index. */
    int writtenEntries() {
        int k = 0;
        while (k < geometry.indexEntries() && entryFrameOffset(k) != 0) {
            k++;
        }
        return k;
    }

    /**
     * Where to start looking for the frame that holds {@code messageIndex}: the frame named by the
     * last written entry at or below it that is intact and says the same index, else the start of
     * the data. {@code frame} must be pointed at this segment.
     */
    int searchStart(RecordFrame frame, long messageIndex) {
        int low = 0;
        int high = writtenEntries() - 1;
        while (low <= high) {
            final int mid = (low + high) >>> 1;
            if (entryMessageIndex(mid) <= messageIndex) {
                low = mid + 1;
            } else {
                high = mid - 1;
            }
        }
        for (int k = high; k >= 0; k--) {
            final int frameOffset = entryFrameOffset(k);
            if (frameOffset >= dataOffset() && frame.at(frameOffset).isIntact(dataLimit())
                && frame.messageIndex() == entryMessageIndex(k)) {
                return frameOffset;
            }
        }
        return dataOffset();
    }

    /** Writes entry {@code k}: the frame offset last, with release order. */
    void putEntry(int k, long messageIndex, int frameOffset) {
        buffer.putLong(entryAddress(k), messageIndex, ORDER);
        buffer.putIntRelease(entryAddress(k) + ENTRY_OFFSET_FIELD, frameOffset);
    }

    /** Clears the written entries from {@code k} on (after a torn tail was cut). */
    void clearEntriesFrom(int k) {
        for (int i = k; i < geometry.indexEntries() && entryFrameOffset(i) != 0; i++) {
            buffer.setMemory(entryAddress(i), SegmentGeometry.INDEX_ENTRY_LENGTH, (byte) 0);
        }
    }

    private int entryAddress(int k) {
        return geometry.indexOffset() + k * SegmentGeometry.INDEX_ENTRY_LENGTH;
    }

    /** Writes the mapped pages to the disk. */
    void force() {
        mapped.force();
    }

    @Override
    public void close() throws IOException {
        IoUtil.unmap(mapped);
        channel.close();
    }
}
