package org.nakcast.transport.auth;

/**
 * The nonces one receiving socket has accepted, per sender's base: the highest counter and which
 * of the 64 below it were seen, as IPsec keeps them. A counter seen before, or 64 or more below the
 * highest, is a replay. Up to {@value #BASES} bases are kept, in an open table of
 * {@value #PROBES}-slot neighbourhoods; a new base takes the slot heard from longest ago in its
 * neighbourhood, so a sender not heard for a while may have its old datagrams replayed to this
 * socket once more (the protocol drops what it already delivered, by sequence). Used by one thread;
 * nothing allocated.
 */
final class ReplayWindow {
    static final int BASES = 256;
    static final int PROBES = 8;
    private static final int WINDOW = Long.SIZE;

    private final long[] bases = new long[BASES];
    private final long[] highest = new long[BASES];
    private final long[] seen = new long[BASES];
    private final long[] heardAt = new long[BASES];
    private final boolean[] used = new boolean[BASES];
    private long tick;

    /**
     * Accepts the nonce (base, counter) unless it was accepted before or is too old.
     *
     * @return true if accepted (and now remembered), false for a replay
     */
    boolean accept(long base, int counterBits) {
        final long counter = counterBits & 0xffffffffL;
        tick++;
        final int home = (int) (mix(base) & (BASES - 1));
        int oldest = home;
        for (int probe = 0; probe < PROBES; probe++) {
            final int slot = (home + probe) & (BASES - 1);
            if (!used[slot]) {
                oldest = slot;
                break;
            }
            if (bases[slot] == base) {
                return acceptIn(slot, counter);
            }
            if (heardAt[slot] < heardAt[oldest]) {
                oldest = slot;
            }
        }
        used[oldest] = true;
        bases[oldest] = base;
        highest[oldest] = counter;
        seen[oldest] = 1;
        heardAt[oldest] = tick;
        return true;
    }

    private boolean acceptIn(int slot, long counter) {
        heardAt[slot] = tick;
        final long top = highest[slot];
        if (counter > top) {
            final long ahead = counter - top;
            seen[slot] = ahead >= WINDOW ? 1 : (seen[slot] << ahead) | 1;
            highest[slot] = counter;
            return true;
        }
        final long behind = top - counter;
        if (behind >= WINDOW) {
            return false;
        }
        final long bit = 1L << behind;
        if ((seen[slot] & bit) != 0) {
            return false;
        }
        seen[slot] |= bit;
        return true;
    }

    private static long mix(long base) {
        final long h = base * 0x9E3779B97F4A7C15L;
        return h ^ (h >>> 32);
    }
}
