package org.nakcast.simulator;

import java.util.SplittableRandom;

import org.agrona.MutableDirectBuffer;

/**
 * What a stranger without the key makes of the trailers of an authenticated segment: it sends what it
 * forges with no trailer, with one naming a key the seed's key file does not hold (or its key, with a
 * suite there is none of), or with the seed's key and a nonce and tag made up; and it changes signed
 * datagrams it captured, one byte of their protocol bytes, nonce or tag (now and then of the tag's
 * last eight bytes alone).
 */
final class ForgedTrailers {
    /** The suites and key ids a byte can name. */
    private static final int BYTE_VALUES = 256;

    /**
     * Puts a trailer, or none, after the {@code length} bytes it forged at offset 0 of {@code out}.
     *
     * @return the length to send
     */
    int dress(MutableDirectBuffer out, int length, SplittableRandom random) {
        final int kind = random.nextInt(3);
        if (kind == 0) {
            return length;
        }
        for (int i = 0; i < TrailerLayout.LENGTH; i++) {
            out.putByte(length + i, (byte) random.nextInt(BYTE_VALUES));
        }
        final int keyId = length + TrailerLayout.KEY_ID_OFFSET;
        final int suite = length + TrailerLayout.SUITE_OFFSET;
        if (kind == 2) {
            out.putByte(keyId, (byte) SimKeyFile.KEY_ID);
            out.putByte(suite, (byte) TrailerLayout.SUITE_NH_POLY1305_AES);
        } else if (random.nextBoolean()) {
            out.putByte(keyId, (byte) other(SimKeyFile.KEY_ID, random));
        } else {
            out.putByte(keyId, (byte) SimKeyFile.KEY_ID);
            out.putByte(suite, (byte) other(TrailerLayout.SUITE_NH_POLY1305_AES, random));
        }
        return length + TrailerLayout.LENGTH;
    }

    /** A byte's value other than {@code taken}, drawn at random. */
    private static int other(int taken, SplittableRandom random) {
        final int value = random.nextInt(BYTE_VALUES - 1);
        return value >= taken ? value + 1 : value;
    }

    /** A copy of the signed {@code datagram} with one byte changed: of its tag, its nonce or its protocol bytes. */
    byte[] tamper(byte[] datagram, SplittableRandom random) {
        final byte[] changed = datagram.clone();
        final int trailer = changed.length - TrailerLayout.LENGTH;
        final int tag = trailer + TrailerLayout.TAG_OFFSET;
        final int at = switch (random.nextInt(4)) {
            case 0 -> tag + 8 + random.nextInt(8);
            case 1 -> tag + random.nextInt(8);
            case 2 -> trailer + TrailerLayout.BASE_OFFSET + random.nextInt(tag - trailer - TrailerLayout.BASE_OFFSET);
            default -> random.nextInt(trailer);
        };
        changed[at] ^= (byte) (1 + random.nextInt(BYTE_VALUES - 1));
        return changed;
    }
}
