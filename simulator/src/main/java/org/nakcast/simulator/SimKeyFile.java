package org.nakcast.simulator;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.nakcast.config.AuthKeyFile;
import org.nakcast.config.AuthKeys;

/**
 * The key file every transport of an authenticated seed names ({@link FaultKind#AUTHENTICATION}): one
 * per JVM, one key, written owner-only in a directory of its own the first time a seed asks for it,
 * and deleted with its directory when the JVM exits. Every process of every seed holds it; the
 * stranger does not.
 */
final class SimKeyFile {
    /** The id of its one key, which signs: what the trailer of every signed datagram names. */
    static final int KEY_ID = 7;

    private static Path file;

    private SimKeyFile() {
    }

    /** The file's path, written now if this JVM has not written it yet. */
    static synchronized String path() {
        if (file == null) {
            try {
                final Path directory = Files.createTempDirectory("nakcast-sim-keys");
                directory.toFile().deleteOnExit();
                final Path written = directory.resolve("sim.keys");
                AuthKeyFile.write(written, new AuthKeys(KEY_ID, List.of(AuthKeyFile.newKey(KEY_ID))));
                written.toFile().deleteOnExit();
                file = written;
            } catch (IOException ex) {
                throw new UncheckedIOException("cannot write the simulation's key file", ex);
            }
        }
        return file.toString();
    }
}
