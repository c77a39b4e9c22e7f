package org.nakcast.media.linux;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

import org.nakcast.transport.TransportException;
import org.nakcast.transport.media.MulticastAddress;

/**
 * {@code ops/syscall-batching}: how many 1408-byte datagrams a second one sender thread and one
 * receiver thread move over loopback when each system call carries one datagram (NIO, as nakcast's
 * {@code nio} media does, and the same through the foreign function API) and when it carries many
 * ({@code sendmmsg}/{@code recvmmsg}, UDP GSO, UDP GRO). It is the upper bound of what a media
 * layer that batches system calls can give nakcast: the datagrams here carry no protocol work.
 *
 * <p>Modes ({@code --modes}, all by default; {@code nio} is the baseline every ratio is against):
 * <pre>
 *   nio      DatagramChannel write / receive, one datagram per call (the nio media)
 *   ffm-1    sendto / recvfrom through java.lang.foreign, one datagram per call
 *   mmsg-8   sendmmsg of 8 datagrams / recvmmsg of up to 32
 *   mmsg-32  sendmmsg of 32 / recvmmsg of up to 32
 *   gso      one sendmsg carrying 45 datagrams (UDP_SEGMENT 1408, 63 360 bytes) / recvmmsg of up to 32
 *   gso-gro  the same send; the receiver sets UDP_GRO and takes up to 8 segment trains per recvmmsg,
 *            counting the segments from each train's UDP_GRO control message
 * </pre>
 * Rounds are interleaved (round 1: every mode, round 2: every mode, ...), and the table gives
 * per-mode medians and the median of each round's ratio to {@code nio} in that round, so load
 * from other work on the machine touches baseline and candidate alike. The sender is held to at
 * most {@code --window} datagrams ahead of the receiver (nakcast's flow control {@code min}); a
 * mode the kernel refuses (an errno from setsockopt or sendmsg) is reported as refused.
 *
 * <p>The sockets are the native media's ({@link UdpSocket}, through {@link Libc}): on the multicast
 * path set up as the media sets up its own, on the unicast path bound or connected to 127.0.0.1.
 * Needs JDK 22+ (the FFM API) and Linux on a 64-bit LP64 ABI (x86-64, aarch64), as the media does.
 * Run it inside a private network namespace ({@code ops/syscall-batching} does).
 */
final class SyscallBatching {
    private static final String USAGE = """
        usage: java --enable-native-access=ALL-UNNAMED -cp JAR org.nakcast.media.linux.SyscallBatching [options]
          --seconds S           measured seconds per run (default 5)
          --rounds N            interleaved rounds; medians over them (default 3)
          --warmup S            one unreported run per mode and path first, of S seconds (default 1)
          --paths LIST          multicast,unicast (default both): 239.255.77.1 on lo with TTL 0, or 127.0.0.1
          --modes LIST          nio,ffm-1,mmsg-8,mmsg-32,gso,gso-gro (default all; nio is always run)
          --rcvbuf LIST         receiver SO_RCVBUF asked for, e.g. 2m,4m (default 2m, nakcast's default;
                                the kernel doubles it, up to net.core.rmem_max)
          --window N            most datagrams in flight, the sender held to the receiver (default 512;
                                0: unheld, the receiver's socket drops what it cannot hold)
          --messages-per-datagram N   70-byte messages a 1408-byte nakcast datagram carries (default 18)
          --allocation-datagrams N    datagrams per allocation probe (default 200000; 0 skips the probe)
        """;

    private SyscallBatching() {
    }

