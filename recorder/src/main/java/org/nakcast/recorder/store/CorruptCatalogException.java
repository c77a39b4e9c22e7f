package org.nakcast.recorder.store;

import java.io.IOException;
import java.nio.file.Path;

/** A recordings catalog this version cannot read: not one, of another layout, or damaged. */
public final class CorruptCatalogException extends IOException {
    private static final long serialVersionUID = 1L;

    /**
     * @param path the file
     * @param what what is wrong with it, completing "catalog PATH ..."
     */
    public CorruptCatalogException(Path path, String what) {
        super("catalog " + path + " " + what);
    }
}
