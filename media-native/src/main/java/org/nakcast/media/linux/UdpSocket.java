package org.nakcast.media.linux;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.nio.ByteOrder;

import org.nakcast.transport.TransportException;
import org.nakcast.transport.media.DatagramSource;
import org.nakcast.transport.media.Media;
import org.nakcast.transport.media.MulticastAddress;

/**
 * A non-blocking IPv4 UDP socket driven through libc: set up as a multicast receiver or sender,
 * then moving datagrams: received with {@code recvmmsg} in batches (or {@code recvmsg} one at a
 * time), sent with {@code sendmsg} one message at a time, a datagram or a UDP GSO train, or with
 * {@code sendto}, a datagram alone. Its
 * native memory (the vectors and buffers its owners take from {@link #allocate}) is freed when
 * it closes. Setup runs on one thread, the calls on another (the agent's), never at once, and it is
 * closed on the thread that made its calls, or once that thread has stopped, and its owner makes no
 * call after the close ({@link #isClosed()}). That is what lets the calls hand the kernel plain addresses
 * (below) instead of segments of a shared arena, which the foreign function API would acquire and
 * release around every call (two atomic updates, about 12 ns of a 190 ns {@code recvmsg} that
 * finds nothing, measured on lo). The
 * media's sender cuts its batch into UDP GSO trains and its receiver takes UDP GRO trains (control
 * messages, below). {@link SyscallBatching} also opens unicast ones, and moves datagrams one per
 * {@code recvfrom} and in batches through {@code sendmmsg}, to measure those calls.
 *
 * <pre>
 *   struct sockaddr_in (16 bytes)               struct ip_mreqn (12 bytes)
 *   0       2       4              8      16    0              4              8            12
 *   +-------+-------+--------------+------+     +--------------+--------------+------------+
 *   |family | port  |   address    | zero |     | group        | address      | ifindex    |
 *   | u16   |u16 BE |   u32 BE     |  8   |     | u32 BE       | u32 BE (0)   | i32        |
 *   +-------+-------+--------------+------+     +--------------+--------------+------------+
 *
 *   struct iovec (16 bytes)          struct mmsghdr (64 bytes): a struct msghdr (56 bytes), then msg_len
 *   0             8             16   0        8       16       24          32     40       48     56      60  64
 *   +-------------+-------------+    +--------+-------+--------+-----------+------+--------+------+-------+---+
 *   | base ptr    | length u64  |    |name ptr|namelen|iov ptr | iovlen u64|ctl   |ctl len |flags |msg_len|pad|
 *   +-------------+-------------+    |        |u32,pad|        |           |ptr   |u64     |i32   |u32    |   |
 *                                    +--------+-------+--------+-----------+------+--------+------+-------+---+
 *                                     a sender leaves name NULL (the socket is connected); a receiver
 *                                     points it at a sockaddr_in per slot, where the kernel writes the
 *                                     sender's address; control points at one cmsghdr (below) or is NULL
 *
 *   struct cmsghdr, then its data, padded to 8: CMSG_LEN(n) = 16 + n, CMSG_SPACE(n) = 16 + align8(n)
 *   0              8            12           16
 *   +--------------+------------+------------+----------------------+
 *   | cmsg_len u64 | level i32  | type i32   | data                 |
 *   +--------------+------------+------------+----------------------+
 *   UDP_SEGMENT (sent):     level SOL_UDP, type UDP_SEGMENT, data u16 segment size: len 18, space 24
 *   UDP_GRO     (received): level SOL_UDP, type UDP_GRO,     data i32 segment size: len 20, space 24
 * </pre>
 */
final class UdpSocket implements AutoCloseable {
    /** What {@link #receiveOne} answers when no datagram was waiting. */
    static final long NOTHING_WAITING = -2;
    static final int SOCKADDR_IN_BYTES = 16;
    static final int SIN_PORT = 2;
    static final int SIN_ADDR = 4;
    private static final ValueLayout.OfShort NETWORK_SHORT =
        ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final ValueLayout.OfInt NETWORK_INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    static final int IOVEC_BYTES = 16;
    static final int IOVEC_LENGTH = 8;
    static final int MSGHDR_BYTES = 56;
    static final int MMSGHDR_BYTES = 64;
    static final int MSG_NAME = 0;
    static final int MSG_NAMELEN = 8;
    static final int MSG_IOV = 16;
    static final int MSG_IOVLEN = 24;
    static final int MSG_CONTROL = 32;
    static final int MSG_CONTROLLEN = 40;
    static final int MSG_LEN = 56;
    static final int CMSG_LEN = 0;
    static final int CMSG_LEVEL = 8;
    static final int CMSG_TYPE = 12;
    static final int CMSG_DATA = 16;
    /** CMSG_SPACE(n) for any n up to 8: room for one UDP_SEGMENT or UDP_GRO control message. */
    static final int CMSG_SPACE_8 = 24;

