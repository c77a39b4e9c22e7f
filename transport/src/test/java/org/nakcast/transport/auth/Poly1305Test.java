package org.nakcast.transport.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.SplittableRandom;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/** Poly1305 over whole blocks against RFC 8439's definition in big integers (known answers: {@link NhPoly1305Test}). */
class Poly1305Test {

    @Test
    void agreesWithTheFormulaOnUpToFiveBlocksAndOnLongMessages() {
        final SplittableRandom random = new SplittableRandom(20261205);
        for (int length = 0; length < 4096; length = length < 80 ? length + 16 : length * 2) {
            for (int round = 0; round < 20; round++) {
                final byte[] key = PolyReference.bytes(random, 32);
                final byte[] message = PolyReference.bytes(random, length);
                if (round == 0) {
                    Arrays.fill(message, (byte) 0xFF); // the largest limbs
                    Arrays.fill(key, 0, 16, (byte) 0xFF);
                }

                assertThat(tag(key, message)).as("length %d round %d", length, round)
                    .isEqualTo(reference(key, message));
            }
        }
    }

    /**
     * Keys, pads and messages made mostly of 0xFF and 0x00 bytes: the sums and products whose
     * carries run through whole 64-bit words, where a carry dropped or counted twice shows.
     */
    @Test
    void agreesWithTheFormulaWhereCarriesRunThroughWholeWords() {
        final SplittableRandom random = new SplittableRandom(20261206);
        for (int round = 0; round < 3_000; round++) {
            final byte[] key = extremeBytes(random, 32);
            final byte[] message = extremeBytes(random, 16 * (1 + random.nextInt(12)));

            assertThat(tag(key, message)).as("round %d", round).isEqualTo(reference(key, message));
        }
    }

    /** Bytes each 0xFF (one in two), 0x00 (one in four) or anything. */
    private static byte[] extremeBytes(SplittableRandom random, int length) {
        final byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            final int draw = random.nextInt(4);
            bytes[i] = draw < 2 ? (byte) 0xFF : draw == 2 ? 0 : (byte) random.nextInt(256);
        }
        return bytes;
    }

    /** The tag of whole blocks with r the key's first 16 bytes and the pad its last 16, as the RFC has it. */
    private static byte[] tag(byte[] key, byte[] message) {
        final Poly1305 poly = new Poly1305(Arrays.copyOf(key, 16));
        final UnsafeBuffer bytes = new UnsafeBuffer(message);
        poly.start();
        for (int i = 0; i < message.length; i += 16) {
            poly.block(bytes.getLong(i, ByteOrder.LITTLE_ENDIAN), bytes.getLong(i + 8, ByteOrder.LITTLE_ENDIAN));
        }
        final UnsafeBuffer pad = new UnsafeBuffer(key, 16, 16);
        final byte[] out = new byte[16];
        poly.finish(pad.getLong(0, ByteOrder.LITTLE_ENDIAN), pad.getLong(8, ByteOrder.LITTLE_ENDIAN),
            new UnsafeBuffer(out), 0);
        return out;
    }

    /** RFC 8439's definition in big integers: h = (h + block | 1 << 8n) * r mod p, then h + s mod 2^128. */
    private static byte[] reference(byte[] key, byte[] message) {
        final PolyReference poly = new PolyReference(key, 0);
        for (int i = 0; i < message.length; i += 16) {
            final int n = Math.min(16, message.length - i);
            poly.block(PolyReference.littleEndian(message, i, n), n);
        }
        return poly.finish(PolyReference.littleEndian(key, 16, 16));
    }
}
