package org.nakcast.transport.auth;

import java.security.GeneralSecurityException;
import java.util.Arrays;

import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.nakcast.config.AuthKeys;
import org.nakcast.transport.protocol.HeaderFlyweight;

/**
 * One key of a key file, ready to tag datagrams (see {@link AuthTrailer}): AES-256 with the key's
 * secret (the JDK's {@code AES/ECB}, one block per tag), and Poly1305 at the point AES gives for
 * sixteen 0xFF bytes, a block no nonce can be (a nonce block ends in a block index, 0 for the tag,
 * 1 and up for the keystream of an encrypted payload, never 2^32 - 1). Used by one thread; nothing
 * allocated per tag.
 */
final class TagKey {
    private static final byte[] POINT_BLOCK = filled((byte) 0xFF);
    /** The keystream of the longest payload, rounded up to whole blocks. */
    private static final int KEYSTREAM_BYTES =
        (HeaderFlyweight.MAX_DATAGRAM_LENGTH + Poly1305.BLOCK - 1) / Poly1305.BLOCK * Poly1305.BLOCK;

    private final int id;
    private final Cipher aes;
    private final Poly1305 poly;
    private final byte[] nonceBlock = new byte[Poly1305.BLOCK];
    private final byte[] pad = new byte[Poly1305.BLOCK];
    private final UnsafeBuffer padBuffer = new UnsafeBuffer(pad);
    private final byte[] counterBlocks = new byte[KEYSTREAM_BYTES];
    private final byte[] keystream = new byte[KEYSTREAM_BYTES];
    private final UnsafeBuffer keystreamBuffer = new UnsafeBuffer(keystream);

    TagKey(AuthKeys.Key key) {
        this.id = key.id();
        final byte[] point = new byte[Poly1305.BLOCK];
        try {
            aes = Cipher.getInstance("AES/ECB/NoPadding");
            final byte[] secret = key.secret();
            aes.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(secret, "AES"));
            Arrays.fill(secret, (byte) 0);
            aes.update(POINT_BLOCK, 0, Poly1305.BLOCK, point, 0);
        } catch (GeneralSecurityException ex) {
            throw new IllegalStateException("this JVM cannot run AES-256: " + ex.getMessage(), ex);
        }
        this.poly = new Poly1305(point);
        Arrays.fill(point, (byte) 0);
    }

    /** The key's id, as the trailer carries it. */
    int id() {
        return id;
    }

    /**
     * Writes the tag of {@code length} bytes at {@code offset} of {@code buffer}, under the nonce
     * at {@code nonceOffset}, to {@code out} at {@code outOffset}.
     */
    void tag(DirectBuffer buffer, int offset, int length, int nonceOffset, MutableDirectBuffer out, int outOffset) {
        buffer.getBytes(nonceOffset, nonceBlock, 0, AuthTrailer.NONCE_LENGTH);
        try {
            aes.update(nonceBlock, 0, Poly1305.BLOCK, pad, 0);
        } catch (GeneralSecurityException ex) {
            throw new IllegalStateException("AES failed on one block", ex);
        }
        poly.tag(buffer, offset, length, padBuffer, out, outOffset);
    }

    /**
     * XORs {@code length} bytes at {@code offset} of {@code buffer} with the keystream of the nonce at
     * {@code nonceOffset}: encrypts them, or decrypts them again.
     */
    void crypt(MutableDirectBuffer buffer, int offset, int length, int nonceOffset) {
        final int blocks = (length + Poly1305.BLOCK - 1) / Poly1305.BLOCK;
        for (int i = 0; i < blocks; i++) {
            final int block = i * Poly1305.BLOCK;
            buffer.getBytes(nonceOffset, counterBlocks, block, AuthTrailer.NONCE_LENGTH);
            counterBlocks[block + 12] = (byte) (i + 1);
            counterBlocks[block + 13] = (byte) ((i + 1) >>> 8);
            counterBlocks[block + 14] = (byte) ((i + 1) >>> 16);
            counterBlocks[block + 15] = (byte) ((i + 1) >>> 24);
        }
        try {
            aes.update(counterBlocks, 0, blocks * Poly1305.BLOCK, keystream, 0);
        } catch (GeneralSecurityException ex) {
            throw new IllegalStateException("AES failed on " + blocks + " blocks", ex);
        }
        int i = 0;
        for (; i + Long.BYTES <= length; i += Long.BYTES) {
            buffer.putLong(offset + i, buffer.getLong(offset + i) ^ keystreamBuffer.getLong(i));
        }
        for (; i < length; i++) {
            buffer.putByte(offset + i, (byte) (buffer.getByte(offset + i) ^ keystream[i]));
        }
    }

    private static byte[] filled(byte value) {
        final byte[] block = new byte[Poly1305.BLOCK];
        Arrays.fill(block, value);
        return block;
    }
}
