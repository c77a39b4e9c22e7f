package org.nakcast.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nakcast.config.AuthKeyFile;
import org.nakcast.config.AuthKeys;

/** {@code nakcast keygen}: a fresh file, a key added to an old file's, and what it refuses. */
class KeygenCommandTest {
    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @Test
    void writesAFreshOwnerOnlyFileWhoseOneKeySigns() throws IOException {
        final Path file = dir.resolve("nakcast.keys");

        assertThat(run("keygen", "--out", file.toString())).as(text(err)).isZero();

        final AuthKeys keys = AuthKeyFile.read(file);
        assertThat(keys.signingKeyId()).isOne();
        assertThat(keys.keys()).extracting(AuthKeys.Key::id).containsExactly(1);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(text(out)).isEqualTo("keygen: wrote " + file + ": new key 1; signing with key 1, accepting key 1\n");
        assertNoSecretPrinted(keys);
    }

    @Test
    void anIdNamesTheFreshKey() {
        final Path file = dir.resolve("nakcast.keys");

        assertThat(run("keygen", "--out", file.toString(), "--id", "7")).as(text(err)).isZero();

        assertThat(AuthKeyFile.read(file).toString()).isEqualTo("signing with key 7, accepting key 7");
    }

    @Test
    void fromAnOldFileAddsTheNextKeyAndKeepsSigningWithTheOldOne() throws IOException {
        final Path old = keyFile("old.keys", 1, 1);
        final Path next = dir.resolve("next.keys");

        assertThat(run("keygen", "--from", old.toString(), "--out", next.toString())).as(text(err)).isZero();

        final AuthKeys keys = AuthKeyFile.read(next);
        assertThat(keys.toString()).isEqualTo("signing with key 1, accepting keys 1, 2");
        assertThat(keys.keys().get(0)).as("the old key, secret and all").isEqualTo(AuthKeyFile.read(old).keys().get(0));
        assertThat(text(out)).isEqualTo("keygen: wrote " + next + ": the keys of " + old
            + " and new key 2; signing with key 1, accepting keys 1, 2\n");
        assertNoSecretPrinted(keys);
    }

    @Test
    void signNewSignsWithTheAddedKeyOfTheIdGiven() throws IOException {
        final Path old = keyFile("old.keys", 1, 1);
        final Path next = dir.resolve("next.keys");

        assertThat(run("keygen", "--from", old.toString(), "--out", next.toString(), "--id", "9", "--sign-new"))
            .as(text(err)).isZero();

        assertThat(AuthKeyFile.read(next).toString()).isEqualTo("signing with key 9, accepting keys 1, 9");
    }

    @Test
    void anExistingOutFileIsNeverOverwritten() throws IOException {
        final Path file = dir.resolve("nakcast.keys");
        Files.writeString(file, "mine");

        assertThat(run("keygen", "--out", file.toString())).isEqualTo(KeygenCommand.REFUSED);

        assertThat(text(err)).isEqualTo("keygen: " + file + " exists: keygen never overwrites a key file; choose"
            + " another --out\n");
        assertThat(Files.readString(file)).isEqualTo("mine");
        assertThat(text(out)).isEmpty();
    }

    @Test
    void aFourthKeyIsRefusedNamingTheKeysThatMayGo() throws IOException {
        final Path old = keyFile("old.keys", 2, 1, 2, 3);
        final Path next = dir.resolve("next.keys");

        assertThat(run("keygen", "--from", old.toString(), "--out", next.toString())).isEqualTo(KeygenCommand.REFUSED);

        assertThat(text(err)).isEqualTo("keygen: " + old + " holds 3 keys, the most a file may hold: remove one of"
            + " keys 1, 3 from it (key 2 signs) once no node signs with it, then run keygen again\n");
        assertThat(next).doesNotExist();
    }

    @Test
    void anIdTakenOrPastTheHighestIsRefused() throws IOException {
        final Path old = keyFile("old.keys", 255, 4, 255);
        final Path next = dir.resolve("next.keys");

        assertThat(run("keygen", "--from", old.toString(), "--out", next.toString())).isEqualTo(KeygenCommand.REFUSED);
        assertThat(text(err)).isEqualTo("keygen: " + old + " holds key 255, the highest id there is: name a free id"
            + " for the new key with --id (in use: keys 4, 255)\n");

        err.reset();
        assertThat(run("keygen", "--from", old.toString(), "--out", next.toString(), "--id", "4"))
            .isEqualTo(KeygenCommand.REFUSED);
        assertThat(text(err)).isEqualTo("keygen: " + old + " holds key 4 already: name a free id for the new key"
            + " with --id (in use: keys 4, 255)\n");
        assertThat(next).doesNotExist();

        assertThat(run("keygen", "--from", old.toString(), "--out", next.toString(), "--id", "0")).isZero();
        assertThat(AuthKeyFile.read(next).toString()).isEqualTo("signing with key 255, accepting keys 4, 255, 0");
    }

    @Test
    void anOldFileOpenToOthersIsRefusedWithTheKeyFilesWords() throws IOException {
        final Path old = keyFile("old.keys", 1, 1);
        Files.setPosixFilePermissions(old, PosixFilePermissions.fromString("rw-r--r--"));
        final Path next = dir.resolve("next.keys");

        assertThat(run("keygen", "--from", old.toString(), "--out", next.toString())).isEqualTo(KeygenCommand.REFUSED);

        final String refusal = catchThrowableOfType(AuthKeyFile.BadKeyFileException.class,
            () -> AuthKeyFile.read(old)).getMessage();
        assertThat(refusal).contains("is open to others", "chmod 600 " + old);
        assertThat(text(err)).isEqualTo("keygen: " + refusal + "\n");
        assertThat(next).doesNotExist();
    }

    @Test
    void anIdOutOfRangeIsABadCommandLine() {
        assertThat(run("keygen", "--out", dir.resolve("k").toString(), "--id", "256")).isEqualTo(2);

        assertThat(text(err)).contains("--id must be in 0..255 (was 256)");
        assertThat(run("keygen")).isEqualTo(2);
        assertThat(text(err)).contains("Missing required option: '--out=FILE'");
    }

    private Path keyFile(String name, int signing, int... ids) throws IOException {
        final Path file = dir.resolve(name);
        AuthKeyFile.write(file, new AuthKeys(signing, Arrays.stream(ids).mapToObj(AuthKeyFile::newKey)
            .toList()));
        return file;
    }

    private void assertNoSecretPrinted(AuthKeys keys) {
        final List<String> secrets = keys.keys().stream()
            .map(key -> Base64.getEncoder().encodeToString(key.secret())).toList();
        assertThat(text(out) + text(err)).doesNotContain(secrets);
    }

    private int run(String... args) {
        return Nakcast.run(new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8), args);
    }

    private static String text(ByteArrayOutputStream bytes) {
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
