package org.nakcast.transport.status;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.agrona.IoUtil;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersReader;

/**
 * A node's counters and distinct-error log in one memory-mapped file, so another process can read
 * them live with no network port ({@code ops/nakcast stat}, {@code ops/nakcast errors}).
 *
 * <p>What becomes of a file after its node stops: it stays, for a post-mortem, until the next node
 * that starts with its counters file in the same directory finds its process gone and removes it
 * ({@link StaleCountersFiles}); a node of the same name takes it over and overwrites it. A node
 * that asks to keep its file ({@code node.keep-counters-file}) marks it {@link #KEEP_FLAG}: no
 * starting node removes it, only a node of its name overwrites it, or an operator.
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
 *  |                     flags (bit 0: keep)                       |
 *  +---------------------------------------------------------------+
 *  |                       node name length                        |
 *  +---------------------------------------------------------------+
 *  |             node name, UTF-8, up to 80 bytes ...              |
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
    /** The ending of a counters file's name, by which tools and starting nodes find them. */
    public static final String SUFFIX = ".counters";
    /** The magic at offset 0: "NAKCAST1" as a little-endian long. */
    public static final long MAGIC = 0x3154_5341_434B_414EL;
    /** The layout version this code writes and reads: 2 added the flags. */
    public static final int LAYOUT_VERSION = 2;
    /** The flag of a file its node asked to keep after it stops: no starting node removes it. */
    public static final int KEEP_FLAG = 1;
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
    static final int FLAGS_OFFSET = 40;
    static final int NAME_LENGTH_OFFSET = 44;
    static final int NAME_OFFSET = 48;
    static final int MAX_NAME_BYTES = HEADER_LENGTH - NAME_OFFSET;

    /** How often {@link #create} makes its file again when it was removed while being made. */
    static final int MAX_CREATE_ATTEMPTS = 3;
    /**
     * How much later than a file's start time its process may have started and still be its node:
     * a process's start instant is known to about a second (the boot time's precision), and a node
     * writes its start time after its process started. A process of that id started later is
     * another one that reuses the id of the node's process, which is gone.
     */
    static final long PROCESS_START_SLACK_MS = 5_000;

    /** The files this process's nodes hold, by {@link #heldKey}. */
    private static final Set<Path> HELD_HERE = ConcurrentHashMap.newKeySet();

    private final Path path;
    private final Path key;
    private final FileChannel channel;
    private final FileLock lock;
    private final MappedByteBuffer mapped;
    private final Header header;
    private final UnsafeBuffer metadata;
    private final UnsafeBuffer values;
    private final AtomicBuffer errorLog;

    private CountersFile(Path path, Path key, FileChannel channel, FileLock lock, MappedByteBuffer mapped,
        Header header) {
        this.path = path;
        this.key = key;
        this.header = header;
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
     * <p>Two things would otherwise go wrong unseen:
     * <ul>
     *   <li>A node starting beside this one may remove a stopped node's file at this path between this
     *   node opening it and locking it ({@link StaleCountersFiles}); this node would then count into a
     *   file nobody can open. So the file at the path is looked up (its file key: device and inode)
     *   before opening and again once locked: if it changed, the file is made again.</li>
     *   <li>File locks belong to the process, and closing any channel on a file releases every lock
     *   the process holds on it: a second node of this process must not so much as open the file of
     *   the first. So this process keeps the files its nodes hold, and refuses those before opening;
     *   and it makes files and removes stale ones one at a time ({@link #removeIfStale}).</li>
     * </ul>
     *
     * @param keep whether the file is to stay after the node stops, whatever nodes start later
     *     ({@link #KEEP_FLAG})
     * @throws IllegalStateException if a running node holds the file
     * @throws UncheckedIOException naming the file if it cannot be created
     */
    public static synchronized CountersFile create(Path path, String nodeName, boolean keep) {
        final Path key = heldKey(path);
        if (!HELD_HERE.add(key)) {
            throw heldByRunningNode(path);
        }
        try {
            for (int attempt = 1; ; attempt++) {
                final Object before = fileKey(path);
                final CountersFile file = createOnce(path, key, nodeName, keep);
                if (before == null || before.equals(fileKey(path))) {
                    return file;
                }
                file.release();
                if (attempt == MAX_CREATE_ATTEMPTS) {
                    throw new IllegalStateException("counters file " + path + " was removed while this node made it, "
                        + attempt + " times over: is something deleting files in "
                        + path.toAbsolutePath().getParent() + "?");
                }
            }
        } catch (RuntimeException ex) {
            HELD_HERE.remove(key);
            throw ex;
        }
    }

    private static CountersFile createOnce(Path path, Path key, String nodeName, boolean keep) {
        final int length = HEADER_LENGTH + METADATA_LENGTH + VALUES_LENGTH + ERROR_LOG_LENGTH;
        FileChannel channel = null;
        try {
            Files.createDirectories(path.toAbsolutePath().getParent());
            channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
            final FileLock lock = lockOrFail(channel, path);
            channel.truncate(0);
            final MappedByteBuffer mapped = channel.map(FileChannel.MapMode.READ_WRITE, 0, length);
            final Header header = new Header(nodeName, ProcessHandle.current().pid(), System.currentTimeMillis(), keep);
            final CountersFile file = new CountersFile(path, key, channel, lock, mapped, header);
            file.writeHeader();
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
        final FileLock lock = channel.tryLock();
        if (lock == null) {
            throw heldByRunningNode(path);
        }
        return lock;
    }

    private static IllegalStateException heldByRunningNode(Path path) {
        return new IllegalStateException("counters file " + path + " belongs to a running node; give this node"
            + " another name (node.name) or another counters-file");
    }

    /** How this process names a file it holds: its absolute, normalized path. */
    private static Path heldKey(Path path) {
        return path.toAbsolutePath().normalize();
    }

    /**
     * Removes {@code file} if it is the counters file of a stopped node that did not ask to keep it,
     * while holding its lock; the rules are {@link StaleCountersFiles}'s. A file a node of this process
     * holds is not even opened (closing the channel would release the node's lock).
     *
     * @return whether it was removed
     * @throws IOException if the file cannot be read or removed ({@link java.nio.file.NoSuchFileException}:
     *     it is gone already)
     */
    static synchronized boolean removeIfStale(Path file) throws IOException {
        if (HELD_HERE.contains(heldKey(file)) || !Files.isRegularFile(file)) {
            return false;
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
            FileLock lock = channel.tryLock()) {
            if (lock == null) {
                return false;
            }
            final Header header = Header.read(channel);
            if (header == null || header.keep() || header.isProcessAlive()) {
                return false;
            }
            Files.delete(file);
            return true;
        }
    }

    /** The file key (device and inode) of the file at {@code path}, or null if there is none or none is known. */
    private static Object fileKey(Path path) {
        try {
            return Files.readAttributes(path, BasicFileAttributes.class).fileKey();
        } catch (IOException absent) {
            return null;
        }
    }

    private void writeHeader() {
        final UnsafeBuffer buffer = new UnsafeBuffer(mapped, 0, HEADER_LENGTH);
        final byte[] name = header.nodeName().getBytes(StandardCharsets.UTF_8);
        final int nameLength = Math.min(name.length, MAX_NAME_BYTES);
        buffer.putInt(VERSION_OFFSET, LAYOUT_VERSION);
        buffer.putInt(METADATA_LENGTH_OFFSET, METADATA_LENGTH);
        buffer.putInt(VALUES_LENGTH_OFFSET, VALUES_LENGTH);
        buffer.putInt(ERROR_LOG_LENGTH_OFFSET, ERROR_LOG_LENGTH);
        buffer.putLong(PID_OFFSET, header.pid());
        buffer.putLong(START_TIME_OFFSET, header.startTimeMs());
        buffer.putInt(FLAGS_OFFSET, header.keep() ? KEEP_FLAG : 0);
        buffer.putInt(NAME_LENGTH_OFFSET, nameLength);
        buffer.putBytes(NAME_OFFSET, name, 0, nameLength);
        buffer.putLongVolatile(MAGIC_OFFSET, MAGIC);
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
     * Releases the file for the next node of this name; the file stays (see the class comment for
     * how long). The mapping is left to the garbage collector rather than unmapped here, so counters
     * read after the node closed (a final report, a test) read the last values instead of crashing
     * the JVM.
     */
    @Override
    public void close() {
        try {
            release();
        } finally {
            HELD_HERE.remove(key);
        }
    }

    /** Writes the mapping out and gives up the lock and the channel; this process still counts the file as held. */
    private void release() {
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
        final Header header = Header.read(all);
        if (header == null) {
            IoUtil.unmap(mapped);
            throw new IllegalArgumentException(path + " is not a counters file of layout " + LAYOUT_VERSION);
        }
        return new View(path, all, header);
    }

    /**
     * What a counters file says of its node.
     *
     * @param nodeName the node's name (at most its first 80 bytes of UTF-8 are kept in the file)
     * @param pid the node's process id
     * @param startTimeMs when the node started, epoch milliseconds
     * @param keep whether the node asked to keep the file after it stops ({@link #KEEP_FLAG})
     */
    public record Header(String nodeName, long pid, long startTimeMs, boolean keep) {
        /**
         * The header at the start of {@code buffer}, or null if it is not the header of a counters
         * file of this layout (another layout, another kind of file, or one whose node is still
         * writing its header).
         */
        static Header read(UnsafeBuffer buffer) {
            if (buffer.capacity() < HEADER_LENGTH || buffer.getLongVolatile(MAGIC_OFFSET) != MAGIC
                || buffer.getInt(VERSION_OFFSET) != LAYOUT_VERSION) {
                return null;
            }
            final int nameLength = buffer.getInt(NAME_LENGTH_OFFSET);
            if (nameLength < 0 || nameLength > MAX_NAME_BYTES) {
                return null;
            }
            return new Header(buffer.getStringWithoutLengthUtf8(NAME_OFFSET, nameLength), buffer.getLong(PID_OFFSET),
                buffer.getLong(START_TIME_OFFSET), (buffer.getInt(FLAGS_OFFSET) & KEEP_FLAG) != 0);
        }

        /**
         * The header of the file at {@code path}, read without mapping the file, or null if it is not
         * a counters file of this layout.
         *
         * @throws IOException if the file cannot be read ({@link java.nio.file.NoSuchFileException}: it is gone)
         */
        static Header read(Path path) throws IOException {
            try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
                return read(channel);
            }
        }

        /** The header read from the start of an open file, or null if it is not one of this layout. */
        static Header read(FileChannel channel) throws IOException {
            final ByteBuffer bytes = ByteBuffer.allocate(HEADER_LENGTH);
            while (bytes.hasRemaining() && channel.read(bytes, bytes.position()) > 0) {
                // a file shorter than a header ends the loop early, and is no counters file
            }
            return bytes.hasRemaining() ? null : read(new UnsafeBuffer(bytes));
        }

        /**
         * Whether the node's process still runs: a process of its id is alive and started no later
         * than the node ({@link #PROCESS_START_SLACK_MS} allowed). A process of that id started
         * later reuses the id of the node's process, which is gone.
         */
        public boolean isProcessAlive() {
            return ProcessHandle.of(pid)
                .filter(ProcessHandle::isAlive)
                .map(process -> process.info().startInstant()
                    .map(start -> start.toEpochMilli() <= startTimeMs + PROCESS_START_SLACK_MS)
                    .orElse(true))
                .orElse(false);
        }
    }

    /** A read-only look at a counters file: header fields, counters and the error log. */
    public static final class View implements AutoCloseable {
        private final Path path;
        private final UnsafeBuffer all;
        private final Header header;
        private final CountersReader counters;
        private final UnsafeBuffer errorLog;

        View(Path path, UnsafeBuffer all, Header header) {
            this.path = path;
            this.all = all;
            this.header = header;
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

        /** What the file says of its node: name, process id, start time, whether it is kept. */
        public Header header() {
            return header;
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
