package org.nakcast.media.linux;

import com.sun.management.ThreadMXBean;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One measured flow of 1408-byte datagrams from a sender thread to a receiver thread on another
 * socket of the same JVM, the part of {@code ops/syscall-batching} that needs only Java 17: the
 * run loop, the two paths (loopback multicast as nakcast sends, and unicast 127.0.0.1), the NIO
 * {@link DatagramChannel} sender and receiver of nakcast's {@code nio} media, and, as this class's
 * {@code main}, that baseline and the allocation of its receiver on the running JDK (nakcast's
 * own, 17). Compiled for Java 17 (this module's pom), unlike the rest of the module, and using
 * nothing of it, so that JDK 17 runs it; {@link SyscallBatching} measures the rest on JDK 22+.
 *
 * <p>The sender is held to the receiver, as nakcast's flow control {@code min} holds a publisher:
 * it sends only while fewer than {@code window} datagrams are in flight (0: unheld, it sends as
 * fast as it can and the receiver's socket drops what it cannot hold). Both threads poll
 * non-blocking sockets and yield the core when there is nothing to do (on a small shared machine a
 * busy spin starves the other thread), like nakcast's agents with a back-off idle strategy.
 *
 * <pre>
 *   java -cp JAR org.nakcast.media.linux.DatagramRun PATH SECONDS ROUNDS WINDOW RCVBUF_BYTES
 * </pre>
 * inside a private network namespace.
 */
final class DatagramRun {
    /** Bytes of each datagram: nakcast's default datagram size. */
    static final int DATAGRAM_BYTES = 1408;
    /** Room for the largest datagram the receivers take, as nakcast's receiver keeps. */
    static final int RECEIVE_SLOT_BYTES = 2048;
    /** SO_SNDBUF every sender asks for: nakcast's default socket buffers, 2 MiB. */
    static final int SEND_BUFFER_BYTES = 2 << 20;
    /** A receiver that has heard nothing for this long after its sender stopped has all there is. */
    private static final long DRAIN_NS = 200_000_000L;
    private static final ThreadMXBean THREADS = (ThreadMXBean) ManagementFactory.getThreadMXBean();

    private DatagramRun() {
    }

    /** Sends datagrams; one implementation per way of sending. */
    interface Sender extends AutoCloseable {
        /**
         * Sends up to {@code max} datagrams (at least 1) in as few system calls as this sender makes.
         *
         * @return the datagrams the kernel took; 0 if it would have blocked
         * @throws IOException if the kernel refused for any other reason
         */
        int send(int max) throws IOException;

        @Override
        void close() throws IOException;
    }

    /** Receives datagrams; one implementation per way of receiving. */
    interface Receiver extends AutoCloseable {
        /**
         * Receives what is waiting, up to this receiver's batch, without blocking.
         *
         * @return the 1408-byte datagrams received (a GRO receiver counts the segments); 0 if none
         * @throws IOException if the kernel refused
         */
        int receive() throws IOException;

        @Override
        void close() throws IOException;
    }

    /** Where the datagrams go: a multicast group on {@code lo}, or 127.0.0.1. */
    record Route(String name, InetAddress address, boolean multicast) {
        static Route parse(String name) throws IOException {
            return switch (name) {
                case "multicast" -> new Route(name, InetAddress.getByName("239.255.77.1"), true);
                case "unicast" -> new Route(name, InetAddress.getLoopbackAddress(), false);
                default -> throw new IllegalArgumentException("unknown path '" + name + "' (multicast or unicast)");
            };
        }

        /** The loopback interface: multicast goes out of it and is joined on it. */
        static NetworkInterface loopback() throws IOException {
            return NetworkInterface.getByInetAddress(InetAddress.getLoopbackAddress());
        }
    }

    /** What one run measured; {@code refused} is null unless the kernel refused the mode. */
    record Result(long sent, long received, double seconds, long sendCalls, long receiveCalls,
                  long senderCpuNs, long receiverCpuNs, long receiverAllocatedBytes, String refused) {
        static Result refused(String why) {
            return new Result(0, 0, 0, 0, 0, 0, 0, 0, why);
        }

        double sentPerSecond() {
            return sent / seconds;
        }

        double receivedPerSecond() {
            return received / seconds;
        }
    }

    /** When the sender stops: at a deadline, or after a number of datagrams. */
    record Stop(long durationNs, long datagrams) {
        static Stop after(double seconds) {
            return new Stop((long) (seconds * 1e9), Long.MAX_VALUE);
        }

        static Stop afterDatagrams(long datagrams) {
            return new Stop(Long.MAX_VALUE / 4, datagrams);
        }
    }

    /**
     * Runs {@code sender} on a thread of its own against {@code receiver} on another until
     * {@code stop}, then lets the receiver drain, and closes both.
     *
     * @param batch  the most datagrams the sender is offered per call
     * @param window the most datagrams in flight; 0 for no limit
     */
    static Result run(Sender sender, Receiver receiver, int batch, int window, Stop stop) throws Exception {
        final Flow flow = new Flow();
        final Thread receiving = new Thread(() -> flow.receiveAll(receiver), "receiver");
        final Thread sending = new Thread(() -> flow.sendAll(sender, batch, window, stop), "sender");
        try (sender; receiver) {
            receiving.start();
            sending.start();
            sending.join();
            receiving.join();
        }
        return new Result(flow.sent, flow.received.get(), flow.sendNs / 1e9, flow.sendCalls, flow.receiveCalls,
            flow.senderCpuNs, flow.receiverCpuNs, flow.receiverAllocatedBytes, flow.failure);
    }

    /** The state the two threads of one run share. */
    private static final class Flow {
        final AtomicLong received = new AtomicLong();
        volatile boolean senderDone;
        volatile String failure;
        long sent;
        long sendNs;
        long sendCalls;
        long senderCpuNs;
        long receiveCalls;
        long receiverCpuNs;
        long receiverAllocatedBytes;

        void sendAll(Sender sender, int batch, int window, Stop stop) {
            final long cpuStart = THREADS.getCurrentThreadCpuTime();
            final long start = System.nanoTime();
            final long deadline = start + stop.durationNs();
            long count = 0;
            long calls = 0;
            try {
                while (count < stop.datagrams() && System.nanoTime() - deadline < 0) {
                    final int allowed = allowed(count, batch, window, stop.datagrams());
                    final int n = allowed > 0 ? sender.send(allowed) : 0;
                    if (n > 0) {
                        count += n;
                        calls++;
                    } else {
                        Thread.yield();
                    }
                }
            } catch (IOException ex) {
                failure = "send: " + ex.getMessage();
            } finally {
                sendNs = System.nanoTime() - start;
                senderCpuNs = THREADS.getCurrentThreadCpuTime() - cpuStart;
                sent = count;
                sendCalls = calls;
                senderDone = true;
            }
        }

        private int allowed(long count, int batch, int window, long limit) {
            final long room = window == 0 ? batch : window - (count - received.getAcquire());
            return (int) Math.min(Math.min(batch, room), limit - count);
        }

        void receiveAll(Receiver receiver) {
            final long allocatedStart = THREADS.getCurrentThreadAllocatedBytes();
            final long cpuStart = THREADS.getCurrentThreadCpuTime();
            long count = 0;
            long calls = 0;
            long lastHeard = System.nanoTime();
            try {
                while (true) {
                    final int n = receiver.receive();
                    if (n > 0) {
                        count += n;
                        calls++;
                        received.setRelease(count);
                        lastHeard = System.nanoTime();
                    } else if (senderDone && (count >= sent || System.nanoTime() - lastHeard > DRAIN_NS)) {
                        break;
                    } else {
                        Thread.yield();
                    }
                }
            } catch (IOException ex) {
                failure = "receive: " + ex.getMessage();
                senderDone = true;
            } finally {
                receiverCpuNs = THREADS.getCurrentThreadCpuTime() - cpuStart;
                receiverAllocatedBytes = THREADS.getCurrentThreadAllocatedBytes() - allocatedStart;
                receiveCalls = calls;
            }
        }
    }

    /** Opens a non-blocking NIO socket that receives on {@code route}'s address and {@code port}. */
    static DatagramChannel openReceiving(Route route, int port, int receiveBufferBytes) throws IOException {
        final DatagramChannel channel = DatagramChannel.open(StandardProtocolFamily.INET);
        channel.setOption(StandardSocketOptions.SO_REUSEADDR, true);
        channel.setOption(StandardSocketOptions.SO_RCVBUF, receiveBufferBytes);
        channel.bind(new InetSocketAddress(route.address(), port));
        if (route.multicast()) {
            channel.join(route.address(), Route.loopback());
        }
        channel.configureBlocking(false);
        return channel;
    }

    /** Opens a non-blocking NIO socket that sends to {@code route}: multicast as nakcast's sender does. */
    static DatagramChannel openSending(Route route, int port, boolean connect) throws IOException {
        final DatagramChannel channel = DatagramChannel.open(StandardProtocolFamily.INET);
        channel.setOption(StandardSocketOptions.SO_SNDBUF, SEND_BUFFER_BYTES);
        if (route.multicast()) {
            channel.setOption(StandardSocketOptions.IP_MULTICAST_IF, Route.loopback());
            channel.setOption(StandardSocketOptions.IP_MULTICAST_TTL, 0);
            channel.setOption(StandardSocketOptions.IP_MULTICAST_LOOP, true);
        }
        if (connect) {
            channel.connect(new InetSocketAddress(route.address(), port));
        }
        channel.configureBlocking(false);
        return channel;
    }

    /** nakcast's way today: one {@code write} on a connected non-blocking channel per datagram. */
    static final class NioSender implements Sender {
        private final DatagramChannel channel;
        private final ByteBuffer datagram = ByteBuffer.allocateDirect(DATAGRAM_BYTES);

        NioSender(Route route, int port) throws IOException {
            this.channel = openSending(route, port, true);
        }

        @Override
        public int send(int max) throws IOException {
            datagram.clear();
            return channel.write(datagram) == DATAGRAM_BYTES ? 1 : 0;
        }

        @Override
        public void close() throws IOException {
            channel.close();
        }
    }

    /**
     * Datagrams from several senders' sockets in turn, one each, as a receiver hears several
     * publishers (and the NAKs and status messages of several receivers): what defeats the one-entry
     * sender-address cache of {@code DatagramChannel.receive} on JDK 17.
     */
    static final class AlternatingSender implements Sender {
        private final DatagramChannel[] channels;
        private final InetSocketAddress target;
        private final ByteBuffer datagram = ByteBuffer.allocateDirect(DATAGRAM_BYTES);
        private int next;

        AlternatingSender(Route route, int port, int senders) throws IOException {
            this.channels = new DatagramChannel[senders];
            this.target = new InetSocketAddress(route.address(), port);
            for (int i = 0; i < senders; i++) {
                channels[i] = openSending(route, port, false);
                channels[i].bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            }
        }

        @Override
        public int send(int max) throws IOException {
            datagram.clear();
            final int sent = channels[next].send(datagram, target);
            next = (next + 1) % channels.length;
            return sent == DATAGRAM_BYTES ? 1 : 0;
        }

        @Override
        public void close() throws IOException {
            for (DatagramChannel channel : channels) {
                channel.close();
            }
        }
    }

    /** nakcast's way today: one {@code receive} on a non-blocking channel per datagram. */
    static final class NioReceiver implements Receiver {
        private final DatagramChannel channel;
        private final ByteBuffer slot = ByteBuffer.allocateDirect(RECEIVE_SLOT_BYTES);

        NioReceiver(Route route, int port, int receiveBufferBytes) throws IOException {
            this.channel = openReceiving(route, port, receiveBufferBytes);
        }

        @Override
        public int receive() throws IOException {
            slot.clear();
            return channel.receive(slot) == null ? 0 : 1;
        }

        @Override
        public void close() throws IOException {
            channel.close();
        }
    }

    /** Makes a receiver for one run; the allocation probe takes any way of receiving. */
    interface ReceiverFactory {
        Receiver open(Route route, int port, int receiveBufferBytes) throws IOException;
    }

    /**
     * Bytes the receiving thread allocates per datagram in a steady state, with {@code senders}
     * senders' sockets taking turns: a warm-up run first, then a measured one of {@code datagrams}.
     */
    static double allocatedBytesPerDatagram(ReceiverFactory receivers, Route route, int port, int senders,
                                            long datagrams) throws Exception {
        Result result = null;
        for (int pass = 0; pass < 2; pass++) {
            result = run(new AlternatingSender(route, port + pass, senders),
                receivers.open(route, port + pass, 2 << 20), 1, 256, Stop.afterDatagrams(datagrams));
            if (result.refused() != null) {
                throw new IOException(result.refused());
            }
        }
        return (double) result.receiverAllocatedBytes() / result.received();
    }

    /**
     * On the running JDK (nakcast's own, 17): the NIO baseline's datagrams a second, median of
     * {@code rounds} runs of {@code seconds}, and {@code DatagramChannel.receive}'s allocation per
     * datagram from one sender and from two. Arguments: PATH SECONDS ROUNDS WINDOW RCVBUF_BYTES.
     */
    public static void main(String[] args) throws Exception {
        final Route route = Route.parse(args[0]);
        final double seconds = Double.parseDouble(args[1]);
        final int rounds = Integer.parseInt(args[2]);
        final int window = Integer.parseInt(args[3]);
        final int receiveBufferBytes = Integer.parseInt(args[4]);
        final double[] rates = new double[rounds];
        run(new NioSender(route, 40_900), new NioReceiver(route, 40_900, receiveBufferBytes), 1, window,
            Stop.after(1));
        for (int i = 0; i < rounds; i++) {
            final Result result = run(new NioSender(route, 40_901 + i),
                new NioReceiver(route, 40_901 + i, receiveBufferBytes), 1, window, Stop.after(seconds));
            rates[i] = result.receivedPerSecond();
        }
        Arrays.sort(rates);
        final long datagrams = 200_000;
        final double one = allocatedBytesPerDatagram(NioReceiver::new, route, 41_000, 1, datagrams);
        final double two = allocatedBytesPerDatagram(NioReceiver::new, route, 41_010, 2, datagrams);
        final String jdk = "JDK " + Runtime.version().feature();
        System.out.printf("%s nio, %s: %,.0f datagrams/s received (median of %d x %.0f s; not the same run as the "
            + "table's)%n", jdk, route.name(), rates[rounds / 2], rounds, seconds);
        System.out.printf("%s DatagramChannel.receive, %s: %.1f B/datagram from 1 sender, %.1f B/datagram from 2 "
            + "senders alternating (%d datagrams each, after a warm-up pass)%n",
            jdk, route.name(), one, two, datagrams);
    }
}
