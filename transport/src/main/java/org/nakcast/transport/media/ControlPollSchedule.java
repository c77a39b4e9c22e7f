package org.nakcast.transport.media;

/**
 * When an agent reads its control sockets (NAKs, STATUS): at most once per
 * {@link #INTERVAL_NS}, and at once again while the last read stopped at its batch limit (a burst
 * is drained without waiting). Control traffic is rare and its timers run in hundreds of
 * microseconds, so a few microseconds of delay cost nothing there; skipping the read (a system
 * call) in the other rounds keeps an idle round to the one read of the data socket, which is what
 * a waiting receiver's latency depends on.
 */
public final class ControlPollSchedule {
    /** The longest a control datagram waits to be read while the agent runs. */
    public static final long INTERVAL_NS = 20_000;

    private long lastPollNs = Long.MIN_VALUE;
    private boolean backlog;

    /** Whether the control sockets are due to be read at {@code nowNs}. */
    public boolean isDue(long nowNs) {
        return backlog || lastPollNs == Long.MIN_VALUE || nowNs - lastPollNs >= INTERVAL_NS;
    }

    /**
     * Records a read.
     *
     * @param nowNs when it happened
     * @param stoppedAtLimit true if it stopped at its batch limit: more may wait
     */
    public void polled(long nowNs, boolean stoppedAtLimit) {
        lastPollNs = nowNs;
        backlog = stoppedAtLimit;
    }
}
