package org.nakcast.simulator;

import org.agrona.DirectBuffer;
import org.agrona.collections.LongHashSet;
import org.nakcast.transport.protocol.HeaderFlyweight;

/**
 * The checker's view of an authenticated seed's wire: the exact datagrams its nodes signed and sent
 * (kept as 64-bit hashes of their bytes), and from them what a node's socket must do with each
 * datagram it reads ({@link AuthVerdict}), by the checks transport/README.md gives the trailer
 * ("Authenticated datagrams"), in their order. A datagram whose header's length does not leave
 * exactly a trailer is unsigned; one whose trailer names another key or suite than the seed's key
 * file holds has an unknown key; one whose bytes no node sent has a bad tag (the stranger forged it,
 * or changed one it captured: a tag made up without the key checks with a chance of 2^-128); and one
 * a node sent, which the stranger may replay, is taken or a replay as the socket's nonces say
 * ({@link SocketNonces}).
 */
final class SignedDatagrams {
    private final LongHashSet sent = new LongHashSet();
    private int strangerId = -1;

    /** Tells which host is the stranger: it holds no key, so nothing it sends is signed by a node. */
    void strangerIs(int hostId) {
        this.strangerId = hostId;
    }

    /** Whether host {@code from} is a node, whose datagrams are signed: any but the stranger. */
    boolean signs(int from) {
        return from != strangerId;
    }

    /** A node sent the signed datagram of {@code length} bytes at {@code offset} of {@code buffer}. */
    void signed(DirectBuffer buffer, int offset, int length) {
        sent.add(hash(buffer, offset, length));
    }

    /**
     * What the socket whose nonces are {@code nonces} must do with the datagram of {@code length} bytes
     * at offset 0 of {@code buffer}; a datagram taken is noted in {@code nonces}.
     */
    AuthVerdict verdict(DirectBuffer buffer, int length, SocketNonces nonces) {
        final int trailer = length - TrailerLayout.LENGTH;
        if (trailer < HeaderFlyweight.HEADER_LENGTH || HeaderFlyweight.datagramLengthAt(buffer, 0) != trailer) {
            return AuthVerdict.UNSIGNED;
        }
        if ((buffer.getByte(trailer + TrailerLayout.KEY_ID_OFFSET) & 0xFF) != SimKeyFile.KEY_ID
            || buffer.getByte(trailer + TrailerLayout.SUITE_OFFSET) != TrailerLayout.SUITE_NH_POLY1305_AES) {
            return AuthVerdict.UNKNOWN_KEY;
        }
        if (!sent.contains(hash(buffer, 0, length))) {
            return AuthVerdict.BAD_TAG;
        }
        return nonces.read(buffer.getLong(trailer + TrailerLayout.BASE_OFFSET, HeaderFlyweight.BYTE_ORDER),
            buffer.getInt(trailer + TrailerLayout.COUNTER_OFFSET, HeaderFlyweight.BYTE_ORDER));
    }

    /** A 64-bit hash of the bytes: two datagrams told apart but for a chance of about 2^-64 a pair. */
    private static long hash(DirectBuffer buffer, int offset, int length) {
        long hash = mix(length);
        int i = 0;
        for (; i + Long.BYTES <= length; i += Long.BYTES) {
            hash = mix(hash ^ buffer.getLong(offset + i, HeaderFlyweight.BYTE_ORDER));
        }
        for (; i < length; i++) {
            hash = mix(hash ^ (buffer.getByte(offset + i) & 0xFF));
        }
        return hash;
    }

    /** A bijective scramble of 64 bits (SplitMix64's finaliser). */
    private static long mix(long value) {
        long z = (value ^ value >>> 30) * 0xBF58_476D_1CE4_E5B9L;
        z = (z ^ z >>> 27) * 0x94D0_49BB_1331_11EBL;
        return z ^ z >>> 31;
    }
}
