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
 * which makes it Poly1305-AES. Arithmetic in five 26-bit limbs held in longs; nothing is allocated
 * per tag. Used by one thread.
 */
final class Poly1305 {
    /** The bytes of one block, of {@code r}, of the pad and of the tag. */
    static final int BLOCK = 16;
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    private static final long LIMB = 0x3ffffff;
    private static final long UINT = 0xffffffffL;
    private static final long FULL_BLOCK_BIT = 1L << 24;

    private final long r0;
    private final long r1;
    private final long r2;
    private final long r3;
    private final long r4;
    private final long s1;
    private final long s2;
    private final long s3;
    private final long s4;
    /** Off-heap, as the datagrams it reads are: one kind of buffer keeps the block loop's reads one kind. */
    private final UnsafeBuffer lastBlock = new UnsafeBuffer(ByteBuffer.allocateDirect(BLOCK));
    private long h0;
    private long h1;
    private long h2;
    private long h3;
    private long h4;

    /** @param r the 16 bytes of {@code r}, little-endian; clamped here as the RFC says */
    Poly1305(byte[] r) {
        final UnsafeBuffer bytes = new UnsafeBuffer(r);
        final long t0 = bytes.getInt(0, LE) & UINT;
        final long t1 = bytes.getInt(4, LE) & UINT;
        final long t2 = bytes.getInt(8, LE) & UINT;
        final long t3 = bytes.getInt(12, LE) & UINT;
        r0 = t0 & 0x3ffffff;
        r1 = ((t0 >>> 26) | (t1 << 6)) & 0x3ffff03;
        r2 = ((t1 >>> 20) | (t2 << 12)) & 0x3ffc0ff;
        r3 = ((t2 >>> 14) | (t3 << 18)) & 0x3f03fff;
        r4 = (t3 >>> 8) & 0x00fffff;
        s1 = r1 * 5;
        s2 = r2 * 5;
        s3 = r3 * 5;
        s4 = r4 * 5;
    }

    /**
     * Writes the tag of {@code length} bytes of {@code message} at {@code offset} under {@code pad}
     * to {@code out} at {@code outOffset}.
     */
    void tag(DirectBuffer message, int offset, int length, DirectBuffer pad, MutableDirectBuffer out, int outOffset) {
        h0 = 0;
        h1 = 0;
        h2 = 0;
        h3 = 0;
        h4 = 0;
        final int whole = length & ~(BLOCK - 1);
        blocks(message, offset, whole, FULL_BLOCK_BIT);
        final int rest = length - whole;
        if (rest > 0) {
            lastBlock.setMemory(0, BLOCK, (byte) 0);
            lastBlock.putBytes(0, message, offset + whole, rest);
            lastBlock.putByte(rest, (byte) 1);
            blocks(lastBlock, 0, BLOCK, 0);
        }
        finish(pad, out, outOffset);
    }

    private void blocks(DirectBuffer m, int offset, int length, long hibit) {
        long a0 = h0;
        long a1 = h1;
        long a2 = h2;
        long a3 = h3;
        long a4 = h4;
        for (int i = offset, end = offset + length; i < end; i += BLOCK) {
            final long low = m.getLong(i, LE);
            final long high = m.getLong(i + 8, LE);
            a0 += low & LIMB;
            a1 += (low >>> 26) & LIMB;
            a2 += ((low >>> 52) | (high << 12)) & LIMB;
            a3 += (high >>> 14) & LIMB;
            a4 += (high >>> 40) | hibit;
            final long d0 = a0 * r0 + a1 * s4 + a2 * s3 + a3 * s2 + a4 * s1;
            long d1 = a0 * r1 + a1 * r0 + a2 * s4 + a3 * s3 + a4 * s2;
            long d2 = a0 * r2 + a1 * r1 + a2 * r0 + a3 * s4 + a4 * s3;
            long d3 = a0 * r3 + a1 * r2 + a2 * r1 + a3 * r0 + a4 * s4;
            long d4 = a0 * r4 + a1 * r3 + a2 * r2 + a3 * r1 + a4 * r0;
            long c = d0 >>> 26;
            a0 = d0 & LIMB;
            d1 += c;
            c = d1 >>> 26;
            a1 = d1 & LIMB;
            d2 += c;
            c = d2 >>> 26;
            a2 = d2 & LIMB;
            d3 += c;
            c = d3 >>> 26;
            a3 = d3 & LIMB;
            d4 += c;
            c = d4 >>> 26;
            a4 = d4 & LIMB;
            a0 += c * 5;
            c = a0 >>> 26;
            a0 &= LIMB;
            a1 += c;
        }
        h0 = a0;
        h1 = a1;
        h2 = a2;
        h3 = a3;
        h4 = a4;
    }

    /** Reduces h fully modulo 2^130 - 5, adds the pad modulo 2^128 and writes the result. */
    private void finish(DirectBuffer pad, MutableDirectBuffer out, int outOffset) {
        long c = h1 >>> 26;
        h1 &= LIMB;
        h2 += c;
        c = h2 >>> 26;
        h2 &= LIMB;
        h3 += c;
        c = h3 >>> 26;
        h3 &= LIMB;
        h4 += c;
        c = h4 >>> 26;
        h4 &= LIMB;
        h0 += c * 5;
        c = h0 >>> 26;
        h0 &= LIMB;
        h1 += c;

        long g0 = h0 + 5;
        c = g0 >>> 26;
        g0 &= LIMB;
        long g1 = h1 + c;
        c = g1 >>> 26;
        g1 &= LIMB;
        long g2 = h2 + c;
        c = g2 >>> 26;
        g2 &= LIMB;
        long g3 = h3 + c;
        c = g3 >>> 26;
        g3 &= LIMB;
        final long g4 = h4 + c - (1L << 26);
        final long keepH = g4 >> 63; // all ones if h < p
        final long f0 = (h0 & keepH) | (g0 & ~keepH);
        final long f1 = (h1 & keepH) | (g1 & ~keepH);
        final long f2 = (h2 & keepH) | (g2 & ~keepH);
        final long f3 = (h3 & keepH) | (g3 & ~keepH);
        final long f4 = (h4 & keepH) | (g4 & ~keepH);

        final long w0 = (f0 | (f1 << 26)) & UINT;
        final long w1 = ((f1 >>> 6) | (f2 << 20)) & UINT;
        final long w2 = ((f2 >>> 12) | (f3 << 14)) & UINT;
        final long w3 = ((f3 >>> 18) | (f4 << 8)) & UINT;
        long sum = w0 + (pad.getInt(0, LE) & UINT);
        out.putInt(outOffset, (int) sum, LE);
        sum = w1 + (pad.getInt(4, LE) & UINT) + (sum >>> 32);
        out.putInt(outOffset + 4, (int) sum, LE);
        sum = w2 + (pad.getInt(8, LE) & UINT) + (sum >>> 32);
        out.putInt(outOffset + 8, (int) sum, LE);
        sum = w3 + (pad.getInt(12, LE) & UINT) + (sum >>> 32);
        out.putInt(outOffset + 12, (int) sum, LE);
    }
}
