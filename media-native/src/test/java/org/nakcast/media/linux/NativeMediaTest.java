package org.nakcast.media.linux;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.management.ManagementFactory;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.nio.ByteBuffer;
import java.util.Arrays;

import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersManager;
import org.junit.jupiter.api.Test;
import org.nakcast.transport.TransportException;
import org.nakcast.transport.media.DatagramReceiver;
import org.nakcast.transport.media.DatagramSender;
import org.nakcast.transport.media.DatagramSource;
import org.nakcast.transport.media.Media;
import org.nakcast.transport.media.MediaChoice;
import org.nakcast.transport.media.MulticastAddress;
import org.nakcast.transport.media.NioMedia;
import org.nakcast.transport.status.SystemCounter;
import org.nakcast.transport.status.SystemCounters;

/** The native media's sockets on lo, in the test JVM's private network namespace. */
class NativeMediaTest {
    /** Datagrams each sender sends per flush in the allocation test: one UDP GSO train. */
    private static final int TRAIN = 8;
    private final SystemCounters counters = new SystemCounters(new CountersManager(
        new UnsafeBuffer(ByteBuffer.allocateDirect(64 * 1024)),
        new UnsafeBuffer(ByteBuffer.allocateDirect(16 * 1024))));
    private final NativeMedia media = new NativeMedia();

    private static MulticastAddress address(int port) throws Exception {
        return new MulticastAddress(NetworkInterface.getByName("lo"), InetAddress.getByName("239.255.10.1"),
            port, port + 1, 0, 1 << 20, 1 << 20, null, false);
    }

    @Test
    void aNodeAskingForNativeGetsIt() {
        final MediaChoice choice = MediaChoice.of("native");

        assertThat(choice.fellBack()).as(choice.fallbackReason()).isFalse();
        assertThat(choice.media()).isInstanceOf(NativeMedia.class);
        assertThat(media.unavailableBecause()).isNull();
    }

    @Test
    void datagramsWaitForTheFlushThenComeInOrderWithTheirLengthsToEveryReceiver() throws Exception {
        final MulticastAddress address = address(41_100);
        try (DatagramReceiver first = media.openReceiver(address, 41_100, counters);
            DatagramReceiver second = media.openReceiver(address, 41_100, counters);
            DatagramSender sender = media.openSender(address, 41_100, counters)) {
            final UnsafeBuffer datagram = new UnsafeBuffer(ByteBuffer.allocateDirect(2_000));
            final int count = BatchingSender.BATCH - 1;
            for (int i = 0; i < count; i++) {
                datagram.putInt(16, i);
                assertThat(sender.send(datagram, 16, 4 + i * 50)).isTrue();
            }
            Thread.sleep(20);
            assertThat(first.receive()).as("nothing is sent before the flush").isZero();

            sender.flush();

            for (DatagramReceiver receiver : new DatagramReceiver[] {first, second}) {
                for (int i = 0; i < count; i++) {
                    assertThat(receiveWithin(receiver, 2_000)).isEqualTo(4 + i * 50);
                    assertThat(receiver.buffer().getInt(0)).isEqualTo(i);
                }
                assertThat(receiver.receive()).isZero();
            }
            assertThat(counters.get(SystemCounter.DATAGRAMS_SENT).get()).isEqualTo(count);
            assertThat(counters.get(SystemCounter.DATAGRAMS_RECEIVED).get()).isEqualTo(2L * count);
        }
    }