    /** The command line, checked before anything is sent. */
    record Options(double seconds, int rounds, double warmup, List<String> paths, List<Mode> modes,
                   List<Integer> receiveBuffers, int window, int messagesPerDatagram, long allocationDatagrams) {
        static Options parse(String[] args) {
            final Map<String, String> values = new LinkedHashMap<>(Map.of("--seconds", "5", "--rounds", "3",
                "--warmup", "1", "--paths", "multicast,unicast", "--modes", "all", "--rcvbuf", "2m",
                "--window", "512", "--messages-per-datagram", "18", "--allocation-datagrams", "200000"));
            for (int i = 0; i < args.length; i += 2) {
                if (!values.containsKey(args[i]) || i + 1 == args.length) {
                    throw new IllegalArgumentException("unknown option or missing value: " + args[i]);
                }
                values.put(args[i], args[i + 1]);
            }
            final List<Mode> modes = new ArrayList<>(List.of(Mode.NIO));
            for (String name : values.get("--modes").equals("all") ? Mode.names() : list(values.get("--modes"))) {
                final Mode mode = Mode.named(name);
                if (!modes.contains(mode)) {
                    modes.add(mode);
                }
            }
            return new Options(Double.parseDouble(values.get("--seconds")), Integer.parseInt(values.get("--rounds")),
                Double.parseDouble(values.get("--warmup")), list(values.get("--paths")), modes,
                list(values.get("--rcvbuf")).stream().map(SyscallBatching::parseSize).toList(),
                Integer.parseInt(values.get("--window")), Integer.parseInt(values.get("--messages-per-datagram")),
                Long.parseLong(values.get("--allocation-datagrams")));
        }

        private static List<String> list(String value) {
            return Arrays.asList(value.split(","));
        }
    }

    static int parseSize(String value) {
        final String lower = value.toLowerCase(Locale.ROOT);
        final char unit = lower.charAt(lower.length() - 1);
        final int shift = unit == 'k' ? 10 : unit == 'm' ? 20 : 0;
        return Integer.parseInt(shift == 0 ? lower : lower.substring(0, lower.length() - 1)) << shift;
    }

    /** The datagrams one GSO send carries: 45 x 1408 = 63 360 bytes, under the 65 507 a UDP datagram holds. */
    static final int GSO_SEGMENTS = 45;
    /** Room for one GRO train: a whole 64 KiB UDP payload. */
    static final int GRO_SLOT_BYTES = 65_536;


    /**
     * A socket that receives on {@code route}'s address and port, with SO_RCVBUF asked for: on the
     * multicast path the native media's own, joined on lo.
     */
    static UdpSocket receiving(DatagramRun.Route route, int port, int receiveBufferBytes) throws IOException {
        return route.multicast() ? UdpSocket.listening(onLoopback(route, port, receiveBufferBytes), port)
            : UdpSocket.bound(route.address(), port, receiveBufferBytes);
    }

    /** A socket connected to {@code route}; on the multicast path the native media's own: out of lo, TTL 0, loop on. */
    static UdpSocket sending(DatagramRun.Route route, int port) throws IOException {
        return route.multicast() ? UdpSocket.sendingTo(onLoopback(route, port, 0), port)
            : UdpSocket.connected(route.address(), port, DatagramRun.SEND_BUFFER_BYTES);
    }

    /**
     * The multicast path as a transport's address: the group on lo, TTL 0, 2 MiB SO_SNDBUF (a
     * receiver's unused), {@code receiveBufferBytes} SO_RCVBUF (a sender's unused), the control port unused.
     */
    private static MulticastAddress onLoopback(DatagramRun.Route route, int port, int receiveBufferBytes)
        throws IOException {
        return new MulticastAddress(DatagramRun.Route.loopback(), route.address(), port, port + 1, 0,
            DatagramRun.SEND_BUFFER_BYTES, receiveBufferBytes, null, false);
    }

    /** {@code result} of a call on {@code socket} (0: try again); -1 is an IOException naming the call and errno. */
    static long countOrThrow(UdpSocket socket, long result, String call) throws IOException {
        if (result < 0) {
            throw new IOException(call + " refused: " + socket.lastError());
        }
        return result;
    }

    /** sendto on a connected socket, one datagram per call. */
    static final class SendtoSender implements DatagramRun.Sender {
        private final UdpSocket socket;
        private final MemorySegment datagram;

        SendtoSender(DatagramRun.Route route, int port) throws IOException {
            this.socket = sending(route, port);
            this.datagram = socket.allocate(DatagramRun.DATAGRAM_BYTES, 8);
        }

        @Override
        public int send(int max) throws IOException {
            return countOrThrow(socket, socket.sendOne(datagram, datagram.byteSize()), "sendto") > 0 ? 1 : 0;
        }

