package org.nakcast.media.linux;

import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import com.sun.management.HotSpotDiagnosticMXBean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The JIT directives the native media's system calls need to allocate nothing, and the check that
 * this JVM was started with them ({@code ops/jvm-native.options}). Each {@code sendmsg},
 * {@code sendto}, {@code recvfrom}, {@code recvmsg} and {@code recvmmsg} (and {@code sendmmsg},
 * which {@link SyscallBatching} measures) captures errno, and the JDK slices the capture segment on
 * every call; the JIT removes that object only when the call is compiled in one small unit. Inlined
 * deep into a large agent loop it may not be, and then every call allocates for as long as the loop
 * runs; nor is a call on a branch the JIT finds cold. Each call in a method of its own, compiled on
 * its own ({@code dontinline}), never allocates once warm.
 */
final class JitDirectives {
    /** What {@code -XX:CompileCommand} must hold, one entry per line of the flag. */
    static final List<String> NEEDED = List.of(
        "dontinline,org.nakcast.media.linux.UdpSocket::sendBatch",
        "dontinline,org.nakcast.media.linux.UdpSocket::receiveBatch",
        "dontinline,org.nakcast.media.linux.UdpSocket::sendMessage",
        "dontinline,org.nakcast.media.linux.UdpSocket::sendOne",
        "dontinline,org.nakcast.media.linux.UdpSocket::receiveMessage",
        "dontinline,org.nakcast.media.linux.UdpSocket::receiveOne");

    private static final Logger LOG = LoggerFactory.getLogger(NativeMedia.class);
    private static final AtomicBoolean CHECKED = new AtomicBoolean();

    private JitDirectives() {
    }

    /** Logs a warning, once per JVM, if this JVM lacks the directives. */
    static void warnOnceIfMissing() {
        if (CHECKED.compareAndSet(false, true)) {
            final String missing = missing(compileCommands());
            if (missing != null) {
                LOG.warn(missing);
            }
        }
    }

    /**
     * What is missing from {@code compileCommands} (the value of {@code -XX:CompileCommand}, one
     * directive per line; null when it cannot be read), in words; null if nothing is.
     */
    static String missing(String compileCommands) {
        if (compileCommands == null) {
            return null;
        }
        final List<String> given = compileCommands.lines().map(String::strip).toList();
        final List<String> absent = NEEDED.stream().filter(line -> !given.contains(line)).toList();
        if (absent.isEmpty()) {
            return null;
        }
        return "the native media may allocate on every sendmmsg and recvmmsg: this JVM was started without "
            + absent.stream().map(line -> "-XX:CompileCommand=" + line).toList()
            + " (ops/jvm-native.options has every line it needs)";
    }

    /** This JVM's {@code -XX:CompileCommand}, or null where it cannot be read (no jdk.management). */
    static String compileCommands() {
        try {
            return ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
                .getVMOption("CompileCommand").getValue();
        } catch (RuntimeException | LinkageError ex) {
            return null;
        }
    }
}
