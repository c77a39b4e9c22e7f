package org.nakcast.benchmarks.peers.aeron;

import io.aeron.driver.ThreadingMode;
import org.nakcast.rtt.LinkSetup;
import org.nakcast.rtt.RttLink;
import org.nakcast.rtt.RttPath;

/**
 * Aeron as a path of the latency-rtt tool ({@code --peer aeron}, {@code --peer aeron-shared}),
 * found through {@link java.util.ServiceLoader}: each side of the run gets an {@link AeronLink},
 * an exclusive publication and a subscription through a media driver embedded in its process. The
 * two differ only in who runs the driver:
 *
 * <ul>
 *   <li>{@code aeron} ({@link Invoker}): {@link ThreadingMode#INVOKER}; the side's one thread runs
 *   the driver's conductor, sender and receiver and the client's conductor in each poll, as it runs
 *   a nakcast node in threading mode {@code invoker}: the same one thread per side as the other
 *   paths, so the comparison is like for like.</li>
 *   <li>{@code aeron-shared} ({@link Shared}): {@link ThreadingMode#SHARED}; the driver's agents on
 *   one thread of their own per side, waiting with the run's {@code --idle}, the side's thread
 *   polling the client: the usual way to embed a driver, and one more busy thread per side.</li>
 * </ul>
 *
 * <p>Each path has a port of its own ({@link #portOffset}): a run measures its paths one after the
 * other, and the pong side of a phase that ended stays a moment to answer late repairs, so a path
 * that shared the previous one's channel and stream would have its first pings taken, and perhaps
 * never echoed, by the previous path's pong.
 */
public abstract sealed class AeronRttPath implements RttPath permits AeronRttPath.Invoker, AeronRttPath.Shared {
    private final String label;
    private final ThreadingMode threadingMode;
    private final int portOffset;

    AeronRttPath(String label, ThreadingMode threadingMode, int portOffset) {
        this.label = label;
        this.threadingMode = threadingMode;
        this.portOffset = portOffset;
    }

    @Override
    public String label() {
        return label;
    }

    @Override
    public RttLink open(LinkSetup setup, RttLink.Receiver receiver) {
        return new AeronLink(label, threadingMode, portOffset, setup, receiver);
    }

    /** How far above each transport's port this path's channel is. */
    int portOffset() {
        return portOffset;
    }

    /** {@code --peer aeron}: the side's own thread runs the media driver, at port + 3. */
    public static final class Invoker extends AeronRttPath {
        /** For {@link java.util.ServiceLoader}. */
        public Invoker() {
            super("aeron", ThreadingMode.INVOKER, 3);
        }
    }

    /** {@code --peer aeron-shared}: the media driver on one thread of its own per side, at port + 4. */
    public static final class Shared extends AeronRttPath {
        /** For {@link java.util.ServiceLoader}. */
        public Shared() {
            super("aeron-shared", ThreadingMode.SHARED, 4);
        }
    }
}
