package org.nakcast.rtt;

import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.IdleStrategy;

/**
 * The pong side's loop: echoes every message back, byte for byte, until the ping side's END (or
 * {@link #stop()}), then stops receiving ({@link RttLink#stopReceiving()}) and stays a moment so the
 * END's echo goes out and late repairs of the echoes are answered.
 * One thread does everything: it drives the link itself. The loop allocates nothing.
 */
final class Ponger {
    private static final long LINGER_NS = TimeUnit.MILLISECONDS.toNanos(200);

    private final RttLink link;
    private final EchoBuffer echo;
    private final IdleStrategy idle;
    private volatile boolean stopped;

    /**
     * @param link the link, built with {@code echo} as its receiver
     * @param echo the link's receiver
     * @param idle how to wait while nothing arrives
     */
    Ponger(RttLink link, EchoBuffer echo, IdleStrategy idle) {
        this.link = link;
        this.echo = echo;
        this.idle = idle;
    }

    /**
     * Echoes until the END of the phase or {@link #stop()}.
     *
     * @return true if the phase ended with END, false if stopped
     */
    boolean serve() {
        idle.reset();
        while (!echo.ended() && !stopped) {
            idle.idle(work());
        }
        if (echo.ended()) {
            link.stopReceiving();
        }
        final long lingerEndNs = System.nanoTime() + LINGER_NS;
        while (!stopped && System.nanoTime() - lingerEndNs < 0) {
            idle.idle(work());
        }
        return echo.ended();
    }

    /** Makes {@link #serve()} return soon; from any thread. */
    void stop() {
        stopped = true;
    }

    private int work() {
        return link.poll() + echo.echoOn(link);
    }
}
