package org.nakcast.transport.sim;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One simulated process on the segment (on each line's segment when topics travel on two): its
 * socket queues, one per port and line (each a receive buffer that drops what it has no room for),
 * and its thread, which runs a round of work at a time. After a round with work
 * the next comes {@code busyNs} later; after an idle one the wait doubles up to {@code maxIdleNs},
 * as a back-off idle strategy parks. A paused process runs no rounds while datagrams pile up in its
 * queues; a crashed one never runs again.
 */
abstract class SimHost {
    private static final long MIN_IDLE_NS = 1_000;

    final Scheduler scheduler;
    /** The segments of the lines, line A first; this host has the same id on each. */
    final List<SimNetwork> lines;
    final String name;
    final int id;
    private final List<ArrayDeque<byte[]>> dataQueues = new ArrayList<>();
    private final List<ArrayDeque<byte[]>> controlQueues = new ArrayList<>();
    /** Per line: whether it refuses the send in hand. */
    private final boolean[] refusing = new boolean[2];
    private final int queueLimit;
    private final long busyNs;
    private final long maxIdleNs;
    private final UnsafeBuffer view = new UnsafeBuffer(new byte[0]);
    private long idleNs = MIN_IDLE_NS;
    private boolean running;
    private boolean crashed;
    private boolean everStarted;
    private int generation;
    /** Datagrams the socket queues dropped for want of room, and how many of them were DATA or RETRANSMIT. */
    long overflowed;
    long dataOverflowed;
    /** Per line: DATA and RETRANSMIT datagrams its socket queue dropped. */
    final long[] dataOverflowedOnLine = new long[2];
    /** Pauses that stopped a running process (and of them those longer than every timeout), and crashes. */
    long pauses;
    long longPauses;
    long crashes;
    long errors;
    RuntimeException firstError;

    SimHost(Scheduler scheduler, List<SimNetwork> lines, String name, int queueLimit, long busyNs, long maxIdleNs) {
        this.scheduler = scheduler;
        this.lines = lines;
        this.name = name;
        this.queueLimit = queueLimit;
        this.busyNs = busyNs;
        this.maxIdleNs = maxIdleNs;
        int attached = -1;
        for (SimNetwork line : lines) {
            final int lineId = line.attach(this);
            if (attached >= 0 && lineId != attached) {
                throw new IllegalStateException("hosts must attach to every line in the same order");
            }
            attached = lineId;
            dataQueues.add(new ArrayDeque<>());
            controlQueues.add(new ArrayDeque<>());
        }
        this.id = attached;
    }

    /**
     * Decides which lines take the next send, each refusing on its own while its faults say so (a
     * refusal draws from {@code random}); {@link #sendOnTakingLines} then sends on them.
     *
     * @return how many lines refused
     */
    final int refusingLines(SplittableRandom random) {
        int refused = 0;
        for (int line = 0; line < lines.size(); line++) {
            refusing[line] = lines.get(line).faults().refusesSend(scheduler.nowNs(), random);
            refused += refusing[line] ? 1 : 0;
        }
        return refused;
    }

    /** Sends a datagram to {@code port} on every line that takes it (see {@link #refusingLines}). */
    final void sendOnTakingLines(SimNetwork.Port port, DirectBuffer buffer, int offset, int length) {
        for (int line = 0; line < lines.size(); line++) {
            if (!refusing[line]) {
                lines.get(line).send(id, port, buffer, offset, length);
            }
        }
    }

    /** Whether this host's sockets listen on {@code port}. */
    abstract boolean listens(SimNetwork.Port port);

    /** One round of the host's thread; returns the work done. Exceptions end the round, as an agent's do. */
    abstract int round(long nowNs);

    /** Builds what the process holds when it (re)starts. */
    abstract void onStart(long nowNs);

    /** Drops what the process held when it crashes. */
    abstract void onCrash(long nowNs);

    /** Stray datagrams (see {@link StrayCheck}) the process was handed. */
    long strays() {
        return 0;
    }

    boolean isRunning() {
        return running;
    }

    boolean isCrashed() {
        return crashed;
    }

    /** A datagram reached one of this host's sockets on {@code line}. */
    final void arrive(int line, SimNetwork.Port port, byte[] datagram) {
        if (crashed || !listens(port)) {
            return;
        }
        final ArrayDeque<byte[]> queue = queue(line, port);
        if (queue.size() >= queueLimit) {
            overflowed++;
            final boolean data = SimNetwork.carriesData(new UnsafeBuffer(datagram), 0, datagram.length);
            dataOverflowed += port == SimNetwork.Port.DATA && data ? 1 : 0;
            dataOverflowedOnLine[line] += port == SimNetwork.Port.DATA && data ? 1 : 0;
            return;
        }
        queue.add(datagram);
    }

    /**
     * Starts the process at {@code atNs}, or starts it again if it crashed; nothing if it was started
     * and has not crashed since (paused or not).
     */
    final void startAt(long atNs) {
        scheduler.at(atNs, () -> {
            if (everStarted && !crashed) {
                return;
            }
            everStarted = true;
            crashed = false;
            running = true;
            clearQueues();
            onStart(scheduler.nowNs());
            scheduleRound(scheduler.nowNs());
        });
    }

    /**
     * Stops the process's thread from {@code fromNs} to {@code untilNs}.
     *
     * @param outlastsTimeouts whether the pause is longer than every timeout of the run, for the report
     */
    final void pause(long fromNs, long untilNs, boolean outlastsTimeouts) {
        scheduler.at(fromNs, () -> {
            if (running) {
                running = false;
                pauses++;
                longPauses += outlastsTimeouts ? 1 : 0;
                generation++;
                scheduler.at(untilNs, () -> {
                    if (!crashed && !running) {
                        running = true;
                        scheduleRound(scheduler.nowNs());
                    }
                });
            }
        });
    }

    /** Kills the process at {@code atNs}: its sockets close, its memory goes. */
    final void crash(long atNs) {
        scheduler.at(atNs, () -> {
            if (!crashed) {
                crashed = true;
                crashes++;
                running = false;
                generation++;
                clearQueues();
                onCrash(scheduler.nowNs());
            }
        });
    }

    private ArrayDeque<byte[]> queue(int line, SimNetwork.Port port) {
        return (port == SimNetwork.Port.DATA ? dataQueues : controlQueues).get(line);
    }

    private void clearQueues() {
        dataQueues.forEach(ArrayDeque::clear);
        controlQueues.forEach(ArrayDeque::clear);
    }

    /** Hands up to {@code limit} datagrams queued on {@code line} for {@code port} to {@code reader}: how many. */
    final int read(int line, SimNetwork.Port port, int limit, DatagramReader reader) {
        final ArrayDeque<byte[]> queue = queue(line, port);
        int read = 0;
        while (read < limit && !queue.isEmpty()) {
            final byte[] datagram = queue.poll();
            view.wrap(datagram);
            read++;
            reader.read(view, datagram.length);
        }
        return read;
    }

    private void scheduleRound(long atNs) {
        final int expected = generation;
        scheduler.at(atNs, () -> {
            if (!running || expected != generation) {
                return;
            }
            final long nowNs = scheduler.nowNs();
            int work;
            try {
                work = round(nowNs);
            } catch (RuntimeException ex) {
                errors++;
                if (firstError == null) {
                    firstError = ex;
                }
                work = 1;
            }
            if (work > 0) {
                idleNs = MIN_IDLE_NS;
                scheduleRound(nowNs + busyNs);
            } else {
                scheduleRound(nowNs + idleNs);
                idleNs = Math.min(maxIdleNs, idleNs * 2);
            }
        });
    }

    /** Reads one datagram from a socket queue. */
    @FunctionalInterface
    interface DatagramReader {
        void read(UnsafeBuffer buffer, int length);
    }
}
