package org.nakcast.benchmarks.auth;

import java.security.GeneralSecurityException;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What authenticating one datagram with AES-GMAC costs with the JDK's own provider
 * ({@code javax.crypto}, AES/GCM with the datagram as additional data and nothing encrypted), on
 * each side: the sender's tag, and the receiver's check of it. Each tag takes a fresh 96-bit
 * nonce (a counter in its low bytes), as GCM demands; the key is 128-bit. The datagram lengths are
 * a small message's, the default datagram's and an 8 KiB one's.
 *
 * <pre>
 *   java -jar benchmarks/target/nakcast-benchmarks.jar GmacBenchmark -prof gc
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class GmacBenchmark {
    private static final int TAG_BITS = 128;
    private static final int TAG_BYTES = TAG_BITS / Byte.SIZE;
    private static final int NONCE_BYTES = 12;

    /** The datagram's length in bytes. */
    @Param({"64", "1408", "8192"})
    public int length;

    private final byte[] nonce = new byte[NONCE_BYTES];
    private final byte[] tag = new byte[TAG_BYTES];
    private final byte[] checked = new byte[0];
    private byte[] datagram;
    private SecretKeySpec key;
    private Cipher signer;
    private Cipher checker;
    private long counter;

    /** A random key and datagram, the datagram's tag for {@link #check}. */
    @Setup
    public void setup() throws GeneralSecurityException {
        final SplittableRandom random = new SplittableRandom(7);
        final byte[] keyBytes = new byte[16];
        random.nextBytes(keyBytes);
        key = new SecretKeySpec(keyBytes, "AES");
        datagram = new byte[length];
        random.nextBytes(datagram);
        signer = Cipher.getInstance("AES/GCM/NoPadding");
        checker = Cipher.getInstance("AES/GCM/NoPadding");
        sign();
    }

    /**
     * The sender's side: the tag over the datagram under the next nonce.
     *
     * @return the tag's length
     */
    @Benchmark
    public int sign() throws GeneralSecurityException {
        counter++;
        for (int i = 0; i < Long.BYTES; i++) {
            nonce[NONCE_BYTES - 1 - i] = (byte) (counter >>> (Byte.SIZE * i));
        }
        signer.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, nonce));
        signer.updateAAD(datagram, 0, length);
        return signer.doFinal(tag, 0);
    }

    /**
     * The receiver's side: the last tag checked against the datagram and its nonce; a mismatch
     * throws.
     *
     * @return the bytes decrypted: none
     */
    @Benchmark
    public int check() throws GeneralSecurityException {
        checker.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, nonce));
        checker.updateAAD(datagram, 0, length);
        return checker.doFinal(tag, 0, TAG_BYTES, checked, 0);
    }
}
