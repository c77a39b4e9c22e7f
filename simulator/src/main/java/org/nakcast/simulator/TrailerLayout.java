package org.nakcast.simulator;

import org.nakcast.config.AuthKeys;

/**
 * Where the fields of an authenticated datagram's trailer lie, from the trailer's start, as
 * transport/README.md's wire format gives them (little-endian): key id, suite, two reserved bytes,
 * the nonce (the sender's 64-bit base and 32-bit counter), the 16-byte tag.
 */
final class TrailerLayout {
    /** The trailer's length, after the protocol's bytes (which the header's length counts alone). */
    static final int LENGTH = AuthKeys.TRAILER_BYTES;
    static final int KEY_ID_OFFSET = 0;
    static final int SUITE_OFFSET = 1;
    static final int BASE_OFFSET = 4;
    static final int COUNTER_OFFSET = 12;
    static final int TAG_OFFSET = 16;
    /** The suite of a transport that signs and does not encrypt: an NHPoly1305-AES tag. */
    static final int SUITE_NH_POLY1305_AES = 3;

    private TrailerLayout() {
    }
}
