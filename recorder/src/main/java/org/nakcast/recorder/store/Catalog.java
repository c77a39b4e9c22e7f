package org.nakcast.recorder.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

import org.agrona.IoUtil;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.nakcast.config.RecorderConfig;

/**
 * The recordings of one directory: a memory-mapped file of fixed-length descriptors, written by
 * the one recorder that holds the directory (a file lock says so) and read by any tool at any
 * time. Little-endian.
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+  0
 *  |                 magic "NAKCATL1" (64 bits)                    |
 *  +---------------------------------------------------------------+  8
 *  |                        layout version                         |
 *  +---------------------------------------------------------------+  12
 *  |           capacity: descriptors the file has room for         |
 *  +---------------------------------------------------------------+  16
 *  |     count: descriptors in use (written after each is whole)   |
 *  +---------------------------------------------------------------+  20
 *  |                  zeros to 256                                 |
 *  +===============================================================+  256: descriptor 0, 256 bytes
 *  |                     recording id (64 bits)                    |  +0
 *  +-------------------------------+-------------------------------+
 *  |            topic id           |           session id          |  +8
 *  +-------------------------------+-------------------------------+
 *  |                     publisher id (64 bits)                    |  +16
 *  |                  first message index (64 bits)                |  +24
 *  |                  next message index (64 bits)                 |  +32
 *  |                  start, epoch ms (64 bits)                    |  +40
 *  |                  stop, epoch ms (64 bits; -1: none)           |  +48
 *  |                  bytes stored (64 bits)                       |  +56
 *  |                  hole messages (64 bits)                      |  +64
 *  +-------------------------------+-------------------------------+
 *  |             state             |        segment length         |  +72
 *  +-------------------------------+-------------------------------+
 *  |         index interval        |     topic name length         |  +80
 *  +-------------------------------+-------------------------------+
 *  |            topic name, UTF-8, at most 160 bytes ...           |  +88
 *  +---------------------------------------------------------------+
 *  |  refusing: 1 while the disk refuses what comes, else 0        |  +248
 *  +---------------------------------------------------------------+
 *  |          CRC32C of bytes 0..251 of the descriptor             |  +252
 *  +===============================================================+  512: descriptor 1 ...
 * </pre>
 *
 * <p>A reader that meets a descriptor in the middle of an update sees its checksum fail and reads
 * it again. The file grows, doubling, when it is full.
 */
public final class Catalog implements AutoCloseable {
    /** The catalog's file name in its directory. */
    public static final String FILE_NAME = "recordings.catalog";
    /** "NAKCATL1" as a little-endian long. */
    static final long MAGIC = 0x314C_5441_434B_414EL;
    static final int LAYOUT_VERSION = 1;
    static final int DESCRIPTOR_LENGTH = 256;
    private static final int HEADER_LENGTH = 256;
    private static final int INITIAL_CAPACITY = 1024;
    private static final int READ_ATTEMPTS = 1000;
    private static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;
    private static final int VERSION_OFFSET = 8;
    private static final int CAPACITY_OFFSET = 12;
    private static final int COUNT_OFFSET = 16;
    private static final int ID = 0;
    private static final int TOPIC_ID = 8;
    private static final int SESSION_ID = 12;
    private static final int PUBLISHER_ID = 16;
    private static final int FIRST_INDEX = 24;
    private static final int NEXT_INDEX = 32;
    private static final int START_MS = 40;
    private static final int STOP_MS = 48;
    private static final int BYTES = 56;
    private static final int HOLE_MESSAGES = 64;
    private static final int STATE = 72;
    private static final int SEGMENT_LENGTH = 76;
    private static final int INDEX_INTERVAL = 80;
    private static final int NAME_LENGTH = 84;
    private static final int NAME = 88;
    private static final int REFUSING = 248;
    private static final int CHECKSUM = 252;

    private final Path path;
    private final FileChannel channel;
    private final FileLock lock;
    private final CRC32C crc = new CRC32C();
    private MappedByteBuffer mapped;
    private AtomicBuffer buffer;
    private ByteBuffer view;

