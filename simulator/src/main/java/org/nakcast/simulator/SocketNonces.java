package org.nakcast.simulator;

import org.agrona.collections.Long2ObjectHashMap;

/**
 * The nonces one receiving socket of an authenticated transport took, as the checker works them out
 * from the wire, by the rule transport/README.md gives ("Replays are refused"): per sender's base,
 * the highest counter taken and which of the 64 below it were; a signed datagram whose nonce the
 * socket took before, or whose counter is 64 or more below the highest taken of its base, is a
 * replay, and any other is taken. The socket keeps its bases in a table of bounded neighbourhoods,
 * where a base not heard for a while may lose its place once more than {@value #NEIGHBOURHOOD} were
 * heard (then its old datagrams may be taken once more); this model forgets no base, and says when
 * the socket may have ({@link #mayForget}).
 */
final class SocketNonces {
    /** How far below the highest counter of a base a counter may be and still be taken. */
    private static final int WINDOW = Long.SIZE;
    /** The bases a socket holds without ever giving one's place to another. */
    static final int NEIGHBOURHOOD = 8;

    /** The highest counter taken of one base, and which of the counters below it were (bit i: highest - i). */
    private static final class Base {
        long highest;
        long taken;
    }

    private final Long2ObjectHashMap<Base> bases = new Long2ObjectHashMap<>();

    /**
     * Whether the socket takes a signed datagram of nonce ({@code base}, {@code counter}), and notes
     * it taken if so.
     *
     * @return {@link AuthVerdict#TAKEN} or {@link AuthVerdict#REPLAYED}
     */
    AuthVerdict read(long base, int counter) {
        final long value = counter & 0xFFFF_FFFFL;
        final Base known = bases.get(base);
        if (known == null) {
            final Base added = new Base();
            added.highest = value;
            added.taken = 1;
            bases.put(base, added);
            return AuthVerdict.TAKEN;
        }
        if (value > known.highest) {
            final long ahead = value - known.highest;
            known.taken = ahead >= WINDOW ? 1 : known.taken << ahead | 1;
            known.highest = value;
            return AuthVerdict.TAKEN;
        }
        final long behind = known.highest - value;
        if (behind >= WINDOW || (known.taken & 1L << behind) != 0) {
            return AuthVerdict.REPLAYED;
        }
        known.taken |= 1L << behind;
        return AuthVerdict.TAKEN;
    }

    /** Whether the socket may have let a base's place go: it heard more than a neighbourhood of them. */
    boolean mayForget() {
        return bases.size() > NEIGHBOURHOOD;
    }
}
