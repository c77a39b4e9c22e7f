package org.nakcast.transport.auth;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The Poly1305 one-time authenticator (RFC 8439, section 2.5): a 16-byte tag over a message from a
 * secret point {@code r} of the field modulo 2^130 - 5 and a 16-byte pad added at the end. Here
 * {@code r} is fixed per key and the pad is AES of a nonce that never repeats ({@link TagKey}),
 * which makes it Poly1305-AES. Arithmetic in base 2^64: the accumulator in two 64-bit words and a
 * few bits above them, {@code r} in two words, so a block costs four 64 by 64 bit products (each
 * {@link Math#multiplyHigh} and a plain multiply) and two small ones, where 26-bit limbs cost
 * twenty-five. Nothing is allocated per tag. Used by one thread.
 */
final class Poly1305 {
    /** The bytes of one block, of {@code r}, of the pad and of the tag. */
    static final int BLOCK = 16;
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;

    /** The low word of {@code r}, clamped: below 2^60, so its products need no unsigned correction. */
    private final long r0;
    /** The high word of {@code r}, clamped: below 2^60 and a multiple of four. */
    private final long r1;
    /** {@code r1 * 5 / 4}: what {@code r1 * 2^128} is worth once reduced, as 2^130 is 5 modulo p. */
    private final long s1;
    /** Off-heap, as the datagrams it reads are: one kind of buffer keeps the block loop's reads one kind. */
    private final UnsafeBuffer lastBlock = new UnsafeBuffer(ByteBuffer.allocateDirect(BLOCK));
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

    /**
     * Writes the tag of {@code length} bytes of {@code message} at {@code offset} under {@code pad}
     * to {@code out} at {@code outOffset}.
     */
    void tag(DirectBuffer message, int offset, int length, DirectBuffer pad, MutableDirectBuffer out, int outOffset) {
        h0 = 0;
        h1 = 0;
        h2 = 0;
        final int whole = length & ~(BLOCK - 1);
        blocks(message, offset, whole, 1);
        final int rest = length - whole;
        if (rest > 0) {
            lastBlock.setMemory(0, BLOCK, (byte) 0);
            lastBlock.putBytes(0, message, offset + whole, rest);
            lastBlock.putByte(rest, (byte) 1);
            blocks(lastBlock, 0, BLOCK, 0);
        }
        finish(pad, out, outOffset);
    }

    /**
     * For each block: h = (h + block + hibit * 2^128) * r, reduced far enough that h stays below
     * 2^131 (h2 at most 4).
     */
    private void blocks(DirectBuffer m, int offset, int length, long hibit) {
        long a0 = h0;
        long a1 = h1;
        long a2 = h2;
        for (int i = offset, end = offset + length; i < end; i += BLOCK) {
            final long m0 = m.getLong(i, LE);
            final long m1 = m.getLong(i + 8, LE);
            final long t0 = a0 + m0;
            long carry = carryOut(a0, m0, t0);
            final long t1 = a1 + m1 + carry;
            carry = carryOut(a1, m1, t1);
            final long t2 = a2 + hibit + carry;

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
            a0 = d0;
            a1 = d1 + d0High;
            a2 = t2 * r0 + d1High + carryOut(d1, d0High, a1);
            final long above = (a2 >>> 2) + (a2 & ~3L);
            a2 &= 3;
            final long folded = a0 + above;
            carry = carryOut(a0, above, folded);
            a0 = folded;
            a1 += carry;
            a2 += carryOut(a1 - carry, carry, a1);
        }
        h0 = a0;
        h1 = a1;
        h2 = a2;
    }

    /** Reduces h fully modulo 2^130 - 5, adds the pad modulo 2^128 and writes the result. */
    private void finish(DirectBuffer pad, MutableDirectBuffer out, int outOffset) {
        final long g0 = h0 + 5;
        long carry = carryOut(h0, 5, g0);
        final long g1 = h1 + carry;
        carry = carryOut(h1, carry, g1);
        final long g2 = h2 + carry;
        final long takeG = -(g2 >>> 2); // all ones if h + 5 reaches 2^130: h - p is below p
        final long f0 = (h0 & ~takeG) | (g0 & takeG);
        final long f1 = (h1 & ~takeG) | (g1 & takeG);

        final long pad0 = pad.getLong(0, LE);
        final long pad1 = pad.getLong(8, LE);
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