    @Test
    void aQuietSocketsDatagramEndsThePollAndTheNextPollReadsOn() throws Exception {
        final MulticastAddress address = address(41_210);
        try (DatagramReceiver receiver = media.openReceiver(address, 41_210, counters);
            DatagramSender sender = media.openSender(address, 41_210, counters)) {
            final UnsafeBuffer datagram = new UnsafeBuffer(ByteBuffer.allocateDirect(64));
            for (int i = 1; i <= 2; i++) {
                datagram.putInt(0, i);
                assertThat(sender.send(datagram, 0, 64)).isTrue();
                sender.flush();
            }
            Thread.sleep(20);

            assertThat(receiver.receive()).isEqualTo(64);
            assertThat(receiver.buffer().getInt(0)).isEqualTo(1);
            assertThat(receiver.receive()).as("the poll ends after a quiet socket's datagram").isZero();
            assertThat(receiver.receive()).as("though the next one waits").isEqualTo(64);
            assertThat(receiver.buffer().getInt(0)).isEqualTo(2);
            assertThat(receiver.receive()).isZero();
            assertThat(counters.get(SystemCounter.DATAGRAMS_RECEIVED).get()).isEqualTo(2);
        }
    }

    @Test
    void aSendThatFillsTheBatchGoesAtOnce() throws Exception {
        final MulticastAddress address = address(41_110);
        try (DatagramReceiver receiver = media.openReceiver(address, 41_110, counters);
            DatagramSender sender = media.openSender(address, 41_110, counters)) {
            final UnsafeBuffer datagram = new UnsafeBuffer(ByteBuffer.allocateDirect(64));
            for (int i = 0; i < BatchingSender.BATCH; i++) {
                datagram.putInt(0, i);
                sender.send(datagram, 0, 8);
            }

            for (int i = 0; i < BatchingSender.BATCH; i++) {
                assertThat(receiveWithin(receiver, 2_000)).isEqualTo(8);
                assertThat(receiver.buffer().getInt(0)).isEqualTo(i);
            }
        }
    }

    /**
     * Held datagrams of one length in a row, and one shorter after them, go as one UDP GSO train:
     * a busy native receiver takes it as one UDP GRO train and hands out each datagram, an nio
     * receiver gets the datagrams as the kernel cut them; both in order, with their lengths, bytes
     * and sender.
     */
    @Test
    void equalDatagramsGoAsOneTrainAndComeApartInOrderOnAnyReceiver() throws Exception {
        final MulticastAddress address = address(41_160);
        try (DatagramReceiver gro = media.openReceiver(address, 41_160, counters);
            DatagramReceiver plain = new NioMedia().openReceiver(address, 41_160, counters);
            DatagramSender sender = media.openSender(address, 41_160, counters)) {
            fillABatch(sender, gro, plain);
            final long sentBefore = counters.get(SystemCounter.DATAGRAMS_SENT).get();
            final long receivedBefore = counters.get(SystemCounter.DATAGRAMS_RECEIVED).get();
            final int[] lengths = new int[21];
            Arrays.fill(lengths, 1_376);
            lengths[20] = 900;

            send(sender, lengths);

            expect(gro, lengths);
            expect(plain, lengths);
            assertThat(counters.get(SystemCounter.GSO_TRAINS_SENT).get()).isOne();
            assertThat(counters.get(SystemCounter.GRO_TRAINS_RECEIVED).get()).as("the native receiver's").isOne();
            assertThat(counters.get(SystemCounter.DATAGRAMS_SENT).get() - sentBefore).isEqualTo(21);
            assertThat(counters.get(SystemCounter.DATAGRAMS_RECEIVED).get() - receivedBefore).isEqualTo(42);
        }
    }

    /**
     * A receiver that has not found a full batch waiting yet takes a GSO train as the datagrams the
     * kernel cut for it (UDP GRO would cost its round trips); the first full batch turns UDP GRO
     * on, what was already waiting then still comes datagram by datagram, and trains from then on
     * come whole and apart again, in order.
     */
    @Test
    void aReceiverTakesTrainsWholeOnceAFullBatchFoundItBusy() throws Exception {
        final MulticastAddress address = address(41_190);
        try (DatagramReceiver receiver = media.openReceiver(address, 41_190, counters);
            DatagramSender sender = media.openSender(address, 41_190, counters)) {
            final int[] train = new int[8];
            Arrays.fill(train, 1_000);
            final int[] burst = new int[BatchingReceiver.BATCH + 4];
            Arrays.fill(burst, 1_000);

            send(sender, train);
            expect(receiver, train);
            assertThat(counters.get(SystemCounter.GRO_TRAINS_RECEIVED).get()).as("while quiet").isZero();

            send(sender, burst);
            expect(receiver, burst);
            assertThat(counters.get(SystemCounter.GRO_TRAINS_RECEIVED).get()).as("queued before GRO").isZero();

            send(sender, train);
            expect(receiver, train);
            assertThat(counters.get(SystemCounter.GSO_TRAINS_SENT).get()).isEqualTo(3);
            assertThat(counters.get(SystemCounter.GRO_TRAINS_RECEIVED).get()).as("once busy").isOne();
        }
    }

