package org.nakcast.recorder.store;

import java.io.IOException;
import java.nio.file.Path;

/** A file in a recording directory that is not a whole segment of the layout this version reads. */
public final class CorruptSegmentException extends IOException {
    private static final long serialVersionUID = 1L;

    /**
     * @param path the file
     * @param what what is wrong with it, completing "segment file PATH ..."
     */
    public CorruptSegmentException(Path path, String what) {
        super("segment file " + path + " " + what);
    }
}
