package org.nakcast.transport.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Queue;
import java.util.SplittableRandom;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersManager;
import org.junit.jupiter.api.Test;
import org.nakcast.config.AuthKeys;
import org.nakcast.transport.media.DatagramReceiver;
import org.nakcast.transport.media.DatagramSender;
import org.nakcast.transport.media.DatagramSource;
import org.nakcast.transport.media.Media;
import org.nakcast.transport.media.MulticastAddress;
import org.nakcast.transport.protocol.FrameType;
import org.nakcast.transport.protocol.HeaderFlyweight;
import org.nakcast.transport.status.SystemCounter;
import org.nakcast.transport.status.SystemCounters;

class AuthenticatingMediaTest {
    private static final int PORT = 40_000;
    private static final AuthKeys.Key KEY_1 = key(1, 11);
    private static final AuthKeys.Key KEY_2 = key(2, 22);

    private final Wire wire = new Wire();
    private final SystemCounters senderCounters = counters();
    private final SystemCounters receiverCounters = counters();

    @Test
    void aSignedDatagramArrivesWhole() {
        final DatagramSender sender = open(new AuthKeys(1, List.of(KEY_1)));
        final DatagramReceiver receiver = listen(new AuthKeys(1, List.of(KEY_1)));
        final UnsafeBuffer datagram = datagram(300, 7);

        sender.send(datagram, 0, 300);

        assertThat(wire.peekLength()).as("on the wire: the datagram and its trailer").isEqualTo(300 + 32);
        assertThat(receiver.receive()).isEqualTo(300);
        assertThat(new UnsafeBuffer(receiver.buffer(), 0, 300).compareTo(datagram)).isZero();
        assertThat(refusals()).isZero();
    }

    @Test
    void anEncryptingTransportHidesThePayloadOnTheWireAndTheReceiverGetsItBack() {
        final DatagramSender sender = open(new AuthKeys(1, List.of(KEY_1)), true);
        final DatagramReceiver receiver = listen(new AuthKeys(1, List.of(KEY_1)), true);
        final UnsafeBuffer datagram = datagram(1000, 9);
        datagram.setMemory(HeaderFlyweight.HEADER_LENGTH, 1000 - HeaderFlyweight.HEADER_LENGTH, (byte) 'x');

        sender.send(datagram, 0, 1000);

        final UnsafeBuffer onTheWire = wire.takeAll().get(0);
        assertThat(new UnsafeBuffer(onTheWire, 0, HeaderFlyweight.HEADER_LENGTH)
            .compareTo(new UnsafeBuffer(datagram, 0, HeaderFlyweight.HEADER_LENGTH))).as("the header in clear")
            .isZero();
        int clear = 0;
        for (int i = HeaderFlyweight.HEADER_LENGTH; i < 1000; i++) {
            clear += onTheWire.getByte(i) == 'x' ? 1 : 0;
        }
        assertThat(clear).as("payload bytes still 'x' on the wire: about 1 in 256 by chance").isLessThan(20);
        wire.replay(onTheWire);
        assertThat(receiver.receive()).isEqualTo(1000);
        assertThat(new UnsafeBuffer(receiver.buffer(), 0, 1000).compareTo(datagram)).isZero();
    }

    @Test
    void aReceiverRefusesTheSuiteItsTransportDoesNotUseEitherWay() {
        final AuthKeys keys = new AuthKeys(1, List.of(KEY_1));
        final DatagramSender clear = open(keys, false);
        final DatagramSender encrypting = open(keys, true);
        final DatagramReceiver clearReceiver = listen(keys, false);
        final DatagramReceiver encryptedReceiver = listen(keys, true);
        encrypting.send(datagram(100, 1), 0, 100);
        assertThat(clearReceiver.receive()).isZero();
        clear.send(datagram(100, 2), 0, 100);
        assertThat(encryptedReceiver.receive()).isZero();

        assertThat(count(SystemCounter.AUTH_UNKNOWN_KEY)).isEqualTo(2);
    }

    @Test
    void aDatagramWithoutTrailerIsCountedUnsigned() {
        final DatagramReceiver receiver = listen(new AuthKeys(1, List.of(KEY_1)));
        wire.offer(datagram(300, 7), 0, 300);

        assertThat(receiver.receive()).isZero();
        assertThat(count(SystemCounter.AUTH_UNSIGNED)).isEqualTo(1);
    }

    @Test
    void aDatagramSignedWithAKeyTheReceiverLacksIsCountedUnknownKey() {
        final DatagramSender sender = open(new AuthKeys(2, List.of(KEY_2)));
        final DatagramReceiver receiver = listen(new AuthKeys(1, List.of(KEY_1)));
        sender.send(datagram(300, 7), 0, 300);

        assertThat(receiver.receive()).isZero();
        assertThat(count(SystemCounter.AUTH_UNKNOWN_KEY)).isEqualTo(1);
    }

