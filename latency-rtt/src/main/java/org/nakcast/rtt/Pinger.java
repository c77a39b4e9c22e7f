package org.nakcast.rtt;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The ping side's loop: sends a {@link PingMessage}, waits for its echo, records the round trip,
 * and again. Back-to-back sends the next ping as soon as the echo is in; at a fixed rate each ping
 * waits for its due time and is recorded with the expected interval, so a stall is not hidden
 * (coordinated omission is corrected). One thread does everything: it drives the link itself.
 *
 * <p>{@link #run} allocates nothing: no boxing, no lambdas, no logging.
 */
final class Pinger {
    private static final long PROBE_INTERVAL_NS = TimeUnit.MILLISECONDS.toNanos(10);
    private static final long END_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(1);

    private final RttLink link;
    private final String path;
    private final EchoWatch echoes;
    private final IdleStrategy idle;
    private final UnsafeBuffer message;
    private final int size;
    private final long timeoutNs;
    private long nextSequence;

    /**
     * @param link the link, built with {@code echoes} as its receiver
     * @param path the link's path, for messages
     * @param echoes the link's receiver
     * @param idle how to wait while no echo has come
     * @param size bytes per ping, at least {@link PingMessage#LENGTH}
     * @param timeoutNs how long to wait for an echo before giving up
     */
    Pinger(RttLink link, String path, EchoWatch echoes, IdleStrategy idle, int size, long timeoutNs) {
        this.link = link;
        this.path = path;
        this.echoes = echoes;
        this.idle = idle;
        this.size = size;
        this.timeoutNs = timeoutNs;
        this.message = new UnsafeBuffer(ByteBuffer.allocateDirect(size));
    }

    /**
     * Sends probes every 10 ms until one is echoed: the other side is there and both streams have
     * started.
     *
     * @throws IllegalStateException if no echo came within the timeout
     */
    void connect() {
        final long nowNs = System.nanoTime();
        if (!exchange(PingMessage.PROBE, nowNs, PROBE_INTERVAL_NS, nowNs + timeoutNs)) {
            throw new IllegalStateException("no echo on " + path + " within "
                + TimeUnit.NANOSECONDS.toMillis(timeoutNs) + " ms: is pong running, with the same config, topics, "
                + "--baseline, --peer, --media and --auth?");
        }
    }

    /**
     * Round trips, one after the other.
     *
     * @param count how many, at most
     * @param durationNs stop once this long has passed; 0 for no limit
     * @param intervalNs the time between sends at a fixed rate; 0 for back-to-back
     * @param log where the round trips go (a log without a file for the warm-up)
     * @return the round trips done
     * @throws IllegalStateException if an echo did not come within the timeout
     */
    long run(long count, long durationNs, long intervalNs, LatencyLog log) {
        final long startNs = System.nanoTime();
        long done = 0;
        while (done < count) {
            if (intervalNs > 0) {
                awaitDue(startNs + done * intervalNs);
            }
            final long sendNs = System.nanoTime();
            if (!exchange(nextSequence++, sendNs, 0, sendNs + timeoutNs)) {
                throw new IllegalStateException("no echo on " + path + " for ping " + (nextSequence - 1)
                    + " within " + TimeUnit.NANOSECONDS.toMillis(timeoutNs) + " ms");
            }
            log.record(echoes.roundTripNs(), intervalNs);
            done++;
            if (durationNs > 0 && echoes.receivedNs() - startNs >= durationNs) {
                break;
            }
        }
        return done;
    }

    /** Ends the phase: sends END until it is echoed, for at most a second; the other side moves on. */
    void finish() {
        final long nowNs = System.nanoTime();
        exchange(PingMessage.END, nowNs, PROBE_INTERVAL_NS, nowNs + END_TIMEOUT_NS);
    }

    /** Sends one message and polls until its echo came (true) or the deadline passed (false). */
    private boolean exchange(long sequence, long sendNs, long resendIntervalNs, long deadlineNs) {
        PingMessage.write(message, 0, sequence, sendNs);
        echoes.await(sequence);
        if (!send(deadlineNs)) {
            return false;
        }
        long resendAtNs = sendNs + resendIntervalNs;
        idle.reset();
        while (!echoes.echoed()) {
            final int work = link.poll();
            if (!echoes.echoed()) {
                final long nowNs = System.nanoTime();
                if (nowNs - deadlineNs > 0) {
                    return false;
                }
                if (resendIntervalNs > 0 && nowNs - resendAtNs > 0) {
                    if (!send(deadlineNs)) {
                        return false;
                    }
                    resendAtNs = nowNs + resendIntervalNs;
                }
                idle.idle(work);
            }
        }
        return true;
    }

    /**
     * Hands the message to the link, polling while the link cannot take it (back-pressured, or the
     * other side not connected yet).
     *
     * @return false if the deadline passed first
     */
    private boolean send(long deadlineNs) {
        while (!link.send(message, size)) {
            if (System.nanoTime() - deadlineNs > 0) {
                return false;
            }
            idle.idle(link.poll());
        }
        return true;
    }

    /** Keeps the link working until the due time. */
    private void awaitDue(long dueNs) {
        idle.reset();
        while (System.nanoTime() - dueNs < 0) {
            idle.idle(link.poll());
        }
    }
}