    /** Closed sockets refuse: a receive is an error, a send a failed send, and neither touches freed memory. */
    @Test
    void closedSocketsRefuseEveryCall() throws Exception {
        final MulticastAddress address = address(41_200);
        final DatagramReceiver receiver = media.openReceiver(address, 41_200, counters);
        final DatagramSender sender = media.openSender(address, 41_200, counters);
        final UnsafeBuffer datagram = new UnsafeBuffer(ByteBuffer.allocateDirect(64));
        receiver.close();
        sender.close();

        assertThat(receiver.receive()).isEqualTo(-1);
        assertThat(sender.send(datagram, 0, 8)).isFalse();
        sender.flush();

        assertThat(counters.get(SystemCounter.ERRORS).get()).isOne();
        assertThat(counters.get(SystemCounter.SEND_FAILURES).get()).isOne();
        assertThat(counters.get(SystemCounter.DATAGRAMS_SENT).get()).isZero();
    }

    /**
     * Only a run of one length, with at most one shorter datagram closing it, makes a train; a
     * datagram longer than the one before it begins a new run, and one whose neighbours differ
     * goes alone.
     */
    @Test
    void datagramsOfVariedLengthsGoAsTrainsWhereTheyRunEqualAndAloneElsewhere() throws Exception {
        final MulticastAddress address = address(41_170);
        try (DatagramReceiver receiver = media.openReceiver(address, 41_170, counters);
            DatagramSender sender = media.openSender(address, 41_170, counters)) {
            final int[] lengths = {100, 100, 100, 50, 200, 300, 300, 10, 8, 8};

            send(sender, lengths);

            expect(receiver, lengths);
            assertThat(counters.get(SystemCounter.GSO_TRAINS_SENT).get()).as("100x3+50, 300x2+10, 8x2").isEqualTo(3);
            assertThat(counters.get(SystemCounter.DATAGRAMS_SENT).get()).isEqualTo(lengths.length);
        }
    }

    /**
     * A socket sending without UDP checksums (SO_NO_CHECK) is refused every train (EINVAL), as a
     * device without checksum offload is (EIO): the socket goes on sending each datagram alone, and
     * nothing is lost or reordered.
     */
    @Test
    void aSocketTheKernelRefusesTrainsSendsEachDatagramAloneAndLosesNothing() throws Exception {
        final MulticastAddress address = address(41_180);
        try (DatagramReceiver receiver = media.openReceiver(address, 41_180, counters);
            BatchingSender sender = (BatchingSender) media.openSender(address, 41_180, counters)) {
            sender.socket().setInt(Libc.SOL_SOCKET, Libc.SO_NO_CHECK, 1, "SO_NO_CHECK");
            final int[] lengths = {500, 500, 500, 120, 64, 300, 300};

            send(sender, lengths);
            expect(receiver, lengths);
            send(sender, new int[] {200, 200});
            expect(receiver, new int[] {200, 200});

            assertThat(counters.get(SystemCounter.GSO_TRAINS_SENT).get()).isZero();
            assertThat(counters.get(SystemCounter.DATAGRAMS_SENT).get()).isEqualTo(lengths.length + 2);
        }
    }