    private final Arena arena = Arena.ofShared();
    /** Where each call leaves errno: in an automatic arena, which a call does not acquire either. */
    private final MemorySegment errno = Arena.ofAuto().allocate(Libc.ERRNO_STATE_BYTES);
    private final int fd;
    /** The value {@link #trySetInt} hands the kernel. */
    private final MemorySegment intOption = allocate(Integer.BYTES, Integer.BYTES);
    /** Set by {@link #close()}, read by the owner on the same thread (or one started after it). */
    private boolean closed;

    /** Opens the descriptor; if the kernel refuses, the socket's native memory goes with the error. */
    private UdpSocket() throws IOException {
        try {
            fd = (int) Libc.SOCKET.invokeExact(errno, Libc.AF_INET, Libc.SOCK_DGRAM, 0);
            check(fd, "socket");
        } catch (Throwable ex) {
            arena.close();
            throw ex instanceof IOException refused ? refused : new IOException("socket() could not be called", ex);
        }
    }

    /**
     * A socket bound to {@code address}'s group and {@code port} (shared with other sockets) that
     * has joined the group on its interface.
     *
     * @throws TransportException naming group, port and interface, and the call the kernel refused
     */
    static UdpSocket listening(MulticastAddress address, int port) {
        return opened(address, port, "cannot listen on ", Media.LISTEN_REFUSED_HINT,
            socket -> socket.listen(address, port));
    }

    /**
     * A socket that sends to {@code address}'s group and {@code port} out of its interface, with its
     * TTL and loopback on.
     *
     * @throws TransportException naming group, port and interface, and the call the kernel refused
     */
    static UdpSocket sendingTo(MulticastAddress address, int port) {
        return opened(address, port, "cannot send to ", "", socket -> socket.sendTo(address, port));
    }

    /**
     * A socket bound to {@code address} and {@code port} (shared with other sockets), with
     * SO_RCVBUF asked for: a unicast receiver.
     *
     * @throws IOException naming the call the kernel refused
     */
    static UdpSocket bound(InetAddress address, int port, int receiveBufferBytes) throws IOException {
        return setUp(socket -> socket.bindTo(address, port, receiveBufferBytes));
    }

    /**
     * A socket connected to {@code address} and {@code port}, with SO_SNDBUF asked for: a unicast sender.
     *
     * @throws IOException naming the call the kernel refused
     */
    static UdpSocket connected(InetAddress address, int port, int sendBufferBytes) throws IOException {
        return setUp(socket -> socket.connectTo(address, port, sendBufferBytes));
    }

    private static UdpSocket opened(MulticastAddress address, int port, String failure, String hint, Setup setup) {
        try {
            return setUp(setup);
        } catch (IOException | RuntimeException ex) {
            throw new TransportException(failure + address.describe(port) + ": " + ex.getMessage() + hint, ex);
        }
    }

    /** A socket just opened, set up by {@code setup}; closed again if that fails. */
    private static UdpSocket setUp(Setup setup) throws IOException {
        final UdpSocket socket = new UdpSocket();
        try {
            setup.apply(socket);
            return socket;
        } catch (IOException | RuntimeException ex) {
            socket.close();
            throw ex;
        }
    }

    /** How a socket just opened is set up. */
    @FunctionalInterface
    private interface Setup {
        void apply(UdpSocket socket) throws IOException;
    }

    /**
     * Native memory that lives as long as the socket, zeroed, as an unscoped view: the calls pass it
     * to the kernel without acquiring the socket's arena, and {@link #close()} frees it.
     */
    MemorySegment allocate(long bytes, long alignment) {
        final MemorySegment memory = arena.allocate(bytes, alignment);
        return MemorySegment.ofAddress(memory.address()).reinterpret(bytes);
    }

    private void listen(MulticastAddress address, int port) throws IOException {
        bindTo(address.group(), port, address.receiveBufferBytes());
        set(Libc.IPPROTO_IP, Libc.IP_ADD_MEMBERSHIP, groupOnInterface(address), "IP_ADD_MEMBERSHIP");
    }

