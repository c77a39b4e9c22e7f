package org.nakcast.transport.auth;

import java.nio.ByteBuffer;

import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.nakcast.config.AuthKeys;
import org.nakcast.transport.protocol.HeaderFlyweight;
import org.nakcast.transport.status.SystemCounter;
import org.nakcast.transport.status.SystemCounters;

/**
 * Checks the {@link AuthTrailer} of each datagram one receiving socket reads, before anything else
 * sees it: that it has one (its header's length leaves exactly a trailer), that its key is one of
 * the key file's and its suite the transport's, that its tag checks and that its nonce was not
 * accepted before; then, on a transport that encrypts, it decrypts the payload in place. A datagram that
 * fails is counted by its cause and goes no further. Used by one thread; nothing allocated per
 * datagram.
 */
final class DatagramChecker {
    private static final int REFUSED = -1;

    private final TagKey[] keysById = new TagKey[AuthKeys.MAX_KEY_ID + 1];
    private final ReplayWindow replays = new ReplayWindow();
    private final boolean encrypted;
    private final int suite;
    /** Off-heap, as the signer's trailer is: the tag's writes stay one kind. */
    private final UnsafeBuffer expected = new UnsafeBuffer(ByteBuffer.allocateDirect(Poly1305.BLOCK));
    private final AtomicCounter unsigned;
    private final AtomicCounter unknownKey;
    private final AtomicCounter badTag;
    private final AtomicCounter replayed;

    /**
     * @param keys the transport's keys: a datagram signed with any of them is accepted
     * @param encrypted whether the transport encrypts payloads: datagrams of the other suite are refused
     * @param counters where refusals are counted
     */
    DatagramChecker(AuthKeys keys, boolean encrypted, SystemCounters counters) {
        this.encrypted = encrypted;
        this.suite = encrypted ? AuthTrailer.SUITE_AES_CTR_NH_POLY1305_AES : AuthTrailer.SUITE_NH_POLY1305_AES;
        for (AuthKeys.Key key : keys.keys()) {
            keysById[key.id()] = new TagKey(key);
        }
        this.unsigned = counters.get(SystemCounter.AUTH_UNSIGNED);
        this.unknownKey = counters.get(SystemCounter.AUTH_UNKNOWN_KEY);
        this.badTag = counters.get(SystemCounter.AUTH_BAD_TAG);
        this.replayed = counters.get(SystemCounter.AUTH_REPLAYED);
    }

    /**
     * Checks the datagram of {@code received} bytes at offset 0 of {@code buffer}.
     *
     * @return the length of its protocol bytes if it is authentic (decrypted in place on a transport
     *     that encrypts), else -1 (counted)
     */
    int check(MutableDirectBuffer buffer, int received) {
        final int length = received - AuthTrailer.LENGTH;
        if (length < HeaderFlyweight.HEADER_LENGTH || HeaderFlyweight.datagramLengthAt(buffer, 0) != length) {
            unsigned.increment();
            return REFUSED;
        }
        final TagKey key = keysById[buffer.getByte(length + AuthTrailer.KEY_ID_OFFSET) & 0xFF];
        if (key == null || buffer.getByte(length + AuthTrailer.SUITE_OFFSET) != suite) {
            unknownKey.increment();
            return REFUSED;
        }
        key.tag(buffer, 0, length + AuthTrailer.SIGNED_LENGTH, length + AuthTrailer.NONCE_OFFSET, expected, 0);
        final int tag = length + AuthTrailer.TAG_OFFSET;
        final long difference =
            (expected.getLong(0) ^ buffer.getLong(tag)) | (expected.getLong(8) ^ buffer.getLong(tag + 8));
        if (difference != 0) {
            badTag.increment();
            return REFUSED;
        }
        if (!replays.accept(buffer.getLong(length + AuthTrailer.BASE_OFFSET, HeaderFlyweight.BYTE_ORDER),
            buffer.getInt(length + AuthTrailer.COUNTER_OFFSET, HeaderFlyweight.BYTE_ORDER))) {
            replayed.increment();
            return REFUSED;
        }
        if (encrypted) {
            key.crypt(buffer, HeaderFlyweight.HEADER_LENGTH, length - HeaderFlyweight.HEADER_LENGTH,
                length + AuthTrailer.NONCE_OFFSET);
        }
        return length;
    }
}
