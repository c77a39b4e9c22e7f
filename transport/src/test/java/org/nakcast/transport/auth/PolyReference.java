package org.nakcast.transport.auth;

import java.math.BigInteger;
import java.util.SplittableRandom;

/** Poly1305's definition (RFC 8439) in big integers, for the tests to hold the fast arithmetic to. */
final class PolyReference {
    private static final BigInteger P = BigInteger.ONE.shiftLeft(130).subtract(BigInteger.valueOf(5));
    private static final BigInteger CLAMP = new BigInteger("0ffffffc0ffffffc0ffffffc0fffffff", 16);
    private static final BigInteger TWO_128 = BigInteger.ONE.shiftLeft(128);

    private final BigInteger r;
    private BigInteger h = BigInteger.ZERO;

    /** Starts with {@code r} the 16 bytes at {@code offset} of {@code key}, clamped. */
    PolyReference(byte[] key, int offset) {
        this.r = littleEndian(key, offset, 16).and(CLAMP);
    }

    /** Takes one block of {@code length} (1 to 16) bytes: {@code h = (h + block + 2^(8 length)) * r mod p}. */
    void block(BigInteger value, int length) {
        h = h.add(value).add(BigInteger.ONE.shiftLeft(8 * length)).multiply(r).mod(P);
    }

    /** {@code h + pad} modulo 2^128, as 16 little-endian bytes. */
    byte[] finish(BigInteger pad) {
        final BigInteger sum = h.add(pad).mod(TWO_128);
        final byte[] out = new byte[16];
        for (int i = 0; i < 16; i++) {
            out[i] = sum.shiftRight(8 * i).byteValue();
        }
        return out;
    }

    /** The unsigned little-endian number in {@code length} bytes at {@code offset}. */
    static BigInteger littleEndian(byte[] bytes, int offset, int length) {
        final byte[] bigEndian = new byte[length + 1];
        for (int i = 0; i < length; i++) {
            bigEndian[length - i] = bytes[offset + i];
        }
        return new BigInteger(bigEndian);
    }

    /** {@code length} random bytes. */
    static byte[] bytes(SplittableRandom random, int length) {
        final byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return bytes;
    }
}
