package org.nakcast.cli;

import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;

import org.nakcast.config.AuthKeyFile;
import org.nakcast.config.TransportConfig;

/**
 * The key file check of {@code check-host}: a transport's {@code auth-key-file} read as its node will
 * read it when it starts (its owner's alone, every line valid), and its keys named; a transport
 * without one is said not to authenticate its datagrams.
 */
final class KeyFileCheck {
    private KeyFileCheck() {
    }

    /** OK naming the keys and the one that signs, FAIL in the key file's own words, or OK: not authenticated. */
    static Finding of(TransportConfig transport) {
        final String which = "transport '" + transport.name() + "'";
        if (!transport.authenticated()) {
            return Finding.ok(which + ": no auth-key-file: its datagrams are not authenticated (nakcast keygen --out"
                + " FILE writes a key file)");
        }
        final Path file;
        try {
            file = Path.of(transport.authKeyFile());
        } catch (InvalidPathException ex) {
            return Finding.fail(which + ": auth-key-file is not a path: " + ex.getMessage(),
                "name the key file in auth-key-file");
        }
        try {
            return Finding.ok(which + ": key file " + file + ": " + AuthKeyFile.read(file));
        } catch (AuthKeyFile.OpenToOthersException ex) {
            return Finding.fail(which + ": " + ex.getMessage(), "chmod 600 " + file);
        } catch (AuthKeyFile.BadKeyFileException ex) {
            return Finding.fail(which + ": " + ex.getMessage(), fix(file, transport.name()));
        }
    }

    /**
     * A missing file is written (or brought from another node), one this user may not read is checked
     * as its owner, and one with a wrong line is replaced by the transport's file.
     */
    private static String fix(Path file, String transport) {
        if (Files.notExists(file)) {
            return "nakcast keygen --out " + file + "  (a new key: the same file, mode 600, on every node of"
                + " transport '" + transport + "'; or copy that file here from another node)";
        }
        if (!Files.isReadable(file)) {
            return "run check-host as the user the nodes run as, the file's owner";
        }
        return "put transport '" + transport + "''s key file from another node in its place, mode 600";
    }
}
