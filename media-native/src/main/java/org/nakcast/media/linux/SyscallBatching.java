package org.nakcast.media.linux;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout.PathElement;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.net.InetAddress;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * {@code ops/syscall-batching}: how many 1408-byte datagrams a second one sender thread and one
 * receiver thread move over loopback when each system call carries one datagram (NIO, as nakcast
 * does today, and the same through the foreign function API) and when it carries many
 * ({@code sendmmsg}/{@code recvmmsg}, UDP GSO, UDP GRO). It is the upper bound of what a media
 * layer that batches system calls could give nakcast: the datagrams here carry no protocol work.
 *
 * <p>Modes ({@code --modes}, all by default; {@code nio} is the baseline every ratio is against):
 * <pre>
 *   nio      DatagramChannel write / receive, one datagram per call (nakcast today)
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
 * <p>Needs JDK 22+ (the FFM API) and Linux on a 64-bit LP64 ABI (x86-64, aarch64): the layouts
 * below are those. Run it inside a private network namespace ({@code ops/syscall-batching} does).
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

    // ---------------------------------------------------------------------------------------------
    // Linux constants (<sys/socket.h>, <netinet/in.h>, <netinet/udp.h>, <errno.h>; the same on
    // x86-64 and aarch64)
    // ---------------------------------------------------------------------------------------------
    static final int AF_INET = 2;
    static final int SOCK_DGRAM = 2;
    static final int SOL_SOCKET = 1;
    static final int SO_REUSEADDR = 2;
    static final int SO_SNDBUF = 7;
    static final int SO_RCVBUF = 8;
    static final int IPPROTO_IP = 0;
    static final int IP_MULTICAST_IF = 32;
    static final int IP_MULTICAST_TTL = 33;
    static final int IP_MULTICAST_LOOP = 34;
    static final int IP_ADD_MEMBERSHIP = 35;
    static final int SOL_UDP = 17;
    static final int UDP_SEGMENT = 103;
    static final int UDP_GRO = 104;
    static final int MSG_DONTWAIT = 0x40;
    static final int EAGAIN = 11;
    static final int ENOBUFS = 105;

    /** The datagrams one GSO send carries: 45 x 1408 = 63 360 bytes, under the 65 507 a UDP datagram holds. */
    static final int GSO_SEGMENTS = 45;
    /** Room for one GRO train: a whole 64 KiB UDP payload. */
    static final int GRO_SLOT_BYTES = 65_536;

    // ---------------------------------------------------------------------------------------------
    // Struct layouts (LP64 Linux). Offsets are written out; every field is native byte order unless
    // marked BE (network byte order).
    //
    // struct sockaddr_in (16 bytes)          struct ip_mreq (8 bytes)
    //   0      2      4              8    16   0              4              8
    //   +------+------+--------------+----+    +--------------+--------------+
    //   |family| port |  sin_addr    |zero|    | imr_multiaddr| imr_interface|
    //   | u16  |u16 BE|  u32 BE      | 8  |    |  u32 BE      |  u32 BE      |
    //   +------+------+--------------+----+    +--------------+--------------+
    //
    // struct iovec (16 bytes)
    //   0              8              16
    //   +--------------+--------------+
    //   | iov_base ptr | iov_len u64  |
    //   +--------------+--------------+
    //
    // struct msghdr (56 bytes)
    //   0          8        12       16         24           32            40               48        52   56
    //   +----------+--------+--------+----------+------------+-------------+----------------+---------+----+
    //   | msg_name |namelen |  pad   | msg_iov  | msg_iovlen | msg_control | msg_controllen |msg_flags|pad |
    //   |   ptr    |  u32   |        |   ptr    |    u64     |     ptr     |      u64       |   i32   |    |
    //   +----------+--------+--------+----------+------------+-------------+----------------+---------+----+
    //
    // struct mmsghdr (64 bytes): a msghdr, then the bytes the call moved for it
    //   0                                                   56          60    64
    //   +---------------------------------------------------+-----------+-----+
    //   |                 struct msghdr msg_hdr             | msg_len   | pad |
    //   |                                                   |   u32     |     |
    //   +---------------------------------------------------+-----------+-----+
    //
    // struct cmsghdr, then its data, padded to 8: CMSG_LEN(n) = 16 + n, CMSG_SPACE(n) = 16 + align8(n)
    //   0              8            12           16
    //   +--------------+------------+------------+----------------------+
    //   | cmsg_len u64 | level i32  | type i32   | data                 |
    //   +--------------+------------+------------+----------------------+
    //   UDP_SEGMENT (sent):     level SOL_UDP, type UDP_SEGMENT, data u16 segment size: len 18, space 24
    //   UDP_GRO     (received): level SOL_UDP, type UDP_GRO,     data i32 segment size: len 20, space 24
    // ---------------------------------------------------------------------------------------------
    static final int SOCKADDR_IN_BYTES = 16;
    static final int IOVEC_BYTES = 16;
    static final int IOV_BASE = 0;
    static final int IOV_LEN = 8;
    static final int MSGHDR_BYTES = 56;
    static final int MSG_NAME = 0;
    static final int MSG_NAMELEN = 8;
    static final int MSG_IOV = 16;
    static final int MSG_IOVLEN = 24;
    static final int MSG_CONTROL = 32;
    static final int MSG_CONTROLLEN = 40;
    static final int MMSGHDR_BYTES = 64;
    static final int MMSG_LEN = 56;
    static final int CMSG_LEN = 0;
    static final int CMSG_LEVEL = 8;
    static final int CMSG_TYPE = 12;
    static final int CMSG_DATA = 16;
    /** CMSG_SPACE(n) for any n up to 8: room for one UDP_SEGMENT or UDP_GRO control message. */
    static final int CMSG_SPACE_8 = 24;
    private static final ValueLayout.OfShort U16_BE = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    /** The libc functions, each capturing errno so a refusal can be named. */
    static final class Libc {
        private static final Linker LINKER = Linker.nativeLinker();
        private static final Linker.Option ERRNO = Linker.Option.captureCallState("errno");
        static final long ERRNO_STATE_BYTES = Linker.Option.captureStateLayout().byteSize();
        private static final long ERRNO_OFFSET =
            Linker.Option.captureStateLayout().byteOffset(PathElement.groupElement("errno"));
        private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT;
        private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG;
        private static final ValueLayout PTR = ValueLayout.ADDRESS;

        static final MethodHandle SOCKET = downcall("socket", FunctionDescriptor.of(INT, INT, INT, INT));
        static final MethodHandle SETSOCKOPT =
            downcall("setsockopt", FunctionDescriptor.of(INT, INT, INT, INT, PTR, INT));
        static final MethodHandle GETSOCKOPT =
            downcall("getsockopt", FunctionDescriptor.of(INT, INT, INT, INT, PTR, PTR));
        static final MethodHandle BIND = downcall("bind", FunctionDescriptor.of(INT, INT, PTR, INT));
        static final MethodHandle CONNECT = downcall("connect", FunctionDescriptor.of(INT, INT, PTR, INT));
        static final MethodHandle CLOSE = downcall("close", FunctionDescriptor.of(INT, INT));
        /** ssize_t sendto(int fd, const void *buf, size_t len, int flags, const sockaddr *to, socklen_t tolen). */
        static final MethodHandle SENDTO =
            downcall("sendto", FunctionDescriptor.of(LONG, INT, PTR, LONG, INT, PTR, INT));
        /** ssize_t recvfrom(int fd, void *buf, size_t len, int flags, sockaddr *from, socklen_t *fromlen). */
        static final MethodHandle RECVFROM =
            downcall("recvfrom", FunctionDescriptor.of(LONG, INT, PTR, LONG, INT, PTR, PTR));
        /** ssize_t sendmsg(int fd, const struct msghdr *msg, int flags). */
        static final MethodHandle SENDMSG = downcall("sendmsg", FunctionDescriptor.of(LONG, INT, PTR, INT));
        /** int sendmmsg(int fd, struct mmsghdr *vec, unsigned vlen, int flags). */
        static final MethodHandle SENDMMSG = downcall("sendmmsg", FunctionDescriptor.of(INT, INT, PTR, INT, INT));
        /** int recvmmsg(int fd, struct mmsghdr *vec, unsigned vlen, int flags, struct timespec *timeout). */
        static final MethodHandle RECVMMSG =
            downcall("recvmmsg", FunctionDescriptor.of(INT, INT, PTR, INT, INT, PTR));
        private static final MethodHandle STRERROR = LINKER.downcallHandle(
            LINKER.defaultLookup().find("strerror").orElseThrow(), FunctionDescriptor.of(PTR, INT));

        private Libc() {
        }

        private static MethodHandle downcall(String name, FunctionDescriptor descriptor) {
            return LINKER.downcallHandle(LINKER.defaultLookup().find(name).orElseThrow(), descriptor, ERRNO);
        }

        static int errno(MemorySegment errnoState) {
            return errnoState.get(ValueLayout.JAVA_INT, ERRNO_OFFSET);
        }

        /** "EINVAL-like" text for an errno: its number and libc's words for it. */
        static String describe(int errno) {
            try {
                final MemorySegment text = (MemorySegment) STRERROR.invokeExact(errno);
                return "errno " + errno + " (" + text.reinterpret(256).getString(0) + ")";
            } catch (Throwable ex) {
                throw new AssertionError(ex);
            }
        }

        static long sendto(MemorySegment errno, int fd, MemorySegment buffer, long length) {
            try {
                return (long) SENDTO.invokeExact(errno, fd, buffer, length, MSG_DONTWAIT, MemorySegment.NULL, 0);
            } catch (Throwable ex) {
                throw new AssertionError(ex);
            }
        }

        static long recvfrom(MemorySegment errno, int fd, MemorySegment buffer, MemorySegment from,
                             MemorySegment fromLength) {
            try {
                return (long) RECVFROM.invokeExact(errno, fd, buffer, buffer.byteSize(), MSG_DONTWAIT, from,
                    fromLength);
            } catch (Throwable ex) {
                throw new AssertionError(ex);
            }
        }

        static long sendmsg(MemorySegment errno, int fd, MemorySegment message) {
            try {
                return (long) SENDMSG.invokeExact(errno, fd, message, MSG_DONTWAIT);
            } catch (Throwable ex) {
                throw new AssertionError(ex);
            }
        }

        static int sendmmsg(MemorySegment errno, int fd, MemorySegment vector, int count) {
            try {
                return (int) SENDMMSG.invokeExact(errno, fd, vector, count, MSG_DONTWAIT);
            } catch (Throwable ex) {
                throw new AssertionError(ex);
            }
        }

        static int recvmmsg(MemorySegment errno, int fd, MemorySegment vector, int count) {
            try {
                return (int) RECVMMSG.invokeExact(errno, fd, vector, count, MSG_DONTWAIT, MemorySegment.NULL);
            } catch (Throwable ex) {
                throw new AssertionError(ex);
            }
        }
    }

    /**
     * A UDP socket opened and configured through libc, with its own errno capture (one socket is
     * used by one thread). Setup throws {@link IOException} naming the call and the errno.
     */
    static final class NativeSocket implements AutoCloseable {
        final int fd;
        final MemorySegment errno;
        private final Arena arena;

        private NativeSocket(Arena arena) throws IOException {
            this.arena = arena;
            this.errno = arena.allocate(Libc.ERRNO_STATE_BYTES);
            try {
                this.fd = (int) Libc.SOCKET.invokeExact(errno, AF_INET, SOCK_DGRAM, 0);
            } catch (Throwable ex) {
                throw new AssertionError(ex);
            }
            check(fd, "socket");
        }

        /** A socket that receives on {@code route}'s address and port, with SO_RCVBUF asked for. */
        static NativeSocket receiving(Arena arena, DatagramRun.Route route, int port, int receiveBufferBytes)
            throws IOException {
            final NativeSocket socket = new NativeSocket(arena);
            socket.setInt(SOL_SOCKET, SO_REUSEADDR, 1, "SO_REUSEADDR");
            socket.setInt(SOL_SOCKET, SO_RCVBUF, receiveBufferBytes, "SO_RCVBUF");
            socket.bind(route.address(), port);
            if (route.multicast()) {
                final MemorySegment request = arena.allocate(8);
                putAddress(request, 0, route.address());
                putAddress(request, 4, InetAddress.getLoopbackAddress());
                socket.set(IPPROTO_IP, IP_ADD_MEMBERSHIP, request, "IP_ADD_MEMBERSHIP");
            }
            return socket;
        }

        /** A socket connected to {@code route}; for multicast, out of lo with TTL 0 and loop on, as nakcast's. */
        static NativeSocket sending(Arena arena, DatagramRun.Route route, int port) throws IOException {
            final NativeSocket socket = new NativeSocket(arena);
            socket.setInt(SOL_SOCKET, SO_SNDBUF, 2 << 20, "SO_SNDBUF");
            if (route.multicast()) {
                final MemorySegment loopback = arena.allocate(4);
                putAddress(loopback, 0, InetAddress.getLoopbackAddress());
                socket.set(IPPROTO_IP, IP_MULTICAST_IF, loopback, "IP_MULTICAST_IF");
                socket.setInt(IPPROTO_IP, IP_MULTICAST_TTL, 0, "IP_MULTICAST_TTL");
                socket.setInt(IPPROTO_IP, IP_MULTICAST_LOOP, 1, "IP_MULTICAST_LOOP");
            }
            final MemorySegment address = sockaddrIn(arena, route.address(), port);
            try {
                socket.check((int) Libc.CONNECT.invokeExact(socket.errno, socket.fd, address, SOCKADDR_IN_BYTES),
                    "connect");
            } catch (IOException ex) {
                throw ex;
            } catch (Throwable ex) {
                throw new AssertionError(ex);
            }
            return socket;
        }

        void setInt(int level, int option, int value, String name) throws IOException {
            set(level, option, arena.allocateFrom(ValueLayout.JAVA_INT, value), name);
        }

        void set(int level, int option, MemorySegment value, String name) throws IOException {
            try {
                check((int) Libc.SETSOCKOPT.invokeExact(errno, fd, level, option, value, (int) value.byteSize()),
                    "setsockopt " + name);
            } catch (IOException ex) {
                throw ex;
            } catch (Throwable ex) {
                throw new AssertionError(ex);
            }
        }

        int getInt(int level, int option, String name) throws IOException {
            final MemorySegment value = arena.allocate(ValueLayout.JAVA_INT);
            final MemorySegment length = arena.allocateFrom(ValueLayout.JAVA_INT, 4);
            try {
                check((int) Libc.GETSOCKOPT.invokeExact(errno, fd, level, option, value, length),
                    "getsockopt " + name);
            } catch (IOException ex) {
                throw ex;
            } catch (Throwable ex) {
                throw new AssertionError(ex);
            }
            return value.get(ValueLayout.JAVA_INT, 0);
        }

        private void bind(InetAddress address, int port) throws IOException {
            try {
                check((int) Libc.BIND.invokeExact(errno, fd, sockaddrIn(arena, address, port), SOCKADDR_IN_BYTES),
                    "bind");
            } catch (IOException ex) {
                throw ex;
            } catch (Throwable ex) {
                throw new AssertionError(ex);
            }
        }

        /** Throws, naming {@code call} and errno, if {@code result} is -1. */
        void check(long result, String call) throws IOException {
            if (result < 0) {
                throw new IOException(call + " refused: " + Libc.describe(Libc.errno(errno)));
            }
        }

        /** For a hot-path result: -1 with EAGAIN or ENOBUFS is "try again" (0); any other errno throws. */
        int countOrRetry(long result, String call) throws IOException {
            if (result >= 0) {
                return (int) result;
            }
            final int code = Libc.errno(errno);
            if (code == EAGAIN || code == ENOBUFS) {
                return 0;
            }
            throw new IOException(call + " refused: " + Libc.describe(code));
        }

        @Override
        public void close() {
            try {
                final int ignored = (int) Libc.CLOSE.invokeExact(errno, fd);
            } catch (Throwable ex) {
                throw new AssertionError(ex);
            }
        }
    }

    /** A struct sockaddr_in (see the layout above). */
    static MemorySegment sockaddrIn(Arena arena, InetAddress address, int port) {
        final MemorySegment sockaddr = arena.allocate(SOCKADDR_IN_BYTES);
        sockaddr.set(ValueLayout.JAVA_SHORT, 0, (short) AF_INET);
        sockaddr.set(U16_BE, 2, (short) port);
        putAddress(sockaddr, 4, address);
        return sockaddr;
    }

    /** An IPv4 address in network byte order at {@code offset}. */
    static void putAddress(MemorySegment segment, long offset, InetAddress address) {
        MemorySegment.copy(MemorySegment.ofArray(address.getAddress()), 0, segment, offset, 4);
    }

    /** A struct iovec at {@code offset} of {@code segment}, pointing at {@code buffer}. */
    static void putIovec(MemorySegment segment, long offset, MemorySegment buffer, long length) {
        segment.set(ValueLayout.ADDRESS, offset + IOV_BASE, buffer);
        segment.set(ValueLayout.JAVA_LONG, offset + IOV_LEN, length);
    }

    /** A struct msghdr at {@code offset}: one iovec, and optional name and control buffers. */
    static void putMsghdr(MemorySegment segment, long offset, MemorySegment name, MemorySegment iovec,
                          MemorySegment control) {
        segment.set(ValueLayout.ADDRESS, offset + MSG_NAME, name);
        segment.set(ValueLayout.JAVA_INT, offset + MSG_NAMELEN, (int) name.byteSize());
        segment.set(ValueLayout.ADDRESS, offset + MSG_IOV, iovec);
        segment.set(ValueLayout.JAVA_LONG, offset + MSG_IOVLEN, 1);
        segment.set(ValueLayout.ADDRESS, offset + MSG_CONTROL, control);
        segment.set(ValueLayout.JAVA_LONG, offset + MSG_CONTROLLEN, control.byteSize());
    }

    /** sendto on a connected socket, one datagram per call. */
    static final class SendtoSender implements DatagramRun.Sender {
        private final NativeSocket socket;
        private final MemorySegment datagram;

        SendtoSender(Arena arena, DatagramRun.Route route, int port) throws IOException {
            this.socket = NativeSocket.sending(arena, route, port);
            this.datagram = arena.allocate(DatagramRun.DATAGRAM_BYTES);
        }

        @Override
        public int send(int max) throws IOException {
            return socket.countOrRetry(Libc.sendto(socket.errno, socket.fd, datagram, datagram.byteSize()),
                "sendto") > 0 ? 1 : 0;
        }

        @Override
        public void close() {
            socket.close();
        }
    }

    /** recvfrom, one datagram per call, with the sender's address taken into a reused sockaddr_in. */
    static final class RecvfromReceiver implements DatagramRun.Receiver {
        private final NativeSocket socket;
        private final MemorySegment slot;
        private final MemorySegment from;
        private final MemorySegment fromLength;

        RecvfromReceiver(Arena arena, DatagramRun.Route route, int port, int receiveBufferBytes) throws IOException {
            this.socket = NativeSocket.receiving(arena, route, port, receiveBufferBytes);
            this.slot = arena.allocate(DatagramRun.RECEIVE_SLOT_BYTES);
            this.from = arena.allocate(SOCKADDR_IN_BYTES);
            this.fromLength = arena.allocate(ValueLayout.JAVA_INT);
        }

        @Override
        public int receive() throws IOException {
            fromLength.set(ValueLayout.JAVA_INT, 0, SOCKADDR_IN_BYTES);
            return socket.countOrRetry(Libc.recvfrom(socket.errno, socket.fd, slot, from, fromLength), "recvfrom")
                > 0 ? 1 : 0;
        }

        @Override
        public void close() {
            socket.close();
        }
    }

    /** sendmmsg of up to {@code batch} datagrams, each from its own 1408-byte slot, as from a history ring. */
    static final class SendmmsgSender implements DatagramRun.Sender {
        private final NativeSocket socket;
        private final MemorySegment vector;
        private final int batch;

        SendmmsgSender(Arena arena, DatagramRun.Route route, int port, int batch) throws IOException {
            this.socket = NativeSocket.sending(arena, route, port);
            this.batch = batch;
            this.vector = arena.allocate((long) MMSGHDR_BYTES * batch, 8);
            final MemorySegment datagrams = arena.allocate((long) DatagramRun.DATAGRAM_BYTES * batch);
            final MemorySegment iovecs = arena.allocate((long) IOVEC_BYTES * batch, 8);
            for (int i = 0; i < batch; i++) {
                putIovec(iovecs, (long) IOVEC_BYTES * i,
                    datagrams.asSlice((long) DatagramRun.DATAGRAM_BYTES * i, DatagramRun.DATAGRAM_BYTES),
                    DatagramRun.DATAGRAM_BYTES);
                putMsghdr(vector, (long) MMSGHDR_BYTES * i, MemorySegment.NULL,
                    iovecs.asSlice((long) IOVEC_BYTES * i, IOVEC_BYTES), MemorySegment.NULL);
            }
        }

        @Override
        public int send(int max) throws IOException {
            return socket.countOrRetry(Libc.sendmmsg(socket.errno, socket.fd, vector, Math.min(max, batch)),
                "sendmmsg");
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
        private final NativeSocket socket;
        private final MemorySegment message;
        private final MemorySegment iovec;

        GsoSender(Arena arena, DatagramRun.Route route, int port) throws IOException {
            this.socket = NativeSocket.sending(arena, route, port);
            final MemorySegment train = arena.allocate((long) DatagramRun.DATAGRAM_BYTES * GSO_SEGMENTS);
            this.iovec = arena.allocate(IOVEC_BYTES, 8);
            putIovec(iovec, 0, train, train.byteSize());
            final MemorySegment control = arena.allocate(CMSG_SPACE_8, 8);
            control.set(ValueLayout.JAVA_LONG, CMSG_LEN, CMSG_DATA + 2);
            control.set(ValueLayout.JAVA_INT, CMSG_LEVEL, SOL_UDP);
            control.set(ValueLayout.JAVA_INT, CMSG_TYPE, UDP_SEGMENT);
            control.set(ValueLayout.JAVA_SHORT, CMSG_DATA, (short) DatagramRun.DATAGRAM_BYTES);
            this.message = arena.allocate(MSGHDR_BYTES, 8);
            putMsghdr(message, 0, MemorySegment.NULL, iovec, control);
        }

        @Override
        public int send(int max) throws IOException {
            final int segments = Math.min(max, GSO_SEGMENTS);
            iovec.set(ValueLayout.JAVA_LONG, IOV_LEN, (long) segments * DatagramRun.DATAGRAM_BYTES);
            return socket.countOrRetry(Libc.sendmsg(socket.errno, socket.fd, message), "sendmsg UDP_SEGMENT") > 0
                ? segments : 0;
        }

        @Override
        public void close() {
            socket.close();
        }
    }

    /**
     * recvmmsg of up to {@code batch} datagrams into slots of {@code slotBytes}, each with its
     * sender's address. With {@code gro} the socket sets UDP_GRO and a datagram may be a train of
     * segments; the UDP_GRO control message gives the segment size, and the segments are counted.
     */
    static final class RecvmmsgReceiver implements DatagramRun.Receiver {
        private final NativeSocket socket;
        private final MemorySegment vector;
        private final MemorySegment controls;
        private final int batch;
        private final boolean gro;

        RecvmmsgReceiver(Arena arena, DatagramRun.Route route, int port, int receiveBufferBytes, int batch,
                         boolean gro) throws IOException {
            this.socket = NativeSocket.receiving(arena, route, port, receiveBufferBytes);
            this.batch = batch;
            this.gro = gro;
            if (gro) {
                socket.setInt(SOL_UDP, UDP_GRO, 1, "UDP_GRO");
            }
            final int slotBytes = gro ? GRO_SLOT_BYTES : DatagramRun.RECEIVE_SLOT_BYTES;
            final MemorySegment slots = arena.allocate((long) slotBytes * batch);
            final MemorySegment names = arena.allocate((long) SOCKADDR_IN_BYTES * batch, 8);
            final MemorySegment iovecs = arena.allocate((long) IOVEC_BYTES * batch, 8);
            this.controls = arena.allocate((long) CMSG_SPACE_8 * batch, 8);
            this.vector = arena.allocate((long) MMSGHDR_BYTES * batch, 8);
            for (int i = 0; i < batch; i++) {
                putIovec(iovecs, (long) IOVEC_BYTES * i, slots.asSlice((long) slotBytes * i, slotBytes), slotBytes);
                putMsghdr(vector, (long) MMSGHDR_BYTES * i, names.asSlice((long) SOCKADDR_IN_BYTES * i,
                        SOCKADDR_IN_BYTES), iovecs.asSlice((long) IOVEC_BYTES * i, IOVEC_BYTES),
                    gro ? controls.asSlice((long) CMSG_SPACE_8 * i, CMSG_SPACE_8) : MemorySegment.NULL);
            }
        }

        @Override
        public int receive() throws IOException {
            resetLengths();
            final int received = socket.countOrRetry(Libc.recvmmsg(socket.errno, socket.fd, vector, batch),
                "recvmmsg");
            return gro ? segments(received) : received;
        }

        /** The kernel overwrote each entry's name and control lengths with what it used: give back the room. */
        private void resetLengths() {
            for (int i = 0; i < batch; i++) {
                final long entry = (long) MMSGHDR_BYTES * i;
                vector.set(ValueLayout.JAVA_INT, entry + MSG_NAMELEN, SOCKADDR_IN_BYTES);
                if (gro) {
                    vector.set(ValueLayout.JAVA_LONG, entry + MSG_CONTROLLEN, CMSG_SPACE_8);
                }
            }
        }

        /** The 1408-byte segments in {@code received} entries: a train's length over its UDP_GRO segment size. */
        private int segments(int received) {
            int segments = 0;
            for (int i = 0; i < received; i++) {
                final long entry = (long) MMSGHDR_BYTES * i;
                final int length = vector.get(ValueLayout.JAVA_INT, entry + MMSG_LEN);
                final int segmentSize = groSegmentSize(i, vector.get(ValueLayout.JAVA_LONG, entry + MSG_CONTROLLEN));
                segments += segmentSize > 0 ? (length + segmentSize - 1) / segmentSize : 1;
            }
            return segments;
        }

        /** The segment size of entry {@code i}'s UDP_GRO control message; 0 if it has none (a lone datagram). */
        private int groSegmentSize(int i, long controlLength) {
            final long control = (long) CMSG_SPACE_8 * i;
            if (controlLength < CMSG_DATA + 4
                || controls.get(ValueLayout.JAVA_INT, control + CMSG_LEVEL) != SOL_UDP
                || controls.get(ValueLayout.JAVA_INT, control + CMSG_TYPE) != UDP_GRO) {
                return 0;
            }
            return controls.get(ValueLayout.JAVA_INT, control + CMSG_DATA);
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

        DatagramRun.Sender sender(Arena arena, DatagramRun.Route route, int port) throws IOException {
            return switch (this) {
                case NIO -> new DatagramRun.NioSender(route, port);
                case FFM -> new SendtoSender(arena, route, port);
                case MMSG_8, MMSG_32 -> new SendmmsgSender(arena, route, port, batch);
                case GSO, GSO_GRO -> new GsoSender(arena, route, port);
            };
        }

        DatagramRun.Receiver receiver(Arena arena, DatagramRun.Route route, int port, int receiveBufferBytes)
            throws IOException {
            return switch (this) {
                case NIO -> new DatagramRun.NioReceiver(route, port, receiveBufferBytes);
                case FFM -> new RecvfromReceiver(arena, route, port, receiveBufferBytes);
                case MMSG_8, MMSG_32, GSO -> new RecvmmsgReceiver(arena, route, port, receiveBufferBytes, 32, false);
                case GSO_GRO -> new RecvmmsgReceiver(arena, route, port, receiveBufferBytes, 8, true);
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
        try (Arena arena = Arena.ofShared()) {
            final DatagramRun.Receiver receiver;
            final DatagramRun.Sender sender;
            try {
                receiver = mode.receiver(arena, route, port, receiveBufferBytes);
            } catch (IOException ex) {
                return DatagramRun.Result.refused(ex.getMessage());
            }
            try {
                sender = mode.sender(arena, route, port);
            } catch (IOException ex) {
                receiver.close();
                return DatagramRun.Result.refused(ex.getMessage());
            }
            return DatagramRun.run(sender, receiver, mode.batch, window, DatagramRun.Stop.after(seconds));
        }
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
            java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg")).trim(),
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
        try (Arena arena = Arena.ofConfined();
             NativeSocket socket = NativeSocket.receiving(arena, route, nextPort++, asked)) {
            return socket.getInt(SOL_SOCKET, SO_RCVBUF, "SO_RCVBUF");
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
        try (Arena arena = Arena.ofShared()) {
            printAllocation(options, route, arena);
        }
    }

    private static void printAllocation(Options options, DatagramRun.Route route, Arena arena) throws Exception {
        final Map<String, DatagramRun.ReceiverFactory> receivers = new LinkedHashMap<>();
        receivers.put("DatagramChannel.receive", DatagramRun.NioReceiver::new);
        receivers.put("FFM recvfrom", (r, port, bytes) -> new RecvfromReceiver(arena, r, port, bytes));
        receivers.put("FFM recvmmsg 32", (r, port, bytes) -> new RecvmmsgReceiver(arena, r, port, bytes, 32, false));
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