    private void sendTo(MulticastAddress address, int port) throws IOException {
        set(Libc.IPPROTO_IP, Libc.IP_MULTICAST_IF, groupOnInterface(address), "IP_MULTICAST_IF");
        setInt(Libc.IPPROTO_IP, Libc.IP_MULTICAST_TTL, address.ttl(), "IP_MULTICAST_TTL");
        setInt(Libc.IPPROTO_IP, Libc.IP_MULTICAST_LOOP, 1, "IP_MULTICAST_LOOP");
        connectTo(address.group(), port, address.sendBufferBytes());
    }

    /** SO_REUSEADDR, SO_RCVBUF, then bind. */
    private void bindTo(InetAddress address, int port, int receiveBufferBytes) throws IOException {
        setInt(Libc.SOL_SOCKET, Libc.SO_REUSEADDR, 1, "SO_REUSEADDR");
        setInt(Libc.SOL_SOCKET, Libc.SO_RCVBUF, receiveBufferBytes, "SO_RCVBUF");
        final MemorySegment local = sockaddr(address, port);
        try {
            check((int) Libc.BIND.invokeExact(errno, fd, local, SOCKADDR_IN_BYTES), "bind");
        } catch (IOException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new IOException("bind() could not be called", ex);
        }
    }

    /** SO_SNDBUF, then connect. */
    private void connectTo(InetAddress address, int port, int sendBufferBytes) throws IOException {
        setInt(Libc.SOL_SOCKET, Libc.SO_SNDBUF, sendBufferBytes, "SO_SNDBUF");
        final MemorySegment remote = sockaddr(address, port);
        try {
            check((int) Libc.CONNECT.invokeExact(errno, fd, remote, SOCKADDR_IN_BYTES), "connect");
        } catch (IOException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new IOException("connect() could not be called", ex);
        }
    }

    /**
     * {@code count} mmsghdrs, each with one iovec over its own {@code slotBytes} of {@code slots}
     * (the iovec's length is the slot's; a sender sets each to its datagram's).
     */
    MemorySegment messageVector(MemorySegment slots, int count, int slotBytes) {
        final MemorySegment vector = allocate((long) MMSGHDR_BYTES * count, 8);
        final MemorySegment iovecs = allocate((long) IOVEC_BYTES * count, 8);
        for (int i = 0; i < count; i++) {
            final long iovec = (long) IOVEC_BYTES * i;
            iovecs.set(ValueLayout.ADDRESS, iovec, slots.asSlice((long) slotBytes * i, slotBytes));
            iovecs.set(ValueLayout.JAVA_LONG, iovec + IOVEC_LENGTH, slotBytes);
            final long header = (long) MMSGHDR_BYTES * i;
            vector.set(ValueLayout.ADDRESS, header + MSG_IOV, iovecs.asSlice(iovec, IOVEC_BYTES));
            vector.set(ValueLayout.JAVA_LONG, header + MSG_IOVLEN, 1);
        }
        return vector;
    }

    /**
     * Points each of {@code count} mmsghdrs of {@code vector} at its own sockaddr_in of
     * {@code names}, for {@code recvmmsg} to write the sender's address in ({@link #resetNames}
     * before each call).
     */
    static void nameSlots(MemorySegment vector, MemorySegment names, int count) {
        for (int i = 0; i < count; i++) {
            vector.set(ValueLayout.ADDRESS, (long) MMSGHDR_BYTES * i + MSG_NAME,
                names.asSlice((long) SOCKADDR_IN_BYTES * i, SOCKADDR_IN_BYTES));
        }
        resetNames(vector, count);
    }

    /** Reads the sockaddr_in at {@code offset} of {@code names} into {@code source}. */
    static void readName(MemorySegment names, long offset, DatagramSource source) {
        source.ipv4(names.get(NETWORK_INT, offset + SIN_ADDR),
            Short.toUnsignedInt(names.get(NETWORK_SHORT, offset + SIN_PORT)));
    }

    /** Sets each msg_namelen back to the room of its sockaddr_in: the kernel writes the length it used. */
    static void resetNames(MemorySegment vector, int count) {
        for (int i = 0; i < count; i++) {
            vector.set(ValueLayout.JAVA_INT, (long) MMSGHDR_BYTES * i + MSG_NAMELEN, SOCKADDR_IN_BYTES);
        }
    }

