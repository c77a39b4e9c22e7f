package org.nakcast.transport.auth;

import org.nakcast.config.AuthKeys;

/**
 * The 32 bytes an authenticated datagram carries after its protocol bytes (whose header's datagram
 * length does not count them). Little-endian.
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------+---------------+-------------------------------+
 *  |    key id     |     suite     |          reserved (0)         |
 *  +---------------+---------------+-------------------------------+
 *  |                                                               |
 *  +                  nonce: sender's base (64 bits)               +
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                 nonce: sender's counter (32 bits)             |
 *  +---------------------------------------------------------------+
 *  |                                                               |
 *  +                                                               +
 *  |                                                               |
 *  +                         tag (128 bits)                        +
 *  |                                                               |
 *  +                                                               +
 *  |                                                               |
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * <ul>
 *   <li>key id: which key of the transport's key file signed the datagram.</li>
 *   <li>suite: {@link #SUITE_NH_POLY1305_AES}, or {@link #SUITE_AES_CTR_NH_POLY1305_AES} on a transport
 *       that encrypts; a receiver refuses the suite its transport does not use. (Suites 1 and 2, the
 *       same with Poly1305 alone for the hash, are no longer sent or accepted.)</li>
 *   <li>nonce: a base drawn at random when the sending socket opens (and again after 2^32
 *       datagrams) and a counter that grows by one per datagram, so no two datagrams signed with one
 *       key share a nonce; receivers also refuse a nonce seen before (a replay).</li>
 *   <li>tag: NHPoly1305-AES over the protocol bytes and the trailer's first 16 bytes: the
 *       {@link NhPoly1305} hash (ending in the length block) under a key AES derives from the
 *       key file's secret ({@link TagKey}), plus {@code AES(key, base | counter | 0 0 0 0)} modulo
 *       2^128.</li>
 * </ul>
 *
 * <p>With suite {@link #SUITE_AES_CTR_NH_POLY1305_AES} everything after the 24-byte header is encrypted
 * before the tag is taken (the tag covers the ciphertext): XORed with AES-256 of the blocks
 * {@code base | counter | i} for i = 1, 2, ..., so header and trailer stay readable and block 0 stays
 * the tag's.
 */
final class AuthTrailer {
    /** The trailer's length, taken from the transport's datagram size. */
    static final int LENGTH = AuthKeys.TRAILER_BYTES;
    static final int KEY_ID_OFFSET = 0;
    static final int SUITE_OFFSET = 1;
    static final int RESERVED_OFFSET = 2;
    static final int NONCE_OFFSET = 4;
    static final int BASE_OFFSET = NONCE_OFFSET;
    static final int COUNTER_OFFSET = 12;
    static final int NONCE_LENGTH = 12;
    static final int TAG_OFFSET = 16;
    /** What the tag covers of the trailer: everything before the tag. */
    static final int SIGNED_LENGTH = TAG_OFFSET;
    /** An NHPoly1305-AES tag, payload in clear. */
    static final int SUITE_NH_POLY1305_AES = 3;
    /** The payload encrypted with AES-256 in counter mode, then an NHPoly1305-AES tag over it. */
    static final int SUITE_AES_CTR_NH_POLY1305_AES = 4;

    private AuthTrailer() {
    }
}