        @Override
        public void close() {
            socket.close();
        }
    }

    /** recvfrom, one datagram per call, with the sender's address taken into a reused sockaddr_in. */
    static final class RecvfromReceiver implements DatagramRun.Receiver {
        private final UdpSocket socket;
        private final MemorySegment slot;
        private final MemorySegment from;
        private final MemorySegment fromLength;

        RecvfromReceiver(DatagramRun.Route route, int port, int receiveBufferBytes) throws IOException {
            this.socket = receiving(route, port, receiveBufferBytes);
            this.slot = socket.allocate(DatagramRun.RECEIVE_SLOT_BYTES, 8);
            this.from = socket.allocate(UdpSocket.SOCKADDR_IN_BYTES, 8);
            this.fromLength = socket.allocate(Integer.BYTES, Integer.BYTES);
        }

        @Override
        public int receive() throws IOException {
            fromLength.set(ValueLayout.JAVA_INT, 0, UdpSocket.SOCKADDR_IN_BYTES);
            final long received = socket.receiveOne(slot, from, fromLength);
            if (received == UdpSocket.NOTHING_WAITING) {
                return 0;
            }
            countOrThrow(socket, received, "recvfrom");
            return 1;
        }

        @Override
        public void close() {
            socket.close();
        }
    }

    /**
     * sendmmsg of up to {@code batch} datagrams, each from its own 1408-byte slot, as from a history
     * ring: the native media's message vector and call.
     */
    static final class SendmmsgSender implements DatagramRun.Sender {
        private final UdpSocket socket;
        private final MemorySegment vector;
        private final int batch;

        SendmmsgSender(DatagramRun.Route route, int port, int batch) throws IOException {
            this.socket = sending(route, port);
            this.batch = batch;
            final MemorySegment datagrams = socket.allocate((long) DatagramRun.DATAGRAM_BYTES * batch, 8);
            this.vector = socket.messageVector(datagrams, batch, DatagramRun.DATAGRAM_BYTES);
        }

        @Override
        public int send(int max) throws IOException {
            return (int) countOrThrow(socket, socket.sendBatch(vector, Math.min(max, batch)), "sendmmsg");
        }

        @Override
        public void close() {
            socket.close();
        }
    }

    /**
     * One sendmsg carrying up to 45 datagrams as one UDP GSO train: a UDP_SEGMENT control message
     * tells the kernel to cut the 63 360 bytes into 1408-byte datagrams, each with its own UDP header.
     */
    static final class GsoSender implements DatagramRun.Sender {
        private final UdpSocket socket;
        private final MemorySegment message;
        private final MemorySegment iovec;

        GsoSender(DatagramRun.Route route, int port) throws IOException {
            this.socket = sending(route, port);
            final MemorySegment train = socket.allocate((long) DatagramRun.DATAGRAM_BYTES * GSO_SEGMENTS, 8);
            this.iovec = socket.allocate(UdpSocket.IOVEC_BYTES, 8);
            iovec.set(ValueLayout.ADDRESS, 0, train);
            iovec.set(ValueLayout.JAVA_LONG, UdpSocket.IOVEC_LENGTH, train.byteSize());
            final MemorySegment control = socket.allocate(UdpSocket.CMSG_SPACE_8, 8);
            control.set(ValueLayout.JAVA_LONG, UdpSocket.CMSG_LEN, UdpSocket.CMSG_DATA + 2);
            control.set(ValueLayout.JAVA_INT, UdpSocket.CMSG_LEVEL, Libc.SOL_UDP);
            control.set(ValueLayout.JAVA_INT, UdpSocket.CMSG_TYPE, Libc.UDP_SEGMENT);
            control.set(ValueLayout.JAVA_SHORT, UdpSocket.CMSG_DATA, (short) DatagramRun.DATAGRAM_BYTES);
            this.message = socket.allocate(UdpSocket.MSGHDR_BYTES, 8);
            message.set(ValueLayout.ADDRESS, UdpSocket.MSG_IOV, iovec);
            message.set(ValueLayout.JAVA_LONG, UdpSocket.MSG_IOVLEN, 1);
            message.set(ValueLayout.ADDRESS, UdpSocket.MSG_CONTROL, control);
            message.set(ValueLayout.JAVA_LONG, UdpSocket.MSG_CONTROLLEN, control.byteSize());
        }

