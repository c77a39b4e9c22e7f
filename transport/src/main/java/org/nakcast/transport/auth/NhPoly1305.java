package org.nakcast.transport.auth;

import java.nio.ByteOrder;
import java.util.Arrays;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.UnsafeApi;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * NHPoly1305, the hash of Adiantum (Crowley and Biggers, 2018; as the Linux kernel's
 * {@code crypto/nhpoly1305.c} has it): the message is cut into chunks of 1,024 bytes, NH hashes each
 * chunk (its last 16-byte unit filled up with zeros) to 32 bytes, and {@link Poly1305} takes those
 * digests as two blocks each. A tag adds one more block, the message's length in bytes, so that
 * messages differing only by zeros at their end hash apart, then the pad.
 *
 * <p>NH, per 16-byte unit of four little-endian 32-bit words {@code m0..m3} and for each of four
 * passes {@code p}, adds {@code (m0 + k0) * (m2 + k2) + (m1 + k1) * (m3 + k3)} (sums of 32 bits,
 * products of 64) to the pass's 64-bit sum, where {@code k0..k3} are the key's words from
 * {@code 4 * (unit + p)}: each pass 2^-32-almost-universal, four 2^-128. The hash is
 * almost-delta-universal: two messages of at most {@code b} Poly1305 blocks (two per KiB, one for the
 * length) differ by a given 128-bit value with a chance of at most about {@code 8 b / 2^106} (a
 * datagram of 1,408 bytes: 5 blocks, below 2^-100), which a pad that is never used twice turns into
 * the chance of a forged tag. NH costs two 32 by 32 bit products per 16 bytes and pass, independent
 * of each other, where Poly1305 alone costs a chain of four 64 by 64 bit ones; so the hash costs about
 * half of Poly1305's over a datagram.
 *
 * <p>The key is 1,088 bytes: Poly1305's {@code r} (16 bytes, clamped here), then NH's 1,072 (268
 * words: 256 for a chunk and 12 more for the passes' offsets). Used by one thread; nothing is
 * allocated per hash.
 */
final class NhPoly1305 {
    /** Bytes of the key: Poly1305's {@code r}, then NH's key. */
    static final int KEY_BYTES = Poly1305.BLOCK + 1072;
    /** The bytes NH hashes to one digest. */
    private static final int CHUNK = 1024;
    /** NH's unit: four 32-bit words. */
    private static final int UNIT = 16;

    private final Poly1305 poly;
    /** NH's key: its little-endian 32-bit words. */
    private final int[] nhKey = new int[(KEY_BYTES - Poly1305.BLOCK) / Integer.BYTES];
    private long sum0;
    private long sum1;
    private long sum2;
    private long sum3;

    /** @param key {@link #KEY_BYTES} bytes: {@code r}, then NH's key */
    NhPoly1305(byte[] key) {
        if (key.length != KEY_BYTES) {
            throw new IllegalArgumentException("an NHPoly1305 key has " + KEY_BYTES + " bytes, not " + key.length);
        }
        this.poly = new Poly1305(Arrays.copyOf(key, Poly1305.BLOCK));
        final UnsafeBuffer bytes = new UnsafeBuffer(key);
        for (int i = 0; i < nhKey.length; i++) {
            nhKey[i] = bytes.getInt(Poly1305.BLOCK + i * Integer.BYTES, ByteOrder.LITTLE_ENDIAN);
        }
    }

    /** Starts a new hash. */
    void start() {
        poly.start();
    }

    /** Takes a whole message: {@code length} bytes at {@code offset} of {@code message}. */
    void message(DirectBuffer message, int offset, int length) {
        message.boundsCheck(offset, length);
        final byte[] array = message.byteArray();
        final long address = message.addressOffset() + offset;
        final int whole = length & -UNIT;
        int chunk = 0;
        for (; chunk + CHUNK <= whole; chunk += CHUNK) {
            nh(array, address + chunk, CHUNK);
            digest();
        }
        if (chunk < length) {
            nh(array, address + chunk, whole - chunk);
            if (whole < length) {
                lastUnit(message, offset + whole, length - whole, (whole - chunk) / Integer.BYTES);
            }
            digest();
        }
    }

    /** Takes the length of the message, in bytes, as one block. */
    void length(int length) {
        poly.block(length, 0);
    }

    /** Ends the hash: adds the pad (two little-endian words) and writes the 16 bytes to {@code out}. */
    void finish(long pad0, long pad1, MutableDirectBuffer out, int outOffset) {
        poly.finish(pad0, pad1, out, outOffset);
    }

    /** NH of the whole units of {@code length} bytes at {@code address} of {@code array} (null: off-heap). */
    private void nh(byte[] array, long address, int length) {
        final int[] key = nhKey;
        long s0 = 0;
        long s1 = 0;
        long s2 = 0;
        long s3 = 0;
        for (int i = 0, k = 0; i < length; i += UNIT, k += UNIT / Integer.BYTES) {
            final int m0 = word(array, address + i);
            final int m1 = word(array, address + i + 4);
            final int m2 = word(array, address + i + 8);
            final int m3 = word(array, address + i + 12);
            s0 += pass(m0, m1, m2, m3, key, k);
            s1 += pass(m0, m1, m2, m3, key, k + 4);
            s2 += pass(m0, m1, m2, m3, key, k + 8);
            s3 += pass(m0, m1, m2, m3, key, k + 12);
        }
        sum0 = s0;
        sum1 = s1;
        sum2 = s2;
        sum3 = s3;
    }

    /**
     * Adds NH of the unit of {@code length} (1 to 15) bytes at {@code offset}, filled up with zeros, at
     * key word {@code k}, to the sums.
     */
    private void lastUnit(DirectBuffer message, int offset, int length, int k) {
        final int m0 = wordOrZeros(message, offset, length);
        final int m1 = wordOrZeros(message, offset + 4, length - 4);
        final int m2 = wordOrZeros(message, offset + 8, length - 8);
        final int m3 = wordOrZeros(message, offset + 12, length - 12);
        final int[] key = nhKey;
        sum0 += pass(m0, m1, m2, m3, key, k);
        sum1 += pass(m0, m1, m2, m3, key, k + 4);
        sum2 += pass(m0, m1, m2, m3, key, k + 8);
        sum3 += pass(m0, m1, m2, m3, key, k + 12);
    }

    /** The little-endian word of the first {@code length} bytes at {@code offset} (none if below 1), zeros after. */
    private static int wordOrZeros(DirectBuffer message, int offset, int length) {
        int word = 0;
        for (int i = 0; i < Math.min(length, Integer.BYTES); i++) {
            word |= (message.getByte(offset + i) & 0xFF) << (8 * i);
        }
        return word;
    }

    /** The chunk's NH digest, 32 bytes, as two Poly1305 blocks. */
    private void digest() {
        poly.block(sum0, sum1);
        poly.block(sum2, sum3);
    }

    /**
     * One pass of NH over the unit {@code m0..m3} with the key's words from {@code k}:
     * {@code (m0 + k0) * (m2 + k2) + (m1 + k1) * (m3 + k3)}, sums of 32 bits, products of 64.
     */
    private static long pass(int m0, int m1, int m2, int m3, int[] key, int k) {
        return product(m0 + key[k], m2 + key[k + 2]) + product(m1 + key[k + 1], m3 + key[k + 3]);
    }

    /** The product of two 32-bit words taken unsigned: 64 bits. */
    private static long product(int a, int b) {
        return Integer.toUnsignedLong(a) * Integer.toUnsignedLong(b);
    }

    /** The little-endian 32-bit word at {@code address} of {@code array}, bounds checked by the caller. */
    private static int word(byte[] array, long address) {
        return UnsafeApi.getIntUnaligned(array, address, false);
    }
}
