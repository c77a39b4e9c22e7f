package org.nakcast.transport.auth;

import java.nio.ByteOrder;

import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The Poly1305 polynomial (RFC 8439, section 2.5) over whole 16-byte blocks: {@code h = (h + block
 * + 2^128) * r} modulo 2^130 - 5 for a secret point {@code r} of the field, then a 16-byte pad added
 * at the end. Here it hashes the NH digests of {@link NhPoly1305}, whose blocks are always whole.
 * Arithmetic in base 2^64: the accumulator in two 64-bit words and a few bits above them, {@code r}
 * in two words, so a block costs four 64 by 64 bit products (each {@link Math#multiplyHigh} and a
 * plain multiply) and two small ones, where 26-bit limbs cost twenty-five. Nothing is allocated.
 * Used by one thread.
 */
final class Poly1305 {
    /** The bytes of one block, of {@code r}, of the pad and of the result. */
    static final int BLOCK = 16;
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;

    /** The low word of {@code r}, clamped: below 2^60, so its products need no unsigned correction. */
    private final long r0;
    /** The high word of {@code r}, clamped: below 2^60 and a multiple of four. */
    private final long r1;
    /** {@code r1 * 5 / 4}: what {@code r1 * 2^128} is worth once reduced, as 2^130 is 5 modulo p. */
    private final long s1;
    private long h0;
    private long h1;
    private long h2;

    /** @param r the 16 bytes of {@code r}, little-endian; clamped here as the RFC says */
    Poly1305(byte[] r) {
        final UnsafeBuffer bytes = new UnsafeBuffer(r);
        r0 = bytes.getLong(0, LE) & 0x0ffffffc0fffffffL;
        r1 = bytes.getLong(8, LE) & 0x0ffffffc0ffffffcL;
        s1 = r1 + (r1 >>> 2);
    }

    /** Starts a new hash: {@code h = 0}. */
    void start() {
        h0 = 0;
        h1 = 0;
        h2 = 0;
    }

    /**
     * Takes one block, given as its two little-endian 64-bit words: {@code h = (h + block + 2^128) * r},
     * reduced far enough that h stays below 2^131 (h2 at most 4).
     */
    void block(long m0, long m1) {
        final long a0 = h0;
        final long a1 = h1;
        final long t0 = a0 + m0;
        long carry = carryOut(a0, m0, t0);
        final long t1 = a1 + m1 + carry;
        carry = carryOut(a1, m1, t1);
        final long t2 = h2 + 1 + carry;

        // d0 = t0 r0 + t1 s1, d1 = t0 r1 + t1 r0 + t2 s1, d2 = t2 r0: each below 2^126
        final long p00 = t0 * r0;
        final long p11 = t1 * s1;
        final long d0 = p00 + p11;
        final long d0High = highOf(t0, r0) + highOf(t1, s1) + carryOut(p00, p11, d0);
        final long p01 = t0 * r1;
        final long p10 = t1 * r0;
        final long p2 = t2 * s1;
        final long sum = p01 + p10;
        final long d1 = sum + p2;
        final long d1High = highOf(t0, r1) + highOf(t1, r0) + carryOut(p01, p10, sum) + carryOut(sum, p2, d1);

        // h = d0 + (d1 + d0High) 2^64 + (t2 r0 + ...) 2^128; what lies above 2^130 comes back times 5
        long b0 = d0;
        long b1 = d1 + d0High;
        long b2 = t2 * r0 + d1High + carryOut(d1, d0High, b1);
        final long above = (b2 >>> 2) + (b2 & ~3L);
        b2 &= 3;
        final long folded = b0 + above;
        carry = carryOut(b0, above, folded);
        b0 = folded;
        b1 += carry;
        b2 += carryOut(b1 - carry, carry, b1);
        h0 = b0;
        h1 = b1;
        h2 = b2;
    }

    /**
     * Ends the hash: reduces h fully modulo 2^130 - 5, adds the pad (two little-endian 64-bit words)
     * modulo 2^128 and writes the result to {@code out} at {@code outOffset}.
     */
    void finish(long pad0, long pad1, MutableDirectBuffer out, int outOffset) {
        final long g0 = h0 + 5;
        long carry = carryOut(h0, 5, g0);
        final long g1 = h1 + carry;
        carry = carryOut(h1, carry, g1);
        final long g2 = h2 + carry;
        final long takeG = -(g2 >>> 2); // all ones if h + 5 reaches 2^130: h - p is below p
        final long f0 = (h0 & ~takeG) | (g0 & takeG);
        final long f1 = (h1 & ~takeG) | (g1 & takeG);

        final long tag0 = f0 + pad0;
        out.putLong(outOffset, tag0, LE);
        out.putLong(outOffset + 8, f1 + pad1 + carryOut(f0, pad0, tag0), LE);
    }

    /** The carry out of the 64-bit sum {@code sum} of {@code a}, {@code b} and a carry in: 0 or 1. */
    private static long carryOut(long a, long b, long sum) {
        return ((a & b) | ((a | b) & ~sum)) >>> 63;
    }

    /** The high 64 bits of the unsigned product of {@code a} and {@code b}, with {@code b} below 2^63. */
    private static long highOf(long a, long b) {
        return Math.multiplyHigh(a, b) + ((a >> 63) & b);
    }
}