    /**
     * Sends more datagrams than one call of a native receiver takes, of lengths that make no train,
     * and reads them on every receiver: a native receiver that finds a full batch asks for UDP GRO.
     */
    private static void fillABatch(DatagramSender sender, DatagramReceiver... receivers) throws InterruptedException {
        final int[] lengths = new int[BatchingReceiver.BATCH + 1];
        for (int i = 0; i < lengths.length; i++) {
            lengths[i] = 8 + i;
        }
        send(sender, lengths);
        for (DatagramReceiver receiver : receivers) {
            expect(receiver, lengths);
        }
    }

    /** Datagrams of the given lengths, each holding its index at its start, and a flush. */
    private static void send(DatagramSender sender, int[] lengths) {
        final UnsafeBuffer datagram = new UnsafeBuffer(ByteBuffer.allocateDirect(2_000));
        for (int i = 0; i < lengths.length; i++) {
            datagram.setMemory(0, lengths[i], (byte) i);
            datagram.putInt(0, i);
            assertThat(sender.send(datagram, 0, lengths[i])).isTrue();
        }
        sender.flush();
    }

    /** Each datagram {@link #send} sent, in order, whole, from one sender, then nothing. */
    private static void expect(DatagramReceiver receiver, int[] lengths) throws InterruptedException {
        final DatagramSource first = new DatagramSource();
        for (int i = 0; i < lengths.length; i++) {
            assertThat(receiveWithin(receiver, 2_000)).as("datagram %d", i).isEqualTo(lengths[i]);
            assertThat(receiver.buffer().getInt(0)).isEqualTo(i);
            assertThat(receiver.buffer().getByte(lengths[i] - 1)).isEqualTo((byte) (lengths[i] > 4 ? i : 0));
            if (i == 0) {
                first.copy(receiver.source());
            }
            assertThat(receiver.source().sameAs(first)).isTrue();
        }
        assertThat(receiver.receive()).isZero();
    }

    @Test
    void theLargestUdpDatagramComesWhole() throws Exception {
        final MulticastAddress address = address(41_120);
        try (DatagramReceiver receiver = media.openReceiver(address, 41_120, counters);
            DatagramSender sender = media.openSender(address, 41_120, counters)) {
            final int largest = 65_507;
            final UnsafeBuffer datagram = new UnsafeBuffer(ByteBuffer.allocateDirect(largest));
            datagram.putInt(largest - 4, 0xCAFE_F00D);
            sender.send(datagram, 0, largest);
            sender.flush();

            assertThat(receiveWithin(receiver, 2_000)).isEqualTo(largest);
            assertThat(receiver.buffer().getInt(largest - 4)).isEqualTo(0xCAFE_F00D);
        }
    }

    /**
     * Two senders taking turns: the native receiver reads each datagram's source as Java's channel
     * decodes it (on lo a socket sending multicast by interface index has source address 0.0.0.0:
     * lo's 127.0.0.1 is of host scope; the ports tell the senders apart).
     */
    @Test
    void eachDatagramTellsTheSameSourceAsJavasOwnChannelDoes() throws Exception {
        final MulticastAddress address = address(41_150);
        final NioMedia nio = new NioMedia();
        try (DatagramReceiver receiver = media.openReceiver(address, 41_150, counters);
            DatagramReceiver reference = nio.openReceiver(address, 41_150, counters);
            DatagramSender one = media.openSender(address, 41_150, counters);
            DatagramSender other = nio.openSender(address, 41_150, counters)) {
            final UnsafeBuffer datagram = new UnsafeBuffer(ByteBuffer.allocateDirect(64));
            for (int i = 0; i < 4; i++) {
                final DatagramSender sender = i % 2 == 0 ? one : other;
                assertThat(sender.send(datagram, 0, 8 + i)).isTrue();
                sender.flush();
            }
            final DatagramSource first = new DatagramSource();
            for (int i = 0; i < 4; i++) {
                assertThat(receiveWithin(receiver, 2_000)).isEqualTo(8 + i);
                assertThat(receiveWithin(reference, 2_000)).isEqualTo(8 + i);
                assertThat(receiver.source().sameAs(reference.source())).as("%s against %s", receiver.source(),
                    reference.source()).isTrue();
                assertThat(receiver.source().isKnown()).isTrue();
                if (i == 0) {
                    first.copy(receiver.source());
                }
                assertThat(receiver.source().sameAs(first)).as("datagram %d", i).isEqualTo(i % 2 == 0);
            }
        }
    }

