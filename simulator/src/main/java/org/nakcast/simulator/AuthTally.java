package org.nakcast.simulator;

import java.util.Arrays;

import org.agrona.DirectBuffer;
import org.nakcast.transport.status.SystemCounters;

/**
 * Guarantee 21 at one process: what its node's sockets on authenticated lines were handed in one
 * incarnation, judged from the wire as each datagram is handed ({@link SignedDatagrams#verdict}), and
 * at the incarnation's end what its node counted of them. Every datagram no node signed is counted
 * once under the one cause its bytes give; every replay of what a socket took before is counted as
 * replayed, but where the socket heard so many senders that it may have let one's place go (it then
 * takes that sender's old datagrams once more, as copies the protocol has had).
 */
final class AuthTally {
    private final SignedDatagrams signed;
    private final long[] handed = new long[AuthVerdict.values().length];
    /** Replays handed to sockets that may have forgotten their sender: each may have been taken. */
    private long mayBeTaken;

    AuthTally(SignedDatagrams signed) {
        this.signed = signed;
    }

    /**
     * The verdict on the datagram of {@code length} bytes at offset 0 of {@code buffer}, handed to a
     * socket whose nonces are {@code nonces}: noted, to be checked against the counters.
     */
    AuthVerdict handed(DirectBuffer buffer, int length, SocketNonces nonces) {
        final AuthVerdict verdict = signed.verdict(buffer, length, nonces);
        handed[verdict.ordinal()]++;
        if (verdict == AuthVerdict.REPLAYED && nonces.mayForget()) {
            mayBeTaken++;
        }
        return verdict;
    }

    /**
     * Checks what the incarnation's node counted under each cause against what it was handed, then
     * starts over for the next incarnation.
     */
    void check(String name, SystemCounters counters, Violations violations, long nowNs) {
        for (AuthVerdict verdict : AuthVerdict.values()) {
            if (verdict == AuthVerdict.TAKEN) {
                continue;
            }
            final long expected = handed[verdict.ordinal()];
            final long counted = counters.get(verdict.counter()).get();
            final long least = verdict == AuthVerdict.REPLAYED ? expected - mayBeTaken : expected;
            if (counted < least || counted > expected) {
                violations.add(nowNs, Invariant.AUTHENTICATED, ("%s's sockets were handed %d datagrams to be"
                    + " dropped as '%s'%s, and its node counted %d").formatted(name, expected,
                    verdict.counter().label(), least == expected ? "" : " (at least %d)".formatted(least), counted));
            }
        }
        Arrays.fill(handed, 0);
        mayBeTaken = 0;
    }
}
