package org.nakcast.transport.auth;

import java.security.SecureRandom;

import org.agrona.MutableDirectBuffer;
import org.nakcast.config.AuthKeys;
import org.nakcast.transport.protocol.HeaderFlyweight;

/**
 * Appends the {@link AuthTrailer} to each datagram one sending socket sends: the signing key's id,
 * the next nonce and the tag, after encrypting the payload on a transport that encrypts. The
 * nonce's base is drawn from the system's strong random source when the socket opens and again
 * each time the counter has run through 2^32 datagrams, so a nonce is never used twice with one
 * key, by this socket or (but for a chance of 2^-64 per pair of bases) by any other. Used by one
 * thread; nothing allocated per datagram.
 */
final class DatagramSigner {
    private final TagKey key;
    private final boolean encrypt;
    private final SecureRandom random = new SecureRandom();
    private long base;
    private int counter;

    /**
     * @param keys the transport's keys; datagrams are signed with the signing key
     * @param encrypt whether each payload is encrypted before it is signed
     */
    DatagramSigner(AuthKeys keys, boolean encrypt) {
        this.key = new TagKey(keys.signingKey());
        this.encrypt = encrypt;
        this.base = random.nextLong();
    }

    /**
     * Signs the datagram of {@code length} bytes at offset 0 of {@code buffer}, which has room for
     * the trailer after it.
     *
     * @return the length to send: the datagram's and its trailer's
     */
    int sign(MutableDirectBuffer buffer, int length) {
        if (counter == -1) {
            base = random.nextLong();
            counter = 0;
        }
        final int trailer = length;
        buffer.putByte(trailer + AuthTrailer.KEY_ID_OFFSET, (byte) key.id());
        buffer.putByte(trailer + AuthTrailer.SUITE_OFFSET,
            (byte) (encrypt ? AuthTrailer.SUITE_AES_CTR_NH_POLY1305_AES : AuthTrailer.SUITE_NH_POLY1305_AES));
        buffer.putShort(trailer + AuthTrailer.RESERVED_OFFSET, (short) 0, HeaderFlyweight.BYTE_ORDER);
        buffer.putLong(trailer + AuthTrailer.BASE_OFFSET, base, HeaderFlyweight.BYTE_ORDER);
        buffer.putInt(trailer + AuthTrailer.COUNTER_OFFSET, counter++, HeaderFlyweight.BYTE_ORDER);
        if (encrypt) {
            key.crypt(buffer, HeaderFlyweight.HEADER_LENGTH, length - HeaderFlyweight.HEADER_LENGTH,
                trailer + AuthTrailer.NONCE_OFFSET);
        }
        key.tag(buffer, 0, length + AuthTrailer.SIGNED_LENGTH, trailer + AuthTrailer.NONCE_OFFSET,
            buffer, trailer + AuthTrailer.TAG_OFFSET);
        return length + AuthTrailer.LENGTH;
    }
}
