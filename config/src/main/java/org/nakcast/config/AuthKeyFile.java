package org.nakcast.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Reads and writes a transport's key file ({@code auth-key-file}), a text file its owner alone may
 * read:
 *
 * <pre>
 * # nakcast authentication keys: keep this file readable by its owner alone (chmod 600).
 * # Datagrams are signed with the key 'sign' names; a datagram signed with any key here is accepted.
 * sign 2
 * key 2 q8Fz0wS1mJx3cD9tY1uV7eR2bN5kL4hG6aP0oI8yT3w=
 * key 1 Zk2cR9vB4nM7xQ1wE5tY8uI3oP6aS0dF2gH4jK7lZ9c=
 * </pre>
 *
 * Blank lines and lines starting with {@code #} are skipped; a {@code key} line holds an id
 * (0..255) and a {@value AuthKeys#SECRET_BYTES}-byte secret in base64. The file is refused, with
 * its path, line and what to do, if it cannot be read, if its group or others may read or write it,
 * or if a line is not one of these.
 */
public final class AuthKeyFile {
    private static final Set<PosixFilePermission> OTHERS_MAY = Set.of(
        PosixFilePermission.GROUP_READ, PosixFilePermission.GROUP_WRITE,
        PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE);
    private static final FileAttribute<Set<PosixFilePermission>> OWNER_ONLY =
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));
    private static final String HEADER = """
        # nakcast authentication keys: keep this file readable by its owner alone (chmod 600).
        # Datagrams are signed with the key 'sign' names; a datagram signed with any key here is accepted.
        """;

    private AuthKeyFile() {
    }

    /** A key file that cannot be used; the message names the file and says what to do. */
    public static class BadKeyFileException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        BadKeyFileException(String message) {
            super(message);
        }
    }

    /** A key file its group or others may read or write; {@code chmod 600} fixes it. */
    public static final class OpenToOthersException extends BadKeyFileException {
        private static final long serialVersionUID = 1L;

        OpenToOthersException(String message) {
            super(message);
        }
    }

    /**
     * Reads the keys of {@code file}.
     *
     * @throws BadKeyFileException naming the file, and its line if a line is wrong; an
     *     {@link OpenToOthersException} if its group or others may read or write it
     */
    public static AuthKeys read(Path file) {
        checkOwnerOnly(file);
        final List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException ex) {
            throw new BadKeyFileException("key file " + file + " cannot be read: " + ex.getMessage());
        }
        Integer signing = null;
        final List<AuthKeys.Key> keys = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            final String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            final String[] words = line.split("\\s+");
            final String where = "key file " + file + ", line " + (i + 1) + ": ";
            if (words[0].equals("sign") && words.length == 2) {
                if (signing != null) {
                    throw new BadKeyFileException(where + "a second 'sign' line; keep one");
                }
                signing = id(words[1], where);
            } else if (words[0].equals("key") && words.length == 3) {
                keys.add(key(id(words[1], where), words[2], where));
            } else {
                throw new BadKeyFileException(where + "expected 'sign ID' or 'key ID BASE64', found '"
                    + words[0] + (words.length > 1 ? " ...'" : "'") + " (nakcast keygen writes a valid file)");
            }
        }
        if (signing == null) {
            throw new BadKeyFileException("key file " + file + " has no 'sign ID' line: say which key signs");
        }
        try {
            return new AuthKeys(signing, keys);
        } catch (IllegalArgumentException ex) {
            throw new BadKeyFileException("key file " + file + ": " + ex.getMessage());
        }
    }

    /**
     * Writes {@code keys} to a new file {@code file} that its owner alone may read and write.
     *
     * @throws IOException if the file exists or cannot be written
     */
    public static void write(Path file, AuthKeys keys) throws IOException {
        final StringBuilder text = new StringBuilder(HEADER).append("sign ").append(keys.signingKeyId()).append('\n');
        for (AuthKeys.Key key : keys.keys()) {
            text.append("key ").append(key.id()).append(' ')
                .append(Base64.getEncoder().encodeToString(key.secret())).append('\n');
        }
        final boolean posix = Files.getFileAttributeView(file.toAbsolutePath().getParent(),
            PosixFileAttributeView.class) != null;
        if (posix) {
            Files.createFile(file, OWNER_ONLY);
        } else {
            Files.createFile(file);
        }
        Files.writeString(file, text, StandardCharsets.UTF_8, StandardOpenOption.TRUNCATE_EXISTING);
    }

    /** A fresh key of id {@code id} from the system's strong random source. */
    public static AuthKeys.Key newKey(int id) {
        final byte[] secret = new byte[AuthKeys.SECRET_BYTES];
        new SecureRandom().nextBytes(secret);
        return new AuthKeys.Key(id, secret);
    }

    private static void checkOwnerOnly(Path file) {
        final PosixFileAttributeView view =
            Files.getFileAttributeView(file, PosixFileAttributeView.class);
        if (view == null) {
            return;
        }
        final Set<PosixFilePermission> permissions;
        try {
            permissions = view.readAttributes().permissions();
        } catch (IOException ex) {
            throw new BadKeyFileException("key file " + file + " cannot be read: " + ex.getMessage());
        }
        final List<String> granted = permissions.stream().filter(OTHERS_MAY::contains)
            .map(p -> p.name().toLowerCase(Locale.ROOT).replace('_', ' ')).sorted().toList();
        if (!granted.isEmpty()) {
            throw new OpenToOthersException("key file " + file + " is open to others (" + String.join(", ", granted)
                + ", mode " + PosixFilePermissions.toString(permissions) + "): anyone who reads it can forge "
                + "datagrams; chmod 600 " + file);
        }
    }

    private static int id(String word, String where) {
        try {
            final int id = Integer.parseInt(word);
            if (id >= 0 && id <= AuthKeys.MAX_KEY_ID) {
                return id;
            }
        } catch (NumberFormatException ex) {
            // refused below
        }
        throw new BadKeyFileException(where + "key id '" + word + "' must be a number in 0.." + AuthKeys.MAX_KEY_ID);
    }

    private static AuthKeys.Key key(int id, String base64, String where) {
        final byte[] secret;
        try {
            secret = Base64.getDecoder().decode(base64);
        } catch (IllegalArgumentException ex) {
            throw new BadKeyFileException(where + "key " + id + " is not base64: " + ex.getMessage());
        }
        if (secret.length != AuthKeys.SECRET_BYTES) {
            throw new BadKeyFileException(where + "key " + id + " has " + secret.length + " bytes, must have "
                + AuthKeys.SECRET_BYTES + " (an AES-256 key, as nakcast keygen writes)");
        }
        return new AuthKeys.Key(id, secret);
    }
}
