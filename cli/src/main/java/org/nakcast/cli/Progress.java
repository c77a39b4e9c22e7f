package org.nakcast.cli;

import java.io.PrintWriter;
import java.util.concurrent.TimeUnit;
import java.util.function.LongFunction;
import java.util.function.LongSupplier;

/**
 * Prints a progress line once a second on a daemon thread, until closed: what {@code pub} and
 * {@code sub} show while they run. Each line is made from the count of the last second.
 */
final class Progress implements AutoCloseable {
    private final Thread thread;
    private volatile boolean running = true;

    /**
     * @param out where the lines go (stderr: stdout carries the result)
     * @param count the messages sent or received so far
     * @param line makes a line from the messages of the last second
     */
    Progress(PrintWriter out, LongSupplier count, LongFunction<String> line) {
        this.thread = new Thread(() -> {
            long last = count.getAsLong();
            long nextNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
            while (running) {
                final long waitNs = nextNs - System.nanoTime();
                if (waitNs > 0) {
                    sleep(Math.min(waitNs, TimeUnit.MILLISECONDS.toNanos(50)));
                    continue;
                }
                nextNs += TimeUnit.SECONDS.toNanos(1);
                final long now = count.getAsLong();
                out.println(line.apply(now - last));
                last = now;
            }
        }, "nakcast-progress");
        thread.setDaemon(true);
        thread.start();
    }

    private static void sleep(long nanos) {
        try {
            TimeUnit.NANOSECONDS.sleep(nanos);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stops the lines; returns once the thread has printed its last. */
    @Override
    public void close() {
        running = false;
        try {
            thread.join(1_000);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }
}
