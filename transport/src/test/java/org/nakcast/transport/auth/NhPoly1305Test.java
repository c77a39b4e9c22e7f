package org.nakcast.transport.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class NhPoly1305Test {
    private static final HexFormat HEX = HexFormat.of();

    /** A known answer: key, message and the hash without the length block and pad. */
    record Vector(String name, byte[] key, byte[] message, byte[] digest) {
        @Override
        public String toString() {
            return name + " (" + message.length + " bytes)";
        }
    }

    /** The Linux kernel's NHPoly1305 test vectors (crypto/testmgr.h), the hash Adiantum defines. */
    static Stream<Vector> kernelVectors() throws IOException {
        final List<Vector> vectors = new ArrayList<>();
        try (InputStream in = NhPoly1305Test.class.getResourceAsStream("nhpoly1305-vectors.txt");
            BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.US_ASCII))) {
            String name = null;
            byte[] key = null;
            byte[] message = null;
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                if (line.startsWith("# vector")) {
                    name = line.substring(2);
                } else if (line.startsWith("key=")) {
                    key = HEX.parseHex(line.substring(4));
                } else if (line.startsWith("msg=")) {
                    message = HEX.parseHex(line.substring(4));
                } else if (line.startsWith("digest=")) {
                    vectors.add(new Vector(name, key, message, HEX.parseHex(line.substring(7))));
                }
            }
        }
        assertThat(vectors).hasSizeGreaterThanOrEqualTo(4);
        return vectors.stream();
    }

    @ParameterizedTest
    @MethodSource("kernelVectors")
    void givesTheKernelsDigest(Vector vector) {
        assertThat(HEX.formatHex(digest(vector.key(), new UnsafeBuffer(vector.message()), 0,
            vector.message().length))).isEqualTo(HEX.formatHex(vector.digest()));
    }

    @ParameterizedTest
    @MethodSource("kernelVectors")
    void givesTheKernelsDigestOffHeapAndAtAnOddOffset(Vector vector) {
        final int offset = 3;
        final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(vector.message().length + offset));
        buffer.putBytes(offset, vector.message());

        assertThat(digest(vector.key(), buffer, offset, vector.message().length)).isEqualTo(vector.digest());
    }

    /** Every length across the first chunks' units and their ends, against the definition written plainly. */
    @Test
    void agreesWithTheDefinitionOnEveryLengthAcrossTwoChunks() {
        final SplittableRandom random = new SplittableRandom(20261206);
        final byte[] key = PolyReference.bytes(random, NhPoly1305.KEY_BYTES);
        for (int length = 0; length <= 2100; length++) {
            final byte[] message = PolyReference.bytes(random, length);
            if (length % 100 == 7) {
                Arrays.fill(message, (byte) 0xFF); // the largest words and sums
            }

            assertThat(digest(key, new UnsafeBuffer(message), 0, length)).as("length %d", length)
                .isEqualTo(reference(key, message));
        }
    }

    /** Messages that differ only by zeros at their end: the digest cannot tell them apart, the length block does. */
    @Test
    void theLengthBlockTellsApartWhatOnlyZerosAtTheEndMakeDifferent() {
        final byte[] key = PolyReference.bytes(new SplittableRandom(5), NhPoly1305.KEY_BYTES);
        final UnsafeBuffer shorter = new UnsafeBuffer(new byte[30]);
        final UnsafeBuffer longer = new UnsafeBuffer(new byte[31]);
        shorter.putStringWithoutLengthAscii(0, "an authenticated datagram");
        longer.putStringWithoutLengthAscii(0, "an authenticated datagram");

        assertThat(digest(key, shorter, 0, 30)).isEqualTo(digest(key, longer, 0, 31));
        assertThat(tag(key, shorter, 30)).isNotEqualTo(tag(key, longer, 31));
    }

    @Test
    void refusesAKeyOfAnotherLength() {
        assertThatThrownBy(() -> new NhPoly1305(new byte[1072]))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1088");
    }

    private static byte[] digest(byte[] key, UnsafeBuffer message, int offset, int length) {
        final NhPoly1305 hash = new NhPoly1305(key);
        final byte[] out = new byte[16];
        hash.start();
        hash.message(message, offset, length);
        hash.finish(0, 0, new UnsafeBuffer(out), 0);
        return out;
    }

    private static byte[] tag(byte[] key, UnsafeBuffer message, int length) {
        final NhPoly1305 hash = new NhPoly1305(key);
        final byte[] out = new byte[16];
        hash.start();
        hash.message(message, 0, length);
        hash.length(length);
        hash.finish(0, 0, new UnsafeBuffer(out), 0);
        return out;
    }

    /**
     * NHPoly1305 as the kernel's generic code computes it: NH over each KiB (the last unit filled up
     * with zeros) in 32-bit words, each digest's 32 bytes as two Poly1305 blocks, in big integers.
     */
    private static byte[] reference(byte[] key, byte[] message) {
        final PolyReference poly = new PolyReference(key, 0);
        for (int chunk = 0; chunk < message.length; chunk += 1024) {
            final int end = Math.min(message.length, chunk + 1024);
            final long[] sums = new long[4];
            for (int unit = chunk, k = 0; unit < end; unit += 16, k += 4) {
                final long[] m = new long[4];
                for (int w = 0; w < 4; w++) {
                    m[w] = wordOrZeros(message, unit + 4 * w, end);
                }
                for (int pass = 0; pass < 4; pass++) {
                    final int at = 16 + 4 * (k + 4 * pass);
                    sums[pass] += ((m[0] + word(key, at)) & 0xFFFFFFFFL) * ((m[2] + word(key, at + 8)) & 0xFFFFFFFFL);
                    sums[pass] += ((m[1] + word(key, at + 4)) & 0xFFFFFFFFL)
                        * ((m[3] + word(key, at + 12)) & 0xFFFFFFFFL);
                }
            }
            for (int block = 0; block < 4; block += 2) {
                poly.block(unsigned(sums[block]).add(unsigned(sums[block + 1]).shiftLeft(64)), 16);
            }
        }
        return poly.finish(BigInteger.ZERO);
    }

    private static long wordOrZeros(byte[] bytes, int offset, int end) {
        long word = 0;
        for (int i = 0; i < 4; i++) {
            if (offset + i < end) {
                word |= (bytes[offset + i] & 0xFFL) << (8 * i);
            }
        }
        return word;
    }

    private static long word(byte[] bytes, int offset) {
        return wordOrZeros(bytes, offset, bytes.length);
    }

    private static BigInteger unsigned(long value) {
        return new BigInteger(Long.toUnsignedString(value));
    }
}