        @Override
        public int send(int max) throws IOException {
            final int segments = Math.min(max, GSO_SEGMENTS);
            iovec.set(ValueLayout.JAVA_LONG, UdpSocket.IOVEC_LENGTH, (long) segments * DatagramRun.DATAGRAM_BYTES);
            return countOrThrow(socket, socket.sendMessage(message), "sendmsg UDP_SEGMENT") > 0 ? segments : 0;
        }

        @Override
        public void close() {
            socket.close();
        }
    }

    /**
     * recvmmsg of up to {@code batch} datagrams into slots of {@code slotBytes}, each with its
     * sender's address (unlike the native media, which asks for none). With {@code gro} the socket
     * sets UDP_GRO and a datagram may be a train of segments; the UDP_GRO control message gives the
     * segment size, and the segments are counted.
     */
    static final class RecvmmsgReceiver implements DatagramRun.Receiver {
        private final UdpSocket socket;
        private final MemorySegment vector;
        private final MemorySegment controls;
        private final int batch;
        private final boolean gro;

        RecvmmsgReceiver(DatagramRun.Route route, int port, int receiveBufferBytes, int batch, boolean gro)
            throws IOException {
            this.socket = receiving(route, port, receiveBufferBytes);
            this.batch = batch;
            this.gro = gro;
            if (gro) {
                socket.setInt(Libc.SOL_UDP, Libc.UDP_GRO, 1, "UDP_GRO");
            }
            final int slotBytes = gro ? GRO_SLOT_BYTES : DatagramRun.RECEIVE_SLOT_BYTES;
            final MemorySegment slots = socket.allocate((long) slotBytes * batch, 8);
            final MemorySegment names = socket.allocate((long) UdpSocket.SOCKADDR_IN_BYTES * batch, 8);
            this.controls = socket.allocate((long) UdpSocket.CMSG_SPACE_8 * batch, 8);
            this.vector = socket.messageVector(slots, batch, slotBytes);
            for (int i = 0; i < batch; i++) {
                final long entry = (long) UdpSocket.MMSGHDR_BYTES * i;
                vector.set(ValueLayout.ADDRESS, entry + UdpSocket.MSG_NAME,
                    names.asSlice((long) UdpSocket.SOCKADDR_IN_BYTES * i, UdpSocket.SOCKADDR_IN_BYTES));
                if (gro) {
                    vector.set(ValueLayout.ADDRESS, entry + UdpSocket.MSG_CONTROL,
                        controls.asSlice((long) UdpSocket.CMSG_SPACE_8 * i, UdpSocket.CMSG_SPACE_8));
                }
            }
        }

        @Override
        public int receive() throws IOException {
            resetLengths();
            final int received = (int) countOrThrow(socket, socket.receiveBatch(vector, batch), "recvmmsg");
            return gro ? segments(received) : received;
        }

        /** The kernel overwrote each entry's name and control lengths with what it used: give back the room. */
        private void resetLengths() {
            for (int i = 0; i < batch; i++) {
                final long entry = (long) UdpSocket.MMSGHDR_BYTES * i;
                vector.set(ValueLayout.JAVA_INT, entry + UdpSocket.MSG_NAMELEN, UdpSocket.SOCKADDR_IN_BYTES);
                if (gro) {
                    vector.set(ValueLayout.JAVA_LONG, entry + UdpSocket.MSG_CONTROLLEN, UdpSocket.CMSG_SPACE_8);
                }
            }
        }