    /**
     * {@code sendmmsg} of {@code count} messages from {@code vector}, without waiting.
     *
     * @return how many the kernel took; 0 if its buffer is full; -1 on another error ({@link #lastError})
     */
    int sendBatch(MemorySegment vector, int count) {
        final int sent;
        try {
            sent = (int) Libc.SENDMMSG.invokeExact(errno, fd, vector, count, Libc.MSG_DONTWAIT);
        } catch (Throwable ex) {
            return -1;
        }
        return sent >= 0 ? sent : retryableOrFailed();
    }

    /**
     * {@code recvmsg} of one waiting datagram into the first entry of {@code vector} (an mmsghdr
     * begins with its msghdr), its length written into that entry's msg_len as {@code recvmmsg}
     * writes it, without waiting: for one datagram this costs the kernel less than
     * {@code recvmmsg}, which looks for a second one even when asked for one.
     *
     * @return 1 if a datagram came; 0 if none was waiting; -1 on another error
     */
    int receiveMessage(MemorySegment vector) {
        final long received;
        try {
            received = (long) Libc.RECVMSG.invokeExact(errno, fd, vector, Libc.MSG_DONTWAIT);
        } catch (Throwable ex) {
            return -1;
        }
        if (received < 0) {
            return retryableOrFailed();
        }
        vector.set(ValueLayout.JAVA_INT, MSG_LEN, (int) received);
        return 1;
    }

    /**
     * {@code recvmmsg} of up to {@code count} waiting datagrams into {@code vector}'s buffers, without waiting.
     *
     * @return how many came (each one's length in its msg_len); 0 if none was waiting; -1 on another error
     */
    int receiveBatch(MemorySegment vector, int count) {
        final int received;
        try {
            received = (int) Libc.RECVMMSG.invokeExact(errno, fd, vector, count, Libc.MSG_DONTWAIT,
                MemorySegment.NULL);
        } catch (Throwable ex) {
            return -1;
        }
        return received >= 0 ? received : retryableOrFailed();
    }

    /**
     * {@code sendto} of the first {@code length} bytes of {@code buffer} as one datagram on this
     * connected socket, without waiting.
     *
     * @return the bytes sent; 0 if the kernel's buffer is full; -1 on another error ({@link #lastError})
     */
    long sendOne(MemorySegment buffer, long length) {
        final long sent;
        try {
            sent = (long) Libc.SENDTO.invokeExact(errno, fd, buffer, length, Libc.MSG_DONTWAIT,
                MemorySegment.NULL, 0);
        } catch (Throwable ex) {
            return -1;
        }
        return sent >= 0 ? sent : retryableOrFailed();
    }

    /**
     * {@code recvfrom} of one waiting datagram into {@code slot}, its sender's address into
     * {@code from} (a sockaddr_in) and that address's length into {@code fromLength}, without
     * waiting: the kernel's cheapest way to one datagram, with no msghdr or iovec to read from the
     * caller and no control message to write.
     *
     * @return the datagram's bytes, 0 for an empty one; {@link #NOTHING_WAITING} if none was waiting;
     *     -1 on another error ({@link #lastError})
     */
    long receiveOne(MemorySegment slot, MemorySegment from, MemorySegment fromLength) {
        final long received;
        try {
            received = (long) Libc.RECVFROM.invokeExact(errno, fd, slot, slot.byteSize(), Libc.MSG_DONTWAIT, from,
                fromLength);
        } catch (Throwable ex) {
            return -1;
        }
        if (received >= 0) {
            return received;
        }
        return retryableOrFailed() == 0 ? NOTHING_WAITING : -1;
    }

    /**
     * {@code sendmsg} of {@code message} (a struct msghdr, such as an entry of an mmsghdr vector:
     * one datagram, or a UDP GSO train) on this connected socket, without waiting.
     *
     * @return 1 if the kernel took it; 0 if its buffer is full; -1 on another error ({@link #lastError})
     */
    int sendMessage(MemorySegment message) {
        final long sent;
        try {
            sent = (long) Libc.SENDMSG.invokeExact(errno, fd, message, Libc.MSG_DONTWAIT);
        } catch (Throwable ex) {
            return -1;
        }
        return sent >= 0 ? 1 : retryableOrFailed();
    }

    /**
     * Whether the last call failed as a kernel fails a UDP GSO train it will not send: EINVAL (no
     * UDP_SEGMENT, or the socket sends without checksums), EIO (the device cannot checksum it, or an
     * IPsec path) or EOPNOTSUPP.
     */
    boolean lastCallRefusedTrain() {
        final int code = Libc.errno(errno);
        return code == Libc.EINVAL || code == Libc.EIO || code == Libc.EOPNOTSUPP;
    }

