package org.nakcast.transport.status;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import org.agrona.IoUtil;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersReader;

/**
 * A node's counters and distinct-error log in one memory-mapped file, so another process can read
 * them live with no network port ({@code ops/nakcast stat}, {@code ops/nakcast errors}). The file
 * stays after the node stops, for a post-mortem; the next node of that name overwrites it.
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                 magic "NAKCAST1" (8 bytes)                    |
 *  +---------------------------------------------------------------+
 *  |                        layout version                         |
 *  +---------------------------------------------------------------+
 *  |                    counters metadata length                   |
 *  +---------------------------------------------------------------+
 *  |                     counters values length                    |
 *  +---------------------------------------------------------------+
 *  |                        error log length                       |
 *  +---------------------------------------------------------------+
 *  |                   process id (64 bits)                        |
 *  +---------------------------------------------------------------+
 *  |                   start time, epoch ms (64 bits)              |
 *  +---------------------------------------------------------------+
 *  |   node name length   |  node name, UTF-8, up to 64 bytes ...  |
 *  +---------------------------------------------------------------+  offset 128
 *  |  counters metadata (Agrona CountersManager layout)            |
 *  +---------------------------------------------------------------+
 *  |  counters values                                              |
 *  +---------------------------------------------------------------+
 *  |  distinct error log (Agrona DistinctErrorLog layout)          |
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * All integers little-endian (the platform order of the mapped buffer on x86 and ARM).
 */
public final class CountersFile implements AutoCloseable {
    /** The magic at offset 0: "NAKCAST1" as a little-endian long. */
    public static final long MAGIC = 0x3154_5341_434B_414EL;
    /** The layout version this code writes and reads. */
    public static final int LAYOUT_VERSION = 1;
    /** Bytes of the header before the counters metadata. */
    public static final int HEADER_LENGTH = 128;
    /** Bytes of counter values: room for 2,048 counters. */
    public static final int VALUES_LENGTH = 128 * 1024;
    /** Bytes of counter metadata: four times the values, as Agrona requires. */
    public static final int METADATA_LENGTH = 4 * VALUES_LENGTH;
    /** Bytes of the distinct error log. */
    public static final int ERROR_LOG_LENGTH = 1024 * 1024;

    static final int MAGIC_OFFSET = 0;
    static final int VERSION_OFFSET = 8;
    static final int METADATA_LENGTH_OFFSET = 12;
    static final int VALUES_LENGTH_OFFSET = 16;
    static final int ERROR_LOG_LENGTH_OFFSET = 20;
    static final int PID_OFFSET = 24;
    static final int START_TIME_OFFSET = 32;
    static final int NAME_LENGTH_OFFSET = 40;
    static final int NAME_OFFSET = 44;
    static final int MAX_NAME_BYTES = HEADER_LENGTH - NAME_OFFSET;

    private final Path path;
    private final FileChannel channel;
    private final FileLock lock;
    private final MappedByteBuffer mapped;
    private final UnsafeBuffer metadata;
    private final UnsafeBuffer values;
    private final AtomicBuffer errorLog;

    private CountersFile(Path path, FileChannel channel, FileLock lock, MappedByteBuffer mapped) {
        this.path = path;
        this.channel = channel;
        this.lock = lock;
        this.mapped = mapped;
        this.metadata = new UnsafeBuffer(mapped, HEADER_LENGTH, METADATA_LENGTH);
        this.values = new UnsafeBuffer(mapped, HEADER_LENGTH + METADATA_LENGTH, VALUES_LENGTH);
        this.errorLog = new UnsafeBuffer(mapped, HEADER_LENGTH + METADATA_LENGTH + VALUES_LENGTH, ERROR_LOG_LENGTH);
    }

    /**
     * Creates (or overwrites) the file of a starting node and maps it.
     *
     * @throws IllegalStateException if a running node holds the file
     * @throws UncheckedIOException naming the file if it cannot be created
     */
    public static CountersFile create(Path path, String nodeName) {
        final int length = HEADER_LENGTH + METADATA_LENGTH + VALUES_LENGTH + ERROR_LOG_LENGTH;
        FileChannel channel = null;
        try {
            Files.createDirectories(path.toAbsolutePath().getParent());
            channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
            final FileLock lock = lockOrFail(channel, path);
            channel.truncate(0);
            final MappedByteBuffer mapped = channel.map(FileChannel.MapMode.READ_WRITE, 0, length);
            final CountersFile file = new CountersFile(path, channel, lock, mapped);
            file.writeHeader(nodeName);
            return file;
        } catch (IOException ex) {
            closeQuietly(channel);
            throw new UncheckedIOException("cannot create counters file " + path + ": " + ex.getMessage(), ex);
        } catch (RuntimeException ex) {
            closeQuietly(channel);
            throw ex;
        }
    }

    private static FileLock lockOrFail(FileChannel channel, Path path) throws IOException {
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (OverlappingFileLockException ex) {
            lock = null;
        }
        if (lock == null) {
            throw new IllegalStateException("counters file " + path + " belongs to a running node; give this node"
                + " another name (node.name) or another counters-file");
        }
        return lock;
    }

