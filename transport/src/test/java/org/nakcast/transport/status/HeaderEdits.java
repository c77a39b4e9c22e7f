package org.nakcast.transport.status;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Changes fields of a counters file's header in place, for tests: files of stopped processes, of
 * another layout. Writes through a channel of its own, never locking.
 */
final class HeaderEdits {
    private HeaderEdits() {
    }

    /** Says the file was made by process {@code pid} at {@code startTimeMs}. */
    static void process(Path path, long pid, long startTimeMs) throws IOException {
        putLong(path, CountersFile.PID_OFFSET, pid);
        putLong(path, CountersFile.START_TIME_OFFSET, startTimeMs);
    }

    /** Says the file is of layout {@code version}. */
    static void layout(Path path, int version) throws IOException {
        write(path, CountersFile.VERSION_OFFSET, ByteBuffer.allocate(Integer.BYTES).order(ByteOrder.nativeOrder())
            .putInt(0, version));
    }

    private static void putLong(Path path, int offset, long value) throws IOException {
        write(path, offset, ByteBuffer.allocate(Long.BYTES).order(ByteOrder.nativeOrder()).putLong(0, value));
    }

    private static void write(Path path, int offset, ByteBuffer bytes) throws IOException {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.WRITE)) {
            channel.write(bytes, offset);
        }
    }
}
