package org.nakcast.transport.auth;

import java.nio.ByteOrder;
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
 * secret (the JDK's {@code AES/ECB}), and {@link NhPoly1305} under the 1,088 bytes AES gives for 68
 * blocks no nonce block can be: sixteen 0xFF bytes (Poly1305's {@code r}), then for
 * {@code j = 0..66} the block of {@code j} in 32 bits little-endian and twelve 0xFF bytes (NH's
 * key). A nonce block ends in a block index, 0 for the tag, 1 and up for the keystream of an
 * encrypted payload, never 2^32 - 1. Used by one thread; nothing allocated per tag.
 */
final class TagKey {
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    /** NH's key blocks follow the block of {@code r}. */
    private static final int KEY_BLOCKS = NhPoly1305.KEY_BYTES / Poly1305.BLOCK;
    /** The keystream of the longest payload, rounded up to whole blocks. */
    private static final int KEYSTREAM_BYTES =
        (HeaderFlyweight.MAX_DATAGRAM_LENGTH + Poly1305.BLOCK - 1) / Poly1305.BLOCK * Poly1305.BLOCK;

    private final int id;
    private final Cipher aes;
    private final NhPoly1305 hash;
    private final byte[] nonceBlock = new byte[Poly1305.BLOCK];
    private final byte[] pad = new byte[Poly1305.BLOCK];
    private final UnsafeBuffer padBuffer = new UnsafeBuffer(pad);
    private final byte[] counterBlocks = new byte[KEYSTREAM_BYTES];
    private final byte[] keystream = new byte[KEYSTREAM_BYTES];
    private final UnsafeBuffer keystreamBuffer = new UnsafeBuffer(keystream);

    TagKey(AuthKeys.Key key) {
        this.id = key.id();
        final byte[] hashKey = new byte[NhPoly1305.KEY_BYTES];
        try {
            aes = Cipher.getInstance("AES/ECB/NoPadding");
            final byte[] secret = key.secret();
            aes.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(secret, "AES"));
            Arrays.fill(secret, (byte) 0);
            aes.update(keyBlocks(), 0, hashKey.length, hashKey, 0);
        } catch (GeneralSecurityException ex) {
            throw new IllegalStateException("this JVM cannot run AES-256: " + ex.getMessage(), ex);
        }
        this.hash = new NhPoly1305(hashKey);
        Arrays.fill(hashKey, (byte) 0);
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
        hash.start();
        hash.message(buffer, offset, length);
        hash.length(length);
        hash.finish(padBuffer.getLong(0, LE), padBuffer.getLong(Long.BYTES, LE), out, outOffset);
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

    /** The blocks AES turns into the hash's key: see the class description. */
    private static byte[] keyBlocks() {
        final byte[] blocks = new byte[KEY_BLOCKS * Poly1305.BLOCK];
        Arrays.fill(blocks, (byte) 0xFF);
        for (int j = 0; j < KEY_BLOCKS - 1; j++) {
            final int block = (j + 1) * Poly1305.BLOCK;
            blocks[block] = (byte) j;
            blocks[block + 1] = (byte) (j >>> 8);
            blocks[block + 2] = (byte) (j >>> 16);
            blocks[block + 3] = (byte) (j >>> 24);
        }
        return blocks;
    }
}