    @Test
    void aSecretOtherThanTheReceiversUnderTheSameIdFailsItsTag() {
        final DatagramSender sender = open(new AuthKeys(1, List.of(key(1, 99))));
        final DatagramReceiver receiver = listen(new AuthKeys(1, List.of(KEY_1)));
        sender.send(datagram(300, 7), 0, 300);

        assertThat(receiver.receive()).isZero();
        assertThat(count(SystemCounter.AUTH_BAD_TAG)).isEqualTo(1);
    }

    @Test
    void anyBitChangedInTheDatagramOrItsTrailerFailsTheTag() {
        final DatagramSender sender = open(new AuthKeys(1, List.of(KEY_1)));
        final DatagramReceiver receiver = listen(new AuthKeys(1, List.of(KEY_1)));
        final int length = 100;
        final int[] bitsToFlip =
            {8 * 30 + 3, 8 * (length + 2), 8 * (length + 5), 8 * (length + 13), 8 * (length + 31) + 7};
        for (int bit : bitsToFlip) {
            sender.send(datagram(length, bit), 0, length);
            wire.flipLast(bit);
        }

        for (int i = 0; i < bitsToFlip.length; i++) {
            assertThat(receiver.receive()).isZero();
        }
        assertThat(count(SystemCounter.AUTH_BAD_TAG)).isEqualTo(bitsToFlip.length);
    }

    @Test
    void aReplayedDatagramIsCountedAndOneTooOldForTheWindowToo() {
        final DatagramSender sender = open(new AuthKeys(1, List.of(KEY_1)));
        final DatagramReceiver receiver = listen(new AuthKeys(1, List.of(KEY_1)));
        for (int i = 0; i < 70; i++) {
            sender.send(datagram(64, i), 0, 64);
        }
        final List<UnsafeBuffer> heard = wire.takeAll();
        for (int i = 0; i < 70; i++) {
            if (i != 3) { // held back: 66 newer ones make it older than the window
                wire.replay(heard.get(i));
                assertThat(receiver.receive()).isEqualTo(64);
            }
        }
        wire.replay(heard.get(69));
        wire.replay(heard.get(3));
        wire.replay(heard.get(68));

        assertThat(receiver.receive()).isZero();
        assertThat(count(SystemCounter.AUTH_REPLAYED)).isEqualTo(3);
    }

    @Test
    void duringARotationDatagramsOfTheCurrentAndTheNextKeyAreBothAccepted() {
        final DatagramSender old = open(new AuthKeys(1, List.of(KEY_1, KEY_2)));
        final DatagramSender rotated = open(new AuthKeys(2, List.of(KEY_1, KEY_2)));
        final DatagramReceiver receiver = listen(new AuthKeys(1, List.of(KEY_1, KEY_2)));
        old.send(datagram(200, 1), 0, 200);
        rotated.send(datagram(200, 2), 0, 200);

        assertThat(receiver.receive()).isEqualTo(200);
        assertThat(receiver.receive()).isEqualTo(200);
        assertThat(refusals()).isZero();
    }

    @Test
    void aFloodOfForgeriesIsReadPastSixteenAtATimeAndTheNextRealDatagramStillArrives() {
        final DatagramSender sender = open(new AuthKeys(1, List.of(KEY_1)));
        final DatagramReceiver receiver = listen(new AuthKeys(1, List.of(KEY_1)));
        for (int i = 0; i < 20; i++) {
            wire.offer(datagram(100, i), 0, 100);
        }
        sender.send(datagram(100, 5), 0, 100);

        assertThat(receiver.receive()).as("16 refused, then the call returns").isZero();
        assertThat(receiver.receive()).isEqualTo(100);
        assertThat(count(SystemCounter.AUTH_UNSIGNED)).isEqualTo(20);
    }

    @Test
    void signingEncryptingCheckingAndDecryptingAllocateNothingPerDatagram() {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        final DatagramSender sender = open(new AuthKeys(1, List.of(KEY_1)), true);
        final DatagramReceiver receiver = listen(new AuthKeys(1, List.of(KEY_1)), true);
        final UnsafeBuffer datagram = datagram(1376, 3);
        roundTrips(sender, receiver, datagram, 20_000);
        threads.getCurrentThreadAllocatedBytes();

        // Windows of rounds until one allocates nothing: the JIT may deoptimize once and re-create an
        // object; anything per datagram allocates in every window.
        long allocated = -1;
        for (int window = 0; window < 3 && allocated != 0; window++) {
            final long before = threads.getCurrentThreadAllocatedBytes();
            roundTrips(sender, receiver, datagram, 5_000);
            allocated = threads.getCurrentThreadAllocatedBytes() - before;
        }

        assertThat(allocated).isZero();
        assertThat(refusals()).isZero();
    }

