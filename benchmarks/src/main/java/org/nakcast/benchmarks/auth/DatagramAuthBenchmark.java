package org.nakcast.benchmarks.auth;

import java.net.InetAddress;
import java.net.NetworkInterface;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersManager;
import org.nakcast.config.AuthKeyFile;
import org.nakcast.config.AuthKeys;
import org.nakcast.transport.auth.AuthenticatingMedia;
import org.nakcast.transport.media.DatagramReceiver;
import org.nakcast.transport.media.DatagramSender;
import org.nakcast.transport.media.DatagramSource;
import org.nakcast.transport.media.Media;
import org.nakcast.transport.media.MulticastAddress;
import org.nakcast.transport.protocol.FrameType;
import org.nakcast.transport.protocol.HeaderFlyweight;
import org.nakcast.transport.status.SystemCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What nakcast's authenticated datagrams cost per datagram on each side: the sender's signing (a
 * copy next to the trailer, the NHPoly1305-AES tag, with {@code encrypt} the payload encrypted first)
 * and the receiver's check (tag, replay window, with {@code encrypt} the payload decrypted), through
 * {@link AuthenticatingMedia} over a media that hands each datagram straight from sender to
 * receiver. Compare {@link GmacBenchmark}, the JDK's AES-GMAC over the same lengths.
 *
 * <pre>
 *   java -jar benchmarks/target/nakcast-benchmarks.jar DatagramAuthBenchmark -prof gc
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class DatagramAuthBenchmark {
    /** The datagram's protocol bytes (the trailer comes on top). */
    @Param({"64", "1376", "8160"})
    public int length;

    /** Whether payloads are encrypted too. */
    @Param({"false", "true"})
    public boolean encrypt;

    private final Handover handover = new Handover();
    private UnsafeBuffer datagram;
    private DatagramSender sender;
    private DatagramReceiver receiver;

    /** A random key and a DATA datagram of {@link #length} bytes. */
    @Setup
    public void setup() throws Exception {
        final byte[] bytes = new byte[length];
        new SplittableRandom(7).nextBytes(bytes);
        datagram = new UnsafeBuffer(bytes);
        new HeaderFlyweight().wrap(datagram, 0).writeHeader(FrameType.DATA, length, 1, 1, 0);
        final MulticastAddress address = new MulticastAddress(NetworkInterface.getByName("lo"),
            InetAddress.getByName("239.255.10.1"), 40_000, 40_001, 0, 0, 0,
            new AuthKeys(1, List.of(AuthKeyFile.newKey(1))), encrypt);
        final SystemCounters counters = new SystemCounters(new CountersManager(
            new UnsafeBuffer(new byte[1 << 16]), new UnsafeBuffer(new byte[1 << 14])));
        final AuthenticatingMedia media = new AuthenticatingMedia(handover);
        sender = media.openSender(address, address.dataPort(), counters);
        receiver = media.openReceiver(address, address.dataPort(), counters);
    }

    /**
     * The sender's side: the datagram signed (and encrypted) and handed to the media.
     *
     * @return whether the media took it
     */
    @Benchmark
    public boolean sign() {
        return sender.send(datagram, 0, length);
    }

    /**
     * Both sides: the datagram signed, handed over and checked (and decrypted).
     *
     * @return the protocol bytes the receiver got
     */
    @Benchmark
    public int signAndCheck() {
        sender.send(datagram, 0, length);
        return receiver.receive();
    }

    /** A media whose sender copies each datagram into the one buffer its receiver reads. */
    private static final class Handover implements Media {
        private final UnsafeBuffer held =
            new UnsafeBuffer(ByteBuffer.allocateDirect(HeaderFlyweight.MAX_DATAGRAM_LENGTH));
        private final DatagramSource source = new DatagramSource().ipv4(0x7F000001, 5000);
        private int heldLength;

        @Override
        public String name() {
            return "handover";
        }

        @Override
        public String unavailableBecause() {
            return null;
        }

        @Override
        public DatagramReceiver openReceiver(MulticastAddress address, int port, SystemCounters counters) {
            return new DatagramReceiver() {
                @Override
                public int receive() {
                    final int length = heldLength;
                    heldLength = 0;
                    return length;
                }

                @Override
                public UnsafeBuffer buffer() {
                    return held;
                }

                @Override
                public DatagramSource source() {
                    return source;
                }

                @Override
                public void close() {
                }
            };
        }

        @Override
        public DatagramSender openSender(MulticastAddress address, int port, SystemCounters counters) {
            return new DatagramSender() {
                @Override
                public boolean send(DirectBuffer buffer, int offset, int length) {
                    held.putBytes(0, buffer, offset, length);
                    heldLength = length;
                    return true;
                }

                @Override
                public void flush() {
                }

                @Override
                public void close() {
                }
            };
        }
    }
}