    /** The errno of the last call that failed, in words. */
    String lastError() {
        return Libc.describe(Libc.errno(errno));
    }

    /**
     * Whether {@link #close()} was called: the memory of {@link #allocate} is gone, and its owner
     * must neither touch it nor make a call (the media's sender and receiver ask before each).
     */
    boolean isClosed() {
        return closed;
    }

    private int retryableOrFailed() {
        final int code = Libc.errno(errno);
        return code == Libc.EAGAIN || code == Libc.ENOBUFS || code == Libc.EINTR ? 0 : -1;
    }

    private MemorySegment groupOnInterface(MulticastAddress address) {
        final MemorySegment request = allocate(12, 4);
        putAddress(request, 0, address.group());
        request.set(ValueLayout.JAVA_INT, 8, address.networkInterface().getIndex());
        return request;
    }

    private MemorySegment sockaddr(InetAddress address, int port) {
        final MemorySegment sockaddr = allocate(SOCKADDR_IN_BYTES, 4);
        sockaddr.set(ValueLayout.JAVA_SHORT, 0, (short) Libc.AF_INET);
        sockaddr.set(NETWORK_SHORT, SIN_PORT, (short) port);
        putAddress(sockaddr, SIN_ADDR, address);
        return sockaddr;
    }

    private static void putAddress(MemorySegment segment, long offset, InetAddress address) {
        MemorySegment.copy(MemorySegment.ofArray(address.getAddress()), 0, segment, offset, 4);
    }

    /** setsockopt of an int option; {@code name} names it if the kernel refuses. */
    void setInt(int level, int option, int value, String name) throws IOException {
        set(level, option, arena.allocateFrom(ValueLayout.JAVA_INT, value), name);
    }

    /** Whether the kernel knows an int option of this socket's kind (getsockopt of it succeeds). */
    boolean supports(int level, int option) {
        try {
            getInt(level, option, "");
            return true;
        } catch (IOException ex) {
            return false;
        }
    }

    /**
     * The segment size of the UDP_GRO control message at {@code offset} of {@code controls}, whose
     * length the kernel wrote as {@code controlLength}; 0 if there is none there (a datagram alone).
     */
    static int groSegmentSize(MemorySegment controls, long offset, long controlLength) {
        if (controlLength < CMSG_DATA + Integer.BYTES
            || controls.get(ValueLayout.JAVA_INT, offset + CMSG_LEVEL) != Libc.SOL_UDP
            || controls.get(ValueLayout.JAVA_INT, offset + CMSG_TYPE) != Libc.UDP_GRO) {
            return 0;
        }
        return controls.get(ValueLayout.JAVA_INT, offset + CMSG_DATA);
    }

    /**
     * setsockopt of an int option, allocating nothing (a receiver asks for UDP_GRO while it runs);
     * false if the kernel refuses it (an option it does not know).
     */
    boolean trySetInt(int level, int option, int value) {
        intOption.set(ValueLayout.JAVA_INT, 0, value);
        try {
            return (int) Libc.SETSOCKOPT.invokeExact(errno, fd, level, option, intOption, Integer.BYTES) >= 0;
        } catch (Throwable ex) {
            return false;
        }
    }

    /** getsockopt of an int option: what the kernel made of what was asked. */
    int getInt(int level, int option, String name) throws IOException {
        final MemorySegment value = arena.allocate(ValueLayout.JAVA_INT);
        final MemorySegment length = arena.allocateFrom(ValueLayout.JAVA_INT, Integer.BYTES);
        try {
            check((int) Libc.GETSOCKOPT.invokeExact(errno, fd, level, option, value, length), "getsockopt " + name);
        } catch (IOException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new IOException("getsockopt() could not be called", ex);
        }
        return value.get(ValueLayout.JAVA_INT, 0);
    }

    private void set(int level, int option, MemorySegment value, String name) throws IOException {
        try {
            check((int) Libc.SETSOCKOPT.invokeExact(errno, fd, level, option, value, (int) value.byteSize()),
                "setsockopt " + name);
        } catch (IOException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new IOException("setsockopt() could not be called", ex);
        }
    }

    private void check(int result, String call) throws IOException {
        if (result < 0) {
            throw new IOException(call + " refused: " + lastError());
        }
    }

    @Override
    public void close() {
        closed = true;
        try {
            final int ignored = (int) Libc.CLOSE.invokeExact(errno, fd);
        } catch (Throwable ex) {
            // the descriptor is gone either way; its memory goes below
        }
        arena.close();
    }
}
