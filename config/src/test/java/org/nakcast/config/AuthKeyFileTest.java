package org.nakcast.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.nakcast.config.TestConfigs.VALID;
import static org.nakcast.config.TestConfigs.onlyProblemOf;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Key files: written owner-only, read back whole, and every way a file can be wrong, said with its line. */
class AuthKeyFileTest {
    @TempDir
    Path dir;

    @Test
    void aWrittenFileIsItsOwnersAloneAndReadsBackTheSameKeys() throws IOException {
        final AuthKeys keys = new AuthKeys(2, List.of(AuthKeyFile.newKey(1), AuthKeyFile.newKey(2)));
        final Path file = dir.resolve("nakcast.keys");

        AuthKeyFile.write(file, keys);

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(AuthKeyFile.read(file)).isEqualTo(keys);
        assertThat(keys.toString()).isEqualTo("signing with key 2, accepting keys 1, 2");
        assertThat(keys.keys().get(0).toString()).isEqualTo("key 1");
    }

    @Test
    void aFileOthersMayReadIsRefusedWithTheChmodThatFixesIt() throws IOException {
        final Path file = written();
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));

        assertThatThrownBy(() -> AuthKeyFile.read(file)).isInstanceOf(AuthKeyFile.OpenToOthersException.class)
            .hasMessage("key file " + file + " is open to others (group read, others read, mode rw-r--r--): anyone"
                + " who reads it can forge datagrams; chmod 600 " + file);
    }

    @Test
    void aLinkToAFileItsOwnerAloneMayReadIsReadThroughAsSecretMountsAreMade() throws IOException {
        final Path target = written();
        final Path link = Files.createSymbolicLink(dir.resolve("link.keys"), target);

        assertThat(AuthKeyFile.read(link)).isEqualTo(AuthKeyFile.read(target));
        Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rw-r-----"));
        assertThatThrownBy(() -> AuthKeyFile.read(link)).hasMessageContaining("is open to others (group read");
    }

    @Test
    void eachWrongLineIsNamedWithItsNumber() throws IOException {
        assertThat(problemOf("sign 1\nkey 1 " + secret(32) + "\nsecret 3\n"))
            .endsWith("line 3: expected 'sign ID' or 'key ID BASE64', found 'secret ...' (nakcast keygen writes a"
                + " valid file)");
        assertThat(problemOf("# keys\nsign 1\nkey 1 " + secret(16) + "\n"))
            .endsWith("line 3: key 1 has 16 bytes, must have 32 (an AES-256 key, as nakcast keygen writes)");
        assertThat(problemOf("sign 1\nkey 300 " + secret(32) + "\n")).endsWith("line 2: key id '300' must be a"
            + " number in 0..255");
        assertThat(problemOf("sign 1\nkey 1 not*base64\n")).contains("line 2: key 1 is not base64");
        assertThat(problemOf("sign 1\nsign 1\n")).endsWith("line 2: a second 'sign' line; keep one");
    }

    @Test
    void aFileWithoutItsSigningKeyOrWithTwinIdsIsRefused() throws IOException {
        assertThat(problemOf("key 1 " + secret(32) + "\n")).endsWith("has no 'sign ID' line: say which key signs");
        assertThat(problemOf("sign 2\nkey 1 " + secret(32) + "\n")).endsWith("signing key 2 is not among [key 1]");
        assertThat(problemOf("sign 1\nkey 1 " + secret(32) + "\nkey 1 " + secret(32) + "\n"))
            .endsWith("two keys have the same id: [key 1, key 1]");
    }

    @Test
    void aMissingFileIsNamed() {
        final Path file = dir.resolve("absent.keys");

        assertThatThrownBy(() -> AuthKeyFile.read(file)).hasMessageStartingWith("key file " + file
            + " cannot be read");
    }

    @Test
    void aTransportWhoseKeyFileIsOpenToOthersIsAProblemAtItsKey() throws IOException {
        final Path file = written();
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw----"));
        final String yaml = VALID.replace("    port: 40456\n", "    port: 40456\n    auth-key-file: " + file + "\n");

        final Problem problem = onlyProblemOf(yaml);

        assertThat(problem.path()).isEqualTo("transports[0].auth-key-file");
        assertThat(problem.message()).contains("is open to others (group read, group write");
        assertThat(problem.hint()).isEqualTo("nakcast keygen --out FILE writes a key file, mode 600");
    }

    @Test
    void aContextThatLeavesKeyFilesUnreadConcludesAConfigWhoseKeyFileIsOpenToOthersOrMissing() throws IOException {
        final Path open = written();
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rw-r--r--"));
        final ConcludeContext unread = TestConfigs.FAKE_CONTEXT.withKeyFilesUnread();

        for (Path file : List.of(open, dir.resolve("absent.keys"))) {
            final String yaml = VALID.replace("    port: 40456\n", "    port: 40456\n    auth-key-file: " + file
                + "\n");
            assertThat(NodeConfig.parse(yaml, TestConfigs.SOURCE, unread).transports().get(0).authKeyFile())
                .isEqualTo(file.toString());
        }
        assertThat(unread.withCodecNames(TestConfigs.NODE_CODECS).readsKeyFiles()).as("kept by the other withs")
            .isFalse();
        assertThat(TestConfigs.FAKE_CONTEXT.readsKeyFiles()).isTrue();
    }

    @Test
    void anAuthenticatedTransportNeedsRoomForTheTrailerInItsDatagram() throws IOException {
        final String yaml = VALID.replace("    port: 40456\n",
            "    port: 40456\n    auth-key-file: " + written() + "\n    datagram-size: 80\n");

        final Problem problem = onlyProblemOf(yaml);

        assertThat(problem.path()).isEqualTo("transports[0].datagram-size");
        assertThat(problem.message()).isEqualTo("datagram-size must be in 96..65507 (was 80)");
    }

    @Test
    void encryptWithoutAKeyFileIsAProblemAtItsKey() {
        final String yaml = VALID.replace("    port: 40456\n", "    port: 40456\n    encrypt: true\n");

        final Problem problem = onlyProblemOf(yaml);

        assertThat(problem.path()).isEqualTo("transports[0].encrypt");
        assertThat(problem.message()).isEqualTo("encrypt needs auth-key-file");
    }

    private Path written() throws IOException {
        final Path file = dir.resolve("ok.keys");
        AuthKeyFile.write(file, new AuthKeys(1, List.of(AuthKeyFile.newKey(1))));
        return file;
    }

    private String problemOf(String text) throws IOException {
        final Path file = Files.createTempFile(dir, "bad", ".keys",
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(file, text);
        try {
            AuthKeyFile.read(file);
        } catch (AuthKeyFile.BadKeyFileException ex) {
            return ex.getMessage();
        }
        throw new AssertionError("accepted: " + text);
    }

    private static String secret(int bytes) {
        return java.util.Base64.getEncoder().encodeToString(new byte[bytes]);
    }
}