        /** The 1408-byte segments in {@code received} entries: a train's length over its UDP_GRO segment size. */
        private int segments(int received) {
            int segments = 0;
            for (int i = 0; i < received; i++) {
                final long entry = (long) UdpSocket.MMSGHDR_BYTES * i;
                final int length = vector.get(ValueLayout.JAVA_INT, entry + UdpSocket.MSG_LEN);
                final int segmentSize =
                    UdpSocket.groSegmentSize(controls, (long) UdpSocket.CMSG_SPACE_8 * i,
                        vector.get(ValueLayout.JAVA_LONG, entry + UdpSocket.MSG_CONTROLLEN));
                segments += segmentSize > 0 ? (length + segmentSize - 1) / segmentSize : 1;
            }
            return segments;
        }


        @Override
        public void close() {
            socket.close();
        }
    }

    /** The ways of sending and receiving measured, each a sender, a receiver and the batch the sender is offered. */
    enum Mode {
        NIO("nio", "DatagramChannel write / receive (nakcast today)", 1),
        FFM("ffm-1", "sendto / recvfrom via FFM, 1 datagram per call", 1),
        MMSG_8("mmsg-8", "sendmmsg 8 / recvmmsg 32", 8),
        MMSG_32("mmsg-32", "sendmmsg 32 / recvmmsg 32", 32),
        GSO("gso", "sendmsg UDP_SEGMENT 45 x 1408 / recvmmsg 32", GSO_SEGMENTS),
        GSO_GRO("gso-gro", "sendmsg UDP_SEGMENT 45 x 1408 / recvmmsg 8 x 64 KiB, UDP_GRO", GSO_SEGMENTS);

        final String label;
        final String description;
        final int batch;

        Mode(String label, String description, int batch) {
            this.label = label;
            this.description = description;
            this.batch = batch;
        }

        static List<String> names() {
            return Arrays.stream(values()).map(mode -> mode.label).toList();
        }

        static Mode named(String name) {
            return Arrays.stream(values()).filter(mode -> mode.label.equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown mode '" + name + "' (" + names() + ")"));
        }

        DatagramRun.Sender sender(DatagramRun.Route route, int port) throws IOException {
            return switch (this) {
                case NIO -> new DatagramRun.NioSender(route, port);
                case FFM -> new SendtoSender(route, port);
                case MMSG_8, MMSG_32 -> new SendmmsgSender(route, port, batch);
                case GSO, GSO_GRO -> new GsoSender(route, port);
            };
        }

        DatagramRun.Receiver receiver(DatagramRun.Route route, int port, int receiveBufferBytes) throws IOException {
            return switch (this) {
                case NIO -> new DatagramRun.NioReceiver(route, port, receiveBufferBytes);
                case FFM -> new RecvfromReceiver(route, port, receiveBufferBytes);
                case MMSG_8, MMSG_32, GSO -> new RecvmmsgReceiver(route, port, receiveBufferBytes, 32, false);
                case GSO_GRO -> new RecvmmsgReceiver(route, port, receiveBufferBytes, 8, true);
            };
        }
    }

    /** One row of the table: a path, a receive buffer, a mode, and its runs in round order. */
    record Row(DatagramRun.Route route, int receiveBufferBytes, Mode mode, List<DatagramRun.Result> runs) {
    }

    private static int nextPort = 40_000;

    /** One run of {@code mode}: its sockets opened, the flow measured, the sockets closed; a refusal is a result. */
    static DatagramRun.Result runOnce(Mode mode, DatagramRun.Route route, int receiveBufferBytes, int window,
                                      double seconds) throws Exception {
        final int port = nextPort++;
        final DatagramRun.Receiver receiver;
        final DatagramRun.Sender sender;
        try {
            receiver = mode.receiver(route, port, receiveBufferBytes);
        } catch (IOException | TransportException ex) {
            return DatagramRun.Result.refused(ex.getMessage());
        }
        try {
            sender = mode.sender(route, port);
        } catch (IOException | TransportException ex) {
            receiver.close();
            return DatagramRun.Result.refused(ex.getMessage());
        }
        return DatagramRun.run(sender, receiver, mode.batch, window, DatagramRun.Stop.after(seconds));
    }