    private void writeHeader(String nodeName) {
        final UnsafeBuffer header = new UnsafeBuffer(mapped, 0, HEADER_LENGTH);
        final byte[] name = nodeName.getBytes(StandardCharsets.UTF_8);
        final int nameLength = Math.min(name.length, MAX_NAME_BYTES);
        header.putInt(VERSION_OFFSET, LAYOUT_VERSION);
        header.putInt(METADATA_LENGTH_OFFSET, METADATA_LENGTH);
        header.putInt(VALUES_LENGTH_OFFSET, VALUES_LENGTH);
        header.putInt(ERROR_LOG_LENGTH_OFFSET, ERROR_LOG_LENGTH);
        header.putLong(PID_OFFSET, ProcessHandle.current().pid());
        header.putLong(START_TIME_OFFSET, System.currentTimeMillis());
        header.putInt(NAME_LENGTH_OFFSET, nameLength);
        header.putBytes(NAME_OFFSET, name, 0, nameLength);
        header.putLongVolatile(MAGIC_OFFSET, MAGIC);
    }

    /** Where the file is. */
    public Path path() {
        return path;
    }

    /** The counters metadata region, for a CountersManager. */
    public UnsafeBuffer metadataBuffer() {
        return metadata;
    }

    /** The counters values region, for a CountersManager. */
    public UnsafeBuffer valuesBuffer() {
        return values;
    }

    /** The distinct error log region. */
    public AtomicBuffer errorLogBuffer() {
        return errorLog;
    }

    /**
     * Releases the file for the next node of this name; the file stays. The mapping is left to the
     * garbage collector rather than unmapped here, so counters read after the node closed (a final
     * report, a test) read the last values instead of crashing the JVM.
     */
    @Override
    public void close() {
        mapped.force();
        try {
            lock.release();
        } catch (IOException ex) {
            throw new UncheckedIOException("cannot release counters file " + path, ex);
        } finally {
            closeQuietly(channel);
        }
    }

    private static void closeQuietly(FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // closing after a failure: the first failure is the one reported
            }
        }
    }

    /**
     * Reads a counters file from outside the node: maps it read-only and checks its header.
     *
     * @throws IllegalArgumentException naming the file if it is not a counters file of this layout
     * @throws UncheckedIOException naming the file if it cannot be read
     */
    public static View open(Path path) {
        final MappedByteBuffer mapped;
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
            if (channel.size() < HEADER_LENGTH) {
                throw new IllegalArgumentException(path + " is not a counters file: " + channel.size() + " bytes");
            }
            mapped = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size());
        } catch (IOException ex) {
            throw new UncheckedIOException("cannot read counters file " + path + ": " + ex.getMessage(), ex);
        }
        final UnsafeBuffer all = new UnsafeBuffer(mapped);
        if (all.getLongVolatile(MAGIC_OFFSET) != MAGIC || all.getInt(VERSION_OFFSET) != LAYOUT_VERSION) {
            IoUtil.unmap(mapped);
            throw new IllegalArgumentException(path + " is not a counters file of layout " + LAYOUT_VERSION);
        }
        return new View(path, all);
    }

    /** A read-only look at a counters file: header fields, counters and the error log. */
    public static final class View implements AutoCloseable {
        private final Path path;
        private final UnsafeBuffer all;
        private final CountersReader counters;
        private final UnsafeBuffer errorLog;

        View(Path path, UnsafeBuffer all) {
            this.path = path;
            this.all = all;
            final int metadataLength = all.getInt(METADATA_LENGTH_OFFSET);
            final int valuesLength = all.getInt(VALUES_LENGTH_OFFSET);
            final int errorLogLength = all.getInt(ERROR_LOG_LENGTH_OFFSET);
            this.counters = new CountersReader(new UnsafeBuffer(all, HEADER_LENGTH, metadataLength),
                new UnsafeBuffer(all, HEADER_LENGTH + metadataLength, valuesLength));
            this.errorLog = new UnsafeBuffer(all, HEADER_LENGTH + metadataLength + valuesLength, errorLogLength);
        }

        /** Where the file is. */
        public Path path() {
            return path;
        }

        /** The node's name. */
        public String nodeName() {
            return all.getStringWithoutLengthUtf8(NAME_OFFSET, all.getInt(NAME_LENGTH_OFFSET));
        }

        /** The node's process id. */
        public long pid() {
            return all.getLong(PID_OFFSET);
        }

        /** When the node started, epoch milliseconds. */
        public long startTimeMs() {
            return all.getLong(START_TIME_OFFSET);
        }

        /** Whether the node's process is still running. */
        public boolean isProcessAlive() {
            return ProcessHandle.of(pid()).map(ProcessHandle::isAlive).orElse(false);
        }

        /** The counters, for reading. */
        public CountersReader counters() {
            return counters;
        }

        /** The distinct error log, for {@code org.agrona.concurrent.errors.ErrorLogReader}. */
        public UnsafeBuffer errorLog() {
            return errorLog;
        }

        /** Unmaps the file. */
        @Override
        public void close() {
            if (all.byteBuffer() != null) {
                IoUtil.unmap(all.byteBuffer());
            }
        }
    }
}
