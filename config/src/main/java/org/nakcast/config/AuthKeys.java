package org.nakcast.config;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The keys a transport authenticates its datagrams with, as read from its {@code auth-key-file}
 * (see {@link AuthKeyFile}): every datagram is signed with the signing key, and a datagram signed
 * with any key listed is accepted, so a new key can be rolled out to every node before it signs.
 * Equal when the same ids hold the same secrets; {@link #toString()} never shows a secret.
 *
 * @param signingKeyId the id of the key datagrams are signed with; one of {@code keys}
 * @param keys every key accepted, at least one, ids distinct
 */
public record AuthKeys(int signingKeyId, List<Key> keys) {
    /** The bytes of one secret: an AES-256 key. */
    public static final int SECRET_BYTES = 32;
    /** The highest key id: an id travels in one byte. */
    public static final int MAX_KEY_ID = 255;
    /** The most keys one file may hold: the current one, the next and the one before. */
    public static final int MAX_KEYS = 3;
    /**
     * The bytes an authenticated datagram carries beyond its protocol bytes (key id, nonce and tag),
     * taken from the transport's {@code datagram-size}.
     */
    public static final int TRAILER_BYTES = 32;

    /**
     * One key.
     *
     * @param id its id, 0..{@value #MAX_KEY_ID}
     * @param secret its {@value #SECRET_BYTES} secret bytes
     */
    public record Key(int id, byte[] secret) {
        /** Checks the id and the secret's length, and copies the secret. */
        public Key {
            if (id < 0 || id > MAX_KEY_ID) {
                throw new IllegalArgumentException("key id must be in 0.." + MAX_KEY_ID + " (was " + id + ")");
            }
            if (secret.length != SECRET_BYTES) {
                throw new IllegalArgumentException("key " + id + " has " + secret.length + " bytes, must have "
                    + SECRET_BYTES + " (an AES-256 key)");
            }
            secret = secret.clone();
        }

        /** A copy of the secret bytes. */
        @Override
        public byte[] secret() {
            return secret.clone();
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Key key && key.id == id && Arrays.equals(key.secret, secret);
        }

        @Override
        public int hashCode() {
            return 31 * id + Arrays.hashCode(secret);
        }

        /** "key 2", never the secret. */
        @Override
        public String toString() {
            return "key " + id;
        }
    }

    /** Checks that there are 1..{@value #MAX_KEYS} keys with distinct ids, the signing one among them. */
    public AuthKeys {
        keys = List.copyOf(keys);
        if (keys.isEmpty() || keys.size() > MAX_KEYS) {
            throw new IllegalArgumentException("a key file holds 1.." + MAX_KEYS + " keys (had " + keys.size() + ")");
        }
        if (keys.stream().map(Key::id).distinct().count() != keys.size()) {
            throw new IllegalArgumentException("two keys have the same id: " + keys);
        }
        if (keys.stream().noneMatch(key -> key.id() == signingKeyId)) {
            throw new IllegalArgumentException("signing key " + signingKeyId + " is not among " + keys);
        }
    }

    /** The key datagrams are signed with. */
    public Key signingKey() {
        return keys.stream().filter(key -> key.id() == signingKeyId).findFirst().orElseThrow();
    }

    /** "signing with key 2, accepting keys 1, 2": what a log line may show. */
    @Override
    public String toString() {
        return "signing with key " + signingKeyId + ", accepting " + keys.stream().map(Key::id).map(Objects::toString)
            .reduce((a, b) -> a + ", " + b).map(ids -> (keys.size() == 1 ? "key " : "keys ") + ids).orElseThrow();
    }
}
