package org.nakcast.benchmarks.peers.aeron;

import java.io.File;
import java.util.concurrent.TimeUnit;

import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import org.agrona.concurrent.BackoffIdleStrategy;

/**
 * What every Aeron media driver of the benchmarks shares, and the throughput run's multicast
 * channel on {@code lo}: settings chosen for a LAN on a 2-core machine.
 *
 * <ul>
 *   <li>Term buffers not sparse: pre-touched at start, so the run does not page them in.</li>
 *   <li>NAK timing tuned for a LAN: a unicast NAK delay of {@value #NAK_DELAY_NS} ns and a
 *   multicast NAK back-off of at most {@value #NAK_MAX_BACKOFF_NS} ns for a group of one
 *   receiver, instead of Aeron's default 10 ms back-off, which costs it most of its throughput
 *   under loss.</li>
 *   <li>A retransmit linger of {@value #NAK_MAX_BACKOFF_NS} ns instead of 10 ms: a repair that is
 *   lost again may be asked for again after 1 ms. With 10 ms, Aeron delivered 0.3 M msgs/s at 1%
 *   kernel loss here; with 1 ms and the 2 MiB window below, 1.2 M.</li>
 *   <li>2 MiB socket buffers and a 1408-byte MTU, as nakcast's defaults, and a 2 MiB initial
 *   receiver window (the default 128 KiB held it to 2.2 M msgs/s without loss here, 3.4 M with 2 MiB).</li>
 * </ul>
 *
 * The throughput run's drivers ({@link #launchDriver}) add:
 *
 * <ul>
 *   <li>The run's datagram size as the MTU ({@code --datagram-size}, which Aeron checks: a multiple
 *   of 32 up to 65 504). The terms stay at Aeron's default 16 MiB, which holds eight of the largest
 *   MTU (Aeron refuses an MTU above its largest message, an eighth of a term); the 2 MiB socket
 *   buffers and window hold 32 datagrams of the largest.</li>
 *   <li>{@link ThreadingMode#SHARED}: the conductor, sender and receiver share one thread, so each
 *   JVM has two busy threads (the application's and the driver's), as nakcast's has (the
 *   application's and the node's). A thread per agent, or busy spinning, starves 2 cores;
 *   {@code ThreadingMode.SHARED_NETWORK} (sender and receiver on a thread of their own) was no faster
 *   without loss and slower at 1% loss.</li>
 *   <li>A back-off idle strategy (spin, yield, then park up to 1 ms), as nakcast's node uses.</li>
 * </ul>
 *
 * Each driver gets a directory of its own under {@code /dev/shm} (or the temporary directory),
 * named after its role and the process, deleted at start and at shutdown.
 */
final class AeronPeer {
    /** One multicast group and port of the run's private namespace, bound to lo, TTL 0. */
    static final String CHANNEL = "aeron:udp?endpoint=239.255.90.1:40490|interface=127.0.0.1|ttl=0";
    /** The stream the publisher offers on. */
    static final int STREAM_ID = 1001;
    static final long NAK_DELAY_NS = TimeUnit.MICROSECONDS.toNanos(100);
    static final long NAK_MAX_BACKOFF_NS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final int SOCKET_BUFFER = 2 * 1024 * 1024;
    private static final int MTU = 1408;
    private static final long MAX_PARK_NS = TimeUnit.MILLISECONDS.toNanos(1);

    private AeronPeer() {
    }

    /**
     * Launches this JVM's media driver for a throughput run, in a directory named after {@code role},
     * with an MTU of {@code mtuLength} bytes.
     */
    static MediaDriver launchDriver(String role, int mtuLength) {
        return MediaDriver.launch(driverContext(role)
            .mtuLength(mtuLength)
            .threadingMode(ThreadingMode.SHARED)
            .sharedIdleStrategy(new BackoffIdleStrategy(100, 10, 1000, MAX_PARK_NS)));
    }

    /**
     * The settings every driver of the benchmarks shares, in a directory named after {@code role};
     * the caller adds the threading mode and idle strategies.
     */
    static MediaDriver.Context driverContext(String role) {
        return new MediaDriver.Context()
            .aeronDirectoryName(directory(role))
            .dirDeleteOnStart(true)
            .dirDeleteOnShutdown(true)
            .termBufferSparseFile(false)
            .mtuLength(MTU)
            .socketRcvbufLength(SOCKET_BUFFER)
            .socketSndbufLength(SOCKET_BUFFER)
            .nakUnicastDelayNs(NAK_DELAY_NS)
            .nakMulticastGroupSize(1)
            .nakMulticastMaxBackoffNs(NAK_MAX_BACKOFF_NS)
            .retransmitUnicastLingerNs(NAK_MAX_BACKOFF_NS)
            .initialWindowLength(SOCKET_BUFFER);
    }

    private static String directory(String role) {
        final File shm = new File("/dev/shm");
        final File base = shm.isDirectory() ? shm : new File(System.getProperty("java.io.tmpdir"));
        return new File(base, "nakcast-aeron-" + role + "-" + ProcessHandle.current().pid()).getPath();
    }
}
