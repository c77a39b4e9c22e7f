package org.nakcast.rtt;

/**
 * One path a run measures: nakcast itself (on a media, with or without authenticated datagrams:
 * {@code NakcastPath}), the {@code raw-udp} baseline ({@code LinkKind}), or another messaging
 * system. Both sides of a run open each path in turn, ping's side and pong's, in one process
 * ({@code local}) or two.
 *
 * <p>Other systems plug in through {@link java.util.ServiceLoader}: a jar that names an
 * implementation (public, with a public no-argument constructor) in
 * {@code META-INF/services/org.nakcast.rtt.RttPath} lets {@code --peer LABEL} measure it in the
 * same run as nakcast, with the same message size, warm-up, count, rate, idle strategy and
 * recording. That keeps every other system out of this module's dependencies: the benchmarks
 * module provides {@code aeron} and {@code aeron-shared} this way ({@code ops/latency-peers}).
 */
public interface RttPath {
    /**
     * The path's name in {@code --peer}, in reports and in file names: lower-case letters, digits
     * and {@code '-'}.
     */
    String label();

    /**
     * Opens one side's link.
     *
     * @param setup which side, the run's config, topics, message size and idle strategy
     * @param receiver gets what arrives, on the thread that polls the link
     * @return the link, ready to be polled
     * @throws IllegalArgumentException if it cannot start (a setting this path cannot use, a
     *     socket, a driver): the message says what, and the tool exits with
     *     {@link LatencyRtt#CANNOT_START}
     */
    RttLink open(LinkSetup setup, RttLink.Receiver receiver);
}