    public static void main(String[] args) throws Exception {
        if (Arrays.asList(args).contains("--help")) {
            System.out.print(USAGE);
            return;
        }
        final Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException ex) {
            System.err.println(ex.getMessage());
            System.err.print(USAGE);
            System.exit(64);
            return;
        }
        printHeader(options);
        final List<Row> rows = new ArrayList<>();
        for (String path : options.paths()) {
            final DatagramRun.Route route = DatagramRun.Route.parse(path);
            for (int receiveBufferBytes : options.receiveBuffers()) {
                rows.addAll(measure(options, route, receiveBufferBytes));
            }
        }
        printTable(options, rows);
        if (options.allocationDatagrams() > 0) {
            printAllocation(options);
        }
    }

    private static void printHeader(Options options) throws IOException {
        System.out.printf("syscall batching: %d-byte datagrams, one sender thread to one receiver thread, JDK %s, "
                + "%d cores, load %s, window %s, %d x %.1f s per mode (interleaved) after %.1f s warm-up%n",
            DatagramRun.DATAGRAM_BYTES, Runtime.version(), Runtime.getRuntime().availableProcessors(),
            Files.readString(Path.of("/proc/loadavg")).trim(),
            options.window() == 0 ? "unheld" : options.window() + " datagrams", options.rounds(), options.seconds(),
            options.warmup());
        for (Mode mode : options.modes()) {
            System.out.printf("  %-8s %s%n", mode.label, mode.description);
        }
    }

    /** Every mode on one path and buffer: a warm-up run each, then the rounds, interleaved. */
    private static List<Row> measure(Options options, DatagramRun.Route route, int receiveBufferBytes)
        throws Exception {
        System.err.printf("%s, SO_RCVBUF %s asked: the kernel gives %s%n", route.name(), size(receiveBufferBytes),
            size(grantedReceiveBuffer(route, receiveBufferBytes)));
        final List<Row> rows = new ArrayList<>();
        for (Mode mode : options.modes()) {
            if (options.warmup() > 0) {
                runOnce(mode, route, receiveBufferBytes, options.window(), options.warmup());
            }
            rows.add(new Row(route, receiveBufferBytes, mode, new ArrayList<>()));
        }
        for (int round = 1; round <= options.rounds(); round++) {
            for (Row row : rows) {
                final DatagramRun.Result result =
                    runOnce(row.mode(), route, receiveBufferBytes, options.window(), options.seconds());
                row.runs().add(result);
                System.err.printf("  round %d %s rcvbuf %s %-8s %s%n", round, route.name(),
                    size(receiveBufferBytes), row.mode().label, result.refused() != null ? result.refused()
                        : String.format("sent %,.0f/s received %,.0f/s", result.sentPerSecond(),
                        result.receivedPerSecond()));
            }
        }
        return rows;
    }

    /** The receive buffer the kernel gives for {@code asked} (it doubles the figure, up to net.core.rmem_max). */
    private static int grantedReceiveBuffer(DatagramRun.Route route, int asked) throws IOException {
        try (UdpSocket socket = receiving(route, nextPort++, asked)) {
            return socket.getInt(Libc.SOL_SOCKET, Libc.SO_RCVBUF, "SO_RCVBUF");
        }
    }

