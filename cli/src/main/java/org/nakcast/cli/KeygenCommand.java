package org.nakcast.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;

import org.nakcast.config.AuthKeyFile;
import org.nakcast.config.AuthKeys;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code nakcast keygen}: writes a new key file for a transport's {@code auth-key-file}, readable by
 * its owner alone: one fresh key that signs, or the keys of an old file and a fresh one, to be rolled
 * out to every node before it signs. Never overwrites a file; prints what it wrote, never a secret.
 */
@Command(name = "keygen", sortOptions = false, mixinStandardHelpOptions = true,
    description = {"Writes a new key file for a transport's auth-key-file (mode 600): one fresh key that signs;"
        + " or, with --from, the keys of an old file and a fresh one, still signing with the old file's signing key"
        + " unless --sign-new (the first step of rotating a key). Every node of the transport needs the same file.",
        "",
        "Never overwrites a file. Prints one line naming the file, its key ids and the one that signs; never a"
            + " secret."},
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
        "0:the file was written",
        "1:refused: --out exists, --from does not read, the new key's id is taken or the file would be full (the"
            + " reason is on stderr)",
        "2:bad command line"})
final class KeygenCommand implements Callable<Integer> {
    /** Exit code when no file was written. */
    static final int REFUSED = 1;

    @Spec
    CommandSpec spec;

    @Option(names = "--out", required = true, paramLabel = "FILE",
        description = "the key file to write; it must not exist yet")
    Path out;

    @Option(names = "--id", paramLabel = "N",
        description = "the new key's id, 0..255; default 1, or with --from one above the highest id of OLDFILE")
    Integer id;

    @Option(names = "--from", paramLabel = "OLDFILE",
        description = "a key file whose keys the new file keeps, with the new key added (at most 3 keys in all)")
    Path from;

    @Option(names = "--sign-new",
        description = "with --from: sign with the new key instead of OLDFILE's signing key (without --from the new"
            + " key is the only one, and signs)")
    boolean signNew;

    @Override
    public Integer call() {
        if (id != null && (id < 0 || id > AuthKeys.MAX_KEY_ID)) {
            throw new ParameterException(spec.commandLine(), "--id must be in 0.." + AuthKeys.MAX_KEY_ID + " (was "
                + id + ")");
        }
        final PrintWriter err = spec.commandLine().getErr();
        final AuthKeys keys;
        try {
            keys = from == null ? fresh() : rotated(AuthKeyFile.read(from));
            AuthKeyFile.write(out, keys);
        } catch (Refusal | AuthKeyFile.BadKeyFileException ex) {
            err.println("keygen: " + ex.getMessage());
            return REFUSED;
        } catch (FileAlreadyExistsException ex) {
            err.println("keygen: " + out + " exists: keygen never overwrites a key file; choose another --out");
            return REFUSED;
        } catch (IOException ex) {
            err.println("keygen: cannot write " + out + ": " + ex);
            return REFUSED;
        }
        spec.commandLine().getOut().printf("keygen: wrote %s: %snew key %d; %s%n", out,
            from == null ? "" : "the keys of " + from + " and ", newId(keys), keys);
        return 0;
    }

    /** One fresh key, which signs. */
    private AuthKeys fresh() {
        final int newId = id == null ? 1 : id;
        return new AuthKeys(newId, List.of(AuthKeyFile.newKey(newId)));
    }

    /** The keys of {@code old} and a fresh one; refused when the file is full or the new id taken or past 255. */
    private AuthKeys rotated(AuthKeys old) throws Refusal {
        final List<Integer> ids = old.keys().stream().map(AuthKeys.Key::id).toList();
        if (ids.size() >= AuthKeys.MAX_KEYS) {
            final List<Integer> notSigning = ids.stream().filter(key -> key != old.signingKeyId()).toList();
            throw new Refusal(from + " holds " + ids.size() + " keys, the most a file may hold: remove "
                + (notSigning.size() == 1 ? "" : "one of ") + keyList(notSigning) + " from it (key "
                + old.signingKeyId() + " signs) once no node signs with it, then run keygen again");
        }
        final int highest = ids.stream().mapToInt(Integer::intValue).max().orElseThrow();
        if (id == null && highest == AuthKeys.MAX_KEY_ID) {
            throw new Refusal(from + " holds key " + AuthKeys.MAX_KEY_ID + ", the highest id there is: name a free id"
                + " for the new key with --id (in use: " + keyList(ids) + ")");
        }
        final int newId = id == null ? highest + 1 : id;
        if (ids.contains(newId)) {
            throw new Refusal(from + " holds key " + newId + " already: name a free id for the new key with --id (in"
                + " use: " + keyList(ids) + ")");
        }
        final List<AuthKeys.Key> keys = new ArrayList<>(old.keys());
        keys.add(AuthKeyFile.newKey(newId));
        return new AuthKeys(signNew ? newId : old.signingKeyId(), keys);
    }

    /** The id of the key {@link #call} added: the last. */
    private static int newId(AuthKeys keys) {
        return keys.keys().get(keys.keys().size() - 1).id();
    }

    private static String keyList(List<Integer> ids) {
        return ids.stream().map(String::valueOf).collect(Collectors.joining(", ", ids.size() == 1 ? "key " : "keys ",
            ""));
    }

    /** Why no file was written; the message says what to do. */
    private static final class Refusal extends Exception {
        private static final long serialVersionUID = 1L;

        Refusal(String message) {
            super(message);
        }
    }
}