    private Catalog(Path path, FileChannel channel, FileLock lock) throws IOException {
        this.path = path;
        this.channel = channel;
        this.lock = lock;
        map();
    }

    /**
     * Opens the catalog of {@code dir} for its recorder, making it if there is none.
     *
     * @throws IOException if it cannot be made or read, is not a catalog of this layout, or another
     *     recorder holds the directory
     */
    public static Catalog openForRecording(Path dir) throws IOException {
        final Path path = dir.resolve(FILE_NAME);
        final FileChannel channel = FileChannel.open(path,
            StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
        try {
            final FileLock lock = lockOf(channel, dir);
            if (channel.size() == 0) {
                format(channel);
            }
            final Catalog catalog = new Catalog(path, channel, lock);
            catalog.checkHeader();
            return catalog;
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /**
     * Reads the recordings of {@code dir} as they are now, while a recorder may be writing them.
     *
     * @return every recording, by id; none if the directory has no catalog
     */
    public static List<RecordingDescriptor> read(Path dir) throws IOException {
        final Path path = dir.resolve(FILE_NAME);
        if (!Files.exists(path)) {
            return List.of();
        }
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
            final MappedByteBuffer mapped = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size());
            try {
                final UnsafeBuffer file = new UnsafeBuffer(mapped);
                checkHeader(path, file, channel.size());
                final int count = Math.min(file.getIntAcquire(COUNT_OFFSET), file.getInt(CAPACITY_OFFSET, ORDER));
                final List<RecordingDescriptor> descriptors = new ArrayList<>(count);
                final CRC32C crc = new CRC32C();
                final ByteBuffer checksummed = mapped.duplicate();
                for (int id = 0; id < count; id++) {
                    descriptors.add(readSteady(path, file, checksummed, id, crc));
                }
                return descriptors;
            } finally {
                IoUtil.unmap(mapped);
            }
        }
    }

    /**
     * Adds a recording, in state {@link RecordingState#RECORDING}.
     *
     * @return its id
     * @throws IllegalArgumentException if the topic's name is longer than
     *     {@link RecorderConfig#MAX_TOPIC_NAME_BYTES}
     */
    public long add(int topicId, String topicName, int sessionId, long publisherId, long firstMessageIndex,
        long startEpochMs, SegmentGeometry geometry) throws IOException {
        final byte[] name = topicName.getBytes(StandardCharsets.UTF_8);
        if (name.length > RecorderConfig.MAX_TOPIC_NAME_BYTES) {
            throw new IllegalArgumentException("topic name '" + topicName + "' is " + name.length
                + " bytes in UTF-8; a catalog holds at most " + RecorderConfig.MAX_TOPIC_NAME_BYTES);
        }
        final int id = buffer.getInt(COUNT_OFFSET, ORDER);
        if (id == buffer.getInt(CAPACITY_OFFSET, ORDER)) {
            grow();
        }
        final int at = offsetOf(id);
        buffer.putLong(at + ID, id, ORDER);
        buffer.putInt(at + TOPIC_ID, topicId, ORDER);
        buffer.putInt(at + SESSION_ID, sessionId, ORDER);
        buffer.putLong(at + PUBLISHER_ID, publisherId, ORDER);
        buffer.putLong(at + FIRST_INDEX, firstMessageIndex, ORDER);
        buffer.putLong(at + NEXT_INDEX, firstMessageIndex, ORDER);
        buffer.putLong(at + START_MS, startEpochMs, ORDER);
        buffer.putLong(at + STOP_MS, -1, ORDER);
        buffer.putInt(at + STATE, RecordingState.RECORDING.code(), ORDER);
        buffer.putInt(at + SEGMENT_LENGTH, geometry.segmentLength(), ORDER);
        buffer.putInt(at + INDEX_INTERVAL, geometry.indexInterval(), ORDER);
        buffer.putInt(at + NAME_LENGTH, name.length, ORDER);
        buffer.putBytes(at + NAME, name);
        seal(at);
        buffer.putIntRelease(COUNT_OFFSET, id + 1);
        return id;
    }

    /**
     * Notes how far a recording has come: what it holds up to, what it stored, its holes, and
     * whether its disk refuses what comes (its stored frames then end before {@code nextMessageIndex},
     * and nothing after them is stored until a segment can be made).
     */
    public void progress(long recordingId, long nextMessageIndex, long bytes, long holeMessages, boolean refusing) {
        final int at = offsetOf(checked(recordingId));
        buffer.putLong(at + NEXT_INDEX, nextMessageIndex, ORDER);
        buffer.putLong(at + BYTES, bytes, ORDER);
        buffer.putLong(at + HOLE_MESSAGES, holeMessages, ORDER);
        buffer.putInt(at + REFUSING, refusing ? 1 : 0, ORDER);
        seal(at);
    }

    /** Notes that a recording stopped ({@link RecordingState#STOPPED}) or ended, and when. */
    public void stop(long recordingId, RecordingState state, long stopEpochMs) {
        if (state == RecordingState.RECORDING) {
            throw new IllegalArgumentException("a recording stops as stopped or ended, not as recording");
        }
        final int at = offsetOf(checked(recordingId));
        buffer.putInt(at + STATE, state.code(), ORDER);
        buffer.putLong(at + STOP_MS, stopEpochMs, ORDER);
        seal(at);
    }

    /** Notes that a stopped recording is appended to again: its writer could make a segment. */
    public void resume(long recordingId) {
        final int at = offsetOf(checked(recordingId));
        buffer.putInt(at + STATE, RecordingState.RECORDING.code(), ORDER);
        buffer.putLong(at + STOP_MS, -1, ORDER);
        buffer.putInt(at + REFUSING, 0, ORDER);
        seal(at);
    }

    /** Notes that retention removed the messages before {@code firstMessageIndex}. */
    public void trimmed(long recordingId, long firstMessageIndex) {
        final int at = offsetOf(checked(recordingId));
        buffer.putLong(at + FIRST_INDEX, firstMessageIndex, ORDER);
        seal(at);
    }

    /** The descriptor of {@code recordingId}. */
    public RecordingDescriptor get(long recordingId) throws CorruptCatalogException {
        return decode(path, buffer, checked(recordingId));
    }

    /** Every recording, by id. */
    public List<RecordingDescriptor> list() throws CorruptCatalogException {
        final int count = buffer.getInt(COUNT_OFFSET, ORDER);
        final List<RecordingDescriptor> descriptors = new ArrayList<>(count);
        for (int id = 0; id < count; id++) {
            descriptors.add(decode(path, buffer, id));
        }
        return descriptors;
    }

    /** Releases the directory and unmaps the file. */
    @Override
    public void close() throws IOException {
        IoUtil.unmap(mapped);
        lock.release();
        channel.close();
    }

    private static FileLock lockOf(FileChannel channel, Path dir) throws IOException {
        try {
            final FileLock lock = channel.tryLock();
            if (lock != null) {
                return lock;
            }
        } catch (OverlappingFileLockException e) {
            // held by this process: the same answer as for another one
        }
        throw new IOException("recording directory " + dir + " is held by another recorder (its " + FILE_NAME
            + " is locked): give each recorder a directory of its own");
    }

    private static void format(FileChannel channel) throws IOException {
        final ByteBuffer header = ByteBuffer.allocate(HEADER_LENGTH).order(ORDER);
        header.putLong(0, MAGIC).putInt(VERSION_OFFSET, LAYOUT_VERSION).putInt(CAPACITY_OFFSET, INITIAL_CAPACITY);
        channel.write(header, 0);
        channel.write(ByteBuffer.allocate(1), (long) HEADER_LENGTH + (long) INITIAL_CAPACITY * DESCRIPTOR_LENGTH - 1);
        channel.force(true);
    }

    private void map() throws IOException {
        mapped = channel.map(FileChannel.MapMode.READ_WRITE, 0, channel.size());
        buffer = new UnsafeBuffer(mapped);
        view = mapped.duplicate();
    }

    private void checkHeader() throws IOException {
        checkHeader(path, buffer, channel.size());
    }

    private static void checkHeader(Path path, AtomicBuffer view, long fileLength) throws CorruptCatalogException {
        if (fileLength < HEADER_LENGTH || view.getLong(0, ORDER) != MAGIC) {
            throw new CorruptCatalogException(path, "does not start with the catalog magic NAKCATL1");
        }
        final int version = view.getInt(VERSION_OFFSET, ORDER);
        if (version != LAYOUT_VERSION) {
            throw new CorruptCatalogException(path, "has layout version " + version + "; this version reads "
                + LAYOUT_VERSION);
        }
        final long capacity = view.getInt(CAPACITY_OFFSET, ORDER);
        if (capacity < 1 || HEADER_LENGTH + capacity * DESCRIPTOR_LENGTH > fileLength) {
            throw new CorruptCatalogException(path, "says it has room for " + capacity + " recordings but is "
                + fileLength + " bytes");
        }
    }

    private void grow() throws IOException {
        final int capacity = buffer.getInt(CAPACITY_OFFSET, ORDER);
        final long length = HEADER_LENGTH + 2L * capacity * DESCRIPTOR_LENGTH;
        channel.write(ByteBuffer.allocate(1), length - 1);
        IoUtil.unmap(mapped);
        map();
        buffer.putInt(CAPACITY_OFFSET, 2 * capacity, ORDER);
    }

    private int checked(long recordingId) {
        if (recordingId < 0 || recordingId >= buffer.getInt(COUNT_OFFSET, ORDER)) {
            throw new IllegalArgumentException("no recording " + recordingId + " in " + path);
        }
        return (int) recordingId;
    }

    private static int offsetOf(int id) {
        return HEADER_LENGTH + id * DESCRIPTOR_LENGTH;
    }

    private void seal(int at) {
        buffer.putInt(at + CHECKSUM, checksum(view, at, crc), ORDER);
    }

    private static int checksum(ByteBuffer file, int at, CRC32C crc) {
        crc.reset();
        file.limit(at + CHECKSUM).position(at);
        crc.update(file);
        return (int) crc.getValue();
    }

    private static RecordingDescriptor readSteady(Path path, AtomicBuffer file, ByteBuffer checksummed, int id,
        CRC32C crc) throws CorruptCatalogException {
        final int at = offsetOf(id);
        for (int attempt = 0; attempt < READ_ATTEMPTS; attempt++) {
            if (file.getInt(at + CHECKSUM, ORDER) == checksum(checksummed, at, crc)) {
                return decode(path, file, id);
            }
            Thread.onSpinWait();
        }
        throw new CorruptCatalogException(path, "has recording " + id + " whose checksum never matched");
    }

    private static RecordingDescriptor decode(Path path, AtomicBuffer view, int id) throws CorruptCatalogException {
        final int at = offsetOf(id);
        final RecordingState state = RecordingState.of(view.getInt(at + STATE, ORDER));
        final int nameLength = view.getInt(at + NAME_LENGTH, ORDER);
        if (state == null || nameLength < 0 || nameLength > RecorderConfig.MAX_TOPIC_NAME_BYTES) {
            throw new CorruptCatalogException(path, "has recording " + id + " with a state or name it cannot read");
        }
        final SegmentGeometry geometry;
        try {
            geometry = new SegmentGeometry(view.getInt(at + SEGMENT_LENGTH, ORDER), view.getInt(at + INDEX_INTERVAL,
                ORDER));
        } catch (IllegalArgumentException e) {
            throw new CorruptCatalogException(path, "has recording " + id + " with segments it cannot use: "
                + e.getMessage());
        }
        return new RecordingDescriptor(view.getLong(at + ID, ORDER), view.getInt(at + TOPIC_ID, ORDER),
            view.getStringWithoutLengthUtf8(at + NAME, nameLength), view.getInt(at + SESSION_ID, ORDER),
            view.getLong(at + PUBLISHER_ID, ORDER), view.getLong(at + FIRST_INDEX, ORDER),
            view.getLong(at + NEXT_INDEX, ORDER), view.getLong(at + START_MS, ORDER),
            view.getLong(at + STOP_MS, ORDER), view.getLong(at + BYTES, ORDER),
            view.getLong(at + HOLE_MESSAGES, ORDER), state, view.getInt(at + REFUSING, ORDER) != 0, geometry);
    }
}
