package org.nakcast.media.linux;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout.PathElement;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * The libc calls this module makes, bound once through the foreign function API, each capturing
 * errno: the native media's, and those only {@link SyscallBatching} measures (one datagram per
 * {@code recvfrom}, batches through {@code sendmmsg}). Linux on a 64-bit LP64 ABI
 * (x86-64, aarch64): the constants here ({@code <sys/socket.h>}, {@code <netinet/in.h>},
 * {@code <netinet/udp.h>}, {@code <errno.h>}) and the struct layouts of {@link UdpSocket} are those.
 */
final class Libc {
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
    /** UDP GSO: a send's segment size, the kernel cuts the payload into datagrams of it. */
    static final int UDP_SEGMENT = 103;
    /** UDP GRO: the receiver takes trains of segments, their size in a control message. */
    static final int UDP_GRO = 104;
    static final int MSG_DONTWAIT = 0x40;
    static final int EAGAIN = 11;
    static final int ENOBUFS = 105;
    static final int EINTR = 4;
    static final int EIO = 5;
    static final int EINVAL = 22;
    static final int EOPNOTSUPP = 95;
    static final int SO_NO_CHECK = 11;

    /** Bytes of the state a call leaves errno in. */
    static final long ERRNO_STATE_BYTES;
    private static final long ERRNO_OFFSET;
    static final MethodHandle SOCKET;
    static final MethodHandle SETSOCKOPT;
    static final MethodHandle GETSOCKOPT;
    static final MethodHandle BIND;
    static final MethodHandle CONNECT;
    static final MethodHandle CLOSE;
    /** ssize_t sendto(int fd, const void *buf, size_t len, int flags, const sockaddr *to, socklen_t tolen). */
    static final MethodHandle SENDTO;
    /** ssize_t recvfrom(int fd, void *buf, size_t len, int flags, sockaddr *from, socklen_t *fromlen). */
    static final MethodHandle RECVFROM;
    /** ssize_t sendmsg(int fd, const struct msghdr *msg, int flags). */
    static final MethodHandle SENDMSG;
    /** ssize_t recvmsg(int fd, struct msghdr *msg, int flags). */
    static final MethodHandle RECVMSG;
    /** int sendmmsg(int fd, struct mmsghdr *vec, unsigned vlen, int flags). */
    static final MethodHandle SENDMMSG;
    /** int recvmmsg(int fd, struct mmsghdr *vec, unsigned vlen, int flags, struct timespec *timeout). */
    static final MethodHandle RECVMMSG;
    private static final MethodHandle STRERROR;

    static {
        final Linker linker = Linker.nativeLinker();
        final Linker.Option errno = Linker.Option.captureCallState("errno");
        ERRNO_STATE_BYTES = Linker.Option.captureStateLayout().byteSize();
        ERRNO_OFFSET = Linker.Option.captureStateLayout().byteOffset(PathElement.groupElement("errno"));
        final ValueLayout.OfInt i32 = ValueLayout.JAVA_INT;
        final ValueLayout.OfLong i64 = ValueLayout.JAVA_LONG;
        final ValueLayout ptr = ValueLayout.ADDRESS;
        SOCKET = downcall(linker, errno, "socket", FunctionDescriptor.of(i32, i32, i32, i32));
        SETSOCKOPT = downcall(linker, errno, "setsockopt", FunctionDescriptor.of(i32, i32, i32, i32, ptr, i32));
        GETSOCKOPT = downcall(linker, errno, "getsockopt", FunctionDescriptor.of(i32, i32, i32, i32, ptr, ptr));
        BIND = downcall(linker, errno, "bind", FunctionDescriptor.of(i32, i32, ptr, i32));
        CONNECT = downcall(linker, errno, "connect", FunctionDescriptor.of(i32, i32, ptr, i32));
        CLOSE = downcall(linker, errno, "close", FunctionDescriptor.of(i32, i32));
        SENDTO = downcall(linker, errno, "sendto", FunctionDescriptor.of(i64, i32, ptr, i64, i32, ptr, i32));
        RECVFROM = downcall(linker, errno, "recvfrom", FunctionDescriptor.of(i64, i32, ptr, i64, i32, ptr, ptr));
        SENDMSG = downcall(linker, errno, "sendmsg", FunctionDescriptor.of(i64, i32, ptr, i32));
        RECVMSG = downcall(linker, errno, "recvmsg", FunctionDescriptor.of(i64, i32, ptr, i32));
        SENDMMSG = downcall(linker, errno, "sendmmsg", FunctionDescriptor.of(i32, i32, ptr, i32, i32));
        RECVMMSG = downcall(linker, errno, "recvmmsg", FunctionDescriptor.of(i32, i32, ptr, i32, i32, ptr));
        STRERROR = linker.downcallHandle(linker.defaultLookup().find("strerror").orElseThrow(),
            FunctionDescriptor.of(ptr, i32));
    }

    private Libc() {
    }

    private static MethodHandle downcall(Linker linker, Linker.Option errno, String name,
                                         FunctionDescriptor descriptor) {
        return linker.downcallHandle(linker.defaultLookup().find(name)
            .orElseThrow(() -> new UnsatisfiedLinkError("libc has no " + name)), descriptor, errno);
    }

    /** The errno a call captured into {@code state}. */
    static int errno(MemorySegment state) {
        return state.get(ValueLayout.JAVA_INT, ERRNO_OFFSET);
    }

    /** "errno 98 (Address already in use)". */
    static String describe(int errno) {
        try {
            final MemorySegment text = (MemorySegment) STRERROR.invokeExact(errno);
            return "errno " + errno + " (" + text.reinterpret(256).getString(0) + ")";
        } catch (Throwable ex) {
            return "errno " + errno;
        }
    }
}
