package org.nakcast.media.linux;

import java.net.Inet4Address;
import java.util.Locale;

import org.nakcast.transport.media.DatagramReceiver;
import org.nakcast.transport.media.DatagramSender;
import org.nakcast.transport.media.Media;
import org.nakcast.transport.media.MulticastAddress;
import org.nakcast.transport.media.NioMedia;
import org.nakcast.transport.status.SystemCounters;

/**
 * The {@code native} media ({@code node.media: native}): Linux's {@code sendmmsg} and
 * {@code recvmmsg} through the foreign function API, so one system call moves up to 32 datagrams
 * out ({@link BatchingSender}) or 16 in ({@link BatchingReceiver}), where {@code nio} makes one per
 * datagram, runs of equal datagrams go through the kernel's stack once as UDP GSO and GRO trains,
 * and no sender address is decoded on receive. Found by {@link java.util.ServiceLoader};
 * unavailable off Linux or off a 64-bit x86 or ARM JVM (the struct layouts are those of LP64
 * Linux). A transport on an IPv6 group runs on {@code nio}: the native sockets are IPv4.
 */
public final class NativeMedia implements Media {
    /** Its name in a configuration. */
    public static final String NAME = "native";

    private final NioMedia ipv6 = new NioMedia();

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String unavailableBecause() {
        final String os = System.getProperty("os.name", "");
        if (!os.toLowerCase(Locale.ROOT).startsWith("linux")) {
            return "it needs Linux, this is " + os;
        }
        final String arch = System.getProperty("os.arch", "");
        if (!arch.equals("amd64") && !arch.equals("x86_64") && !arch.equals("aarch64")) {
            return "it needs a 64-bit x86 or ARM JVM, this is " + arch;
        }
        try {
            return Libc.ERRNO_STATE_BYTES > 0 ? null : "libc's errno cannot be captured";
        } catch (LinkageError | IllegalCallerException ex) {
            return "libc cannot be called from Java here: " + ex;
        }
    }

    @Override
    public DatagramReceiver openReceiver(MulticastAddress address, int port, SystemCounters counters) {
        JitDirectives.warnOnceIfMissing();
        return address.group() instanceof Inet4Address
            ? new BatchingReceiver(address, port, counters)
            : ipv6.openReceiver(address, port, counters);
    }

    @Override
    public DatagramSender openSender(MulticastAddress address, int port, SystemCounters counters) {
        JitDirectives.warnOnceIfMissing();
        return address.group() instanceof Inet4Address
            ? new BatchingSender(address, port, counters)
            : ipv6.openSender(address, port, counters);
    }
}