    private void roundTrips(DatagramSender sender, DatagramReceiver receiver, UnsafeBuffer datagram, int count) {
        for (int i = 0; i < count; i++) {
            sender.send(datagram, 0, datagram.capacity());
            if (receiver.receive() != datagram.capacity()) {
                throw new AssertionError("datagram " + i + " refused");
            }
        }
    }

    private DatagramSender open(AuthKeys keys) {
        return open(keys, false);
    }

    private DatagramSender open(AuthKeys keys, boolean encrypt) {
        return new AuthenticatingMedia(wire).openSender(address(keys, encrypt), PORT, senderCounters);
    }

    private DatagramReceiver listen(AuthKeys keys) {
        return listen(keys, false);
    }

    private DatagramReceiver listen(AuthKeys keys, boolean encrypt) {
        return new AuthenticatingMedia(wire).openReceiver(address(keys, encrypt), PORT, receiverCounters);
    }

    private long count(SystemCounter counter) {
        return receiverCounters.get(counter).get();
    }

    private long refusals() {
        return count(SystemCounter.AUTH_UNSIGNED) + count(SystemCounter.AUTH_UNKNOWN_KEY)
            + count(SystemCounter.AUTH_BAD_TAG) + count(SystemCounter.AUTH_REPLAYED);
    }

    /** A DATA header of the right length over bytes drawn from {@code seed}. */
    private static UnsafeBuffer datagram(int length, int seed) {
        final byte[] bytes = new byte[length];
        new SplittableRandom(seed).nextBytes(bytes);
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
        new HeaderFlyweight().wrap(buffer, 0).writeHeader(FrameType.DATA, length, 77, 5, seed);
        return buffer;
    }

    private static AuthKeys.Key key(int id, int seed) {
        final byte[] secret = new byte[AuthKeys.SECRET_BYTES];
        new SplittableRandom(seed).nextBytes(secret);
        return new AuthKeys.Key(id, secret);
    }

    private static MulticastAddress address(AuthKeys keys, boolean encrypt) {
        try {
            return new MulticastAddress(NetworkInterface.getByName("lo"), InetAddress.getByName("239.255.10.1"),
                PORT, PORT + 1, 0, 0, 0, keys, encrypt);
        } catch (SocketException | UnknownHostException ex) {
            throw new IllegalStateException(ex);
        }
    }

    private static SystemCounters counters() {
        return new SystemCounters(new CountersManager(
            new UnsafeBuffer(new byte[1 << 16]), new UnsafeBuffer(new byte[1 << 14])));
    }

    /** A media whose every sender appends to one queue and whose every receiver reads from it. */
    private static final class Wire implements Media {
        private final Queue<UnsafeBuffer> datagrams = new ArrayDeque<>();
        private UnsafeBuffer last;
        private final UnsafeBuffer received = new UnsafeBuffer(new byte[HeaderFlyweight.MAX_DATAGRAM_LENGTH + 64]);
        private final DatagramSource source = new DatagramSource().ipv4(0x7F000001, 5000);
        private final UnsafeBuffer[] pool = new UnsafeBuffer[4];
        private int next;

        @Override
        public String name() {
            return "wire";
        }

        @Override
        public String unavailableBecause() {
            return null;
        }

        void offer(DirectBuffer buffer, int offset, int length) {
            // a few buffers reused in turn, so the steady state allocates nothing here either
            final int slot = next++ & (pool.length - 1);
            if (pool[slot] == null || pool[slot].capacity() != length || datagrams.size() >= pool.length) {
                pool[slot] = new UnsafeBuffer(new byte[length]);
            }
            pool[slot].putBytes(0, buffer, offset, length);
            last = pool[slot];
            datagrams.offer(last);
        }

        int peekLength() {
            return datagrams.peek().capacity();
        }

        void flipLast(int bit) {
            last.putByte(bit / 8, (byte) (last.getByte(bit / 8) ^ (1 << (bit % 8))));
        }

        List<UnsafeBuffer> takeAll() {
            final List<UnsafeBuffer> all =
                datagrams.stream().map(d -> new UnsafeBuffer(d.byteArray().clone())).toList();
            datagrams.clear();
            return all;
        }

        void replay(UnsafeBuffer datagram) {
            datagrams.offer(datagram);
        }

        @Override
        public DatagramReceiver openReceiver(MulticastAddress address, int port, SystemCounters counters) {
            return new DatagramReceiver() {
                @Override
                public int receive() {
                    final UnsafeBuffer datagram = datagrams.poll();
                    if (datagram == null) {
                        return 0;
                    }
                    received.putBytes(0, datagram, 0, datagram.capacity());
                    return datagram.capacity();
                }

                @Override
                public UnsafeBuffer buffer() {
                    return received;
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
                    offer(buffer, offset, length);
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