    private static void printTable(Options options, List<Row> rows) {
        System.out.printf("%n%-9s %-6s %-8s %12s %12s %9s %14s %7s %7s %7s %10s %10s %9s%n", "path", "rcvbuf", "mode",
            "sent/s", "received/s", "recv/sent", "70-B msgs/s", "x nio", "dg/send", "dg/recv", "send ns/dg",
            "recv ns/dg", "CPU x nio");
        Row baseline = null;
        for (Row row : rows) {
            if (row.mode() == Mode.NIO) {
                baseline = row;
            }
            final String refused = row.runs().stream().map(DatagramRun.Result::refused)
                .filter(why -> why != null).findFirst().orElse(null);
            if (refused != null) {
                System.out.printf("%-9s %-6s %-8s refused: %s%n", row.route().name(), size(row.receiveBufferBytes()),
                    row.mode().label, refused);
                continue;
            }
            final double received = median(row.runs(), DatagramRun.Result::receivedPerSecond);
            System.out.printf("%-9s %-6s %-8s %,12.0f %,12.0f %9.4f %,14.0f %6.2fx %7.1f %7.1f %10.0f %10.0f %8.2fx%n",
                row.route().name(), size(row.receiveBufferBytes()), row.mode().label,
                median(row.runs(), DatagramRun.Result::sentPerSecond), received,
                median(row.runs(), run -> (double) run.received() / run.sent()),
                received * options.messagesPerDatagram(), ratio(row, baseline, DatagramRun.Result::receivedPerSecond),
                median(row.runs(), run -> (double) run.sent() / run.sendCalls()),
                median(row.runs(), run -> (double) run.received() / run.receiveCalls()),
                median(row.runs(), run -> (double) run.senderCpuNs() / run.sent()),
                median(row.runs(), run -> (double) run.receiverCpuNs() / run.received()),
                ratio(baseline, row, SyscallBatching::cpuPerDatagram));
        }
        System.out.printf("medians over the rounds; x nio: median of each round's received/s over nio's in that round; "
            + "70-B msgs/s: received/s x %d; dg/send, dg/recv: datagrams per system call; send ns/dg: the sender "
            + "thread's CPU per datagram sent, with its idle polls (on lo it includes the kernel's delivery to the "
            + "receiving socket); recv ns/dg: the receiver thread's per datagram received, with its idle polls; "
            + "CPU x nio: median of each round's nio CPU per datagram, both threads, over this mode's%n",
            options.messagesPerDatagram());
    }

    /** The median over rounds of {@code figure} of {@code over}'s run over {@code under}'s run in the same round. */
    private static double ratio(Row over, Row under, ToDoubleFunction<DatagramRun.Result> figure) {
        final double[] ratios = new double[over.runs().size()];
        for (int i = 0; i < ratios.length; i++) {
            ratios[i] = figure.applyAsDouble(over.runs().get(i)) / figure.applyAsDouble(under.runs().get(i));
        }
        return median(ratios);
    }

    /** Both threads' CPU per datagram received. */
    private static double cpuPerDatagram(DatagramRun.Result run) {
        return (double) (run.senderCpuNs() + run.receiverCpuNs()) / run.received();
    }

    private static double median(List<DatagramRun.Result> runs, ToDoubleFunction<DatagramRun.Result> figure) {
        return median(runs.stream().mapToDouble(figure).toArray());
    }

    private static double median(double[] values) {
        final double[] sorted = values.clone();
        Arrays.sort(sorted);
        final int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }

    private static String size(int bytes) {
        return bytes % (1 << 20) == 0 ? (bytes >> 20) + "m" : bytes % 1024 == 0 ? (bytes >> 10) + "k" : bytes + "";
    }

    /** Bytes the receiving thread allocates per datagram, from one sender and from two taking turns. */
    private static void printAllocation(Options options) throws Exception {
        final DatagramRun.Route route = DatagramRun.Route.parse(options.paths().get(0));
        final Map<String, DatagramRun.ReceiverFactory> receivers = new LinkedHashMap<>();
        receivers.put("DatagramChannel.receive", DatagramRun.NioReceiver::new);
        receivers.put("FFM recvfrom", RecvfromReceiver::new);
        receivers.put("FFM recvmmsg 32", (r, port, bytes) -> new RecvmmsgReceiver(r, port, bytes, 32, false));
        System.out.printf("%nallocation on the receiving thread, %s, %d datagrams per probe after a warm-up probe "
            + "(ThreadMXBean.getCurrentThreadAllocatedBytes):%n", route.name(), options.allocationDatagrams());
        int port = 42_000;
        for (Map.Entry<String, DatagramRun.ReceiverFactory> receiver : receivers.entrySet()) {
            final double one = DatagramRun.allocatedBytesPerDatagram(receiver.getValue(), route, port, 1,
                options.allocationDatagrams());
            final double two = DatagramRun.allocatedBytesPerDatagram(receiver.getValue(), route, port + 2, 2,
                options.allocationDatagrams());
            port += 4;
            System.out.printf("  %-24s %7.1f B/datagram from 1 sender %7.1f B/datagram from 2 senders alternating%n",
                receiver.getKey(), one, two);
        }
    }
}