    @Test
    void aPortHeldWithoutAddressReuseIsAClearError() throws Exception {
        final MulticastAddress address = address(41_130);
        try (DatagramSocket squatter = new DatagramSocket(null)) {
            squatter.setReuseAddress(false);
            squatter.bind(new InetSocketAddress(41_130));

            assertThatThrownBy(() -> media.openReceiver(address, 41_130, counters))
                .isInstanceOf(TransportException.class)
                .hasMessageContaining("239.255.10.1:41130 on lo")
                .hasMessageContaining("Address already in use")
                .hasMessageEndingWith(Media.LISTEN_REFUSED_HINT);
        }
    }

    /**
     * Two senders taking turns, as two publishers on one data port or several receivers' NAKs on one
     * control port: Java's DatagramChannel allocates the sender's address for each such datagram;
     * the native receiver reads the address the kernel writes and allocates nothing, with trains of
     * datagrams (UDP GSO and GRO) both ways.
     */
    @Test
    void receivingFromSendersTakingTurnsAllocatesNothing() throws Exception {
        final MulticastAddress address = address(41_140);
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        try (DatagramReceiver receiver = media.openReceiver(address, 41_140, counters);
            DatagramSender one = media.openSender(address, 41_140, counters);
            DatagramSender other = media.openSender(address, 41_140, counters)) {
            final UnsafeBuffer datagram = new UnsafeBuffer(ByteBuffer.allocateDirect(1_408));
            fillABatch(one, receiver);
            exchange(one, other, receiver, datagram, 200_000);
            long allocated = Long.MAX_VALUE;
            long received = 0;
            // The JIT may still compile after the warm-up, and code compiled anew may allocate as it first runs.
            for (int window = 0; window < 10 && allocated != 0; window++) {
                final long before = threads.getCurrentThreadAllocatedBytes();
                received = exchange(one, other, receiver, datagram, 20_000);
                allocated = threads.getCurrentThreadAllocatedBytes() - before;
            }

            assertThat(received).isEqualTo(20_000);
            assertThat(allocated).as("bytes allocated sending and receiving %d datagrams from two senders in turn",
                received).isZero();
            assertThat(counters.get(SystemCounter.GSO_TRAINS_SENT).get()).as("trains sent").isPositive();
            assertThat(counters.get(SystemCounter.GRO_TRAINS_RECEIVED).get()).as("trains received").isPositive();
        }
    }

    /**
     * Sends {@code datagrams}, a train of {@value #TRAIN} from each sender in turn, and receives
     * them; answers how many came.
     */
    private static long exchange(DatagramSender one, DatagramSender other, DatagramReceiver receiver,
                                 UnsafeBuffer datagram, int datagrams) {
        long received = 0;
        for (int i = 0; i < datagrams; i++) {
            final DatagramSender sender = (i / TRAIN & 1) == 0 ? one : other;
            datagram.putInt(0, i);
            sender.send(datagram, 0, datagram.capacity());
            if (i % TRAIN == TRAIN - 1) {
                sender.flush();
            }
            while (receiver.receive() > 0) {
                received++;
            }
        }
        for (int idle = 0; idle < 1_000 && received < datagrams; idle++) {
            while (receiver.receive() > 0) {
                received++;
            }
            Thread.onSpinWait();
        }
        return received;
    }

    private static int receiveWithin(DatagramReceiver receiver, long millis) throws InterruptedException {
        final long deadline = System.currentTimeMillis() + millis;
        while (System.currentTimeMillis() < deadline) {
            final int length = receiver.receive();
            if (length != 0) {
                return length;
            }
            Thread.sleep(1);
        }
        return 0;
    }
}
