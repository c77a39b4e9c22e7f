package org.nakcast.recorder.store;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Asked for room before each segment file is made. On a real disk the file system answers while
 * the file is made (a full disk refuses the zeros written into it), so {@link #FILE_SYSTEM} asks
 * nothing more; a simulation, whose recorders write where the disk never fills, gives a space that
 * refuses while its disk is full, and learns when a segment is made (a slow disk stalls then).
 */
@FunctionalInterface
public interface SegmentSpace {
    /** The file system alone decides, while the segment is made. */
    SegmentSpace FILE_SYSTEM = (segment, length) -> {
    };

    /**
     * Room for a segment file of {@code length} bytes at {@code segment}, about to be made.
     *
     * @throws IOException if there is none now: the segment is not made
     */
    void reserve(Path segment, int length) throws IOException;
}
