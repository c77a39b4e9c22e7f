package org.nakcast.transport;

import java.nio.ByteBuffer;

import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.nakcast.transport.status.CountersFile;

/**
 * Where a node's counters and distinct-error log live: the regions of its counters file, or, for a
 * node that keeps them in memory ({@link NodeContext#countersInFile}), buffers of the same sizes
 * that no other process can read.
 *
 * @param metadata the counters' metadata, for a {@code CountersManager}
 * @param values the counters' values
 * @param errorLog the distinct-error log
 */
record NodeCounterBuffers(UnsafeBuffer metadata, UnsafeBuffer values, AtomicBuffer errorLog) {
    /** Buffers of a counters file's sizes, in this process's memory alone. */
    static NodeCounterBuffers inMemory() {
        return new NodeCounterBuffers(direct(CountersFile.METADATA_LENGTH), direct(CountersFile.VALUES_LENGTH),
            direct(CountersFile.ERROR_LOG_LENGTH));
    }

    private static UnsafeBuffer direct(int length) {
        return new UnsafeBuffer(ByteBuffer.allocateDirect(length));
    }
}
