package org.nakcast.simulator;

import org.nakcast.transport.status.SystemCounter;

/**
 * What a socket of an authenticated transport must do with a datagram it reads, by the checks of its
 * trailer: take it, or drop it counted under one cause.
 */
enum AuthVerdict {
    /** Signed by a node and new to the socket: handed on. */
    TAKEN(null),
    /** No trailer: its header's length does not leave exactly one. */
    UNSIGNED(SystemCounter.AUTH_UNSIGNED),
    /** A trailer naming a key, or a suite, the key file does not hold. */
    UNKNOWN_KEY(SystemCounter.AUTH_UNKNOWN_KEY),
    /** A trailer whose tag does not check: bytes no node signed. */
    BAD_TAG(SystemCounter.AUTH_BAD_TAG),
    /** Signed by a node, with a nonce the socket took before or one too old to tell. */
    REPLAYED(SystemCounter.AUTH_REPLAYED);

    private final SystemCounter counter;

    AuthVerdict(SystemCounter counter) {
        this.counter = counter;
    }

    /** The counter a datagram dropped for this cause is counted under; null for one taken. */
    SystemCounter counter() {
        return counter;
    }
}
