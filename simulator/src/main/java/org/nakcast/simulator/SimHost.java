package org.nakcast.simulator;

import java.util.ArrayList;
import java.util.List;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.nakcast.transport.media.DatagramSource;
import org.nakcast.transport.protocol.FrameType;

/**
 * One simulated process on the segment (on each line's segment when topics travel on two): the
 * sockets it opened ({@link SimSocket}, each a receive buffer that drops what it has no room for)
 * and its thread, which runs a round of work at a time. After a round with work the next comes
 * {@code busyNs} later; after an idle one the wait doubles up to {@code maxIdleNs}, as a back-off
 * idle strategy parks. A paused process runs no rounds while datagrams pile up in its sockets; a
 * crashed one loses its sockets and runs no more until it is started again.
 */
abstract class SimHost {
    private static final long MIN_IDLE_NS = 1_000;

    final Scheduler scheduler;
    /** The segments of the lines, line A first; this host has the same id on each. */
    final List<SimNetwork> lines;
    final String name;
    final int id;
    final HostShape shape;
    /** Where the datagrams its sockets drop are noted as needed again. */
    private final RepairDemand demand;
    private final List<SimSocket> sockets = new ArrayList<>();
    private long idleNs = MIN_IDLE_NS;
    private boolean running;
    /** Whether the process exists: started, and neither crashed nor exited since. */
    private boolean alive;
    private int generation;
    /** Datagrams the sockets dropped for want of room, and how many of them were DATA or RETRANSMIT. */
    long overflowed;
    long dataOverflowed;
    /** Per line: DATA and RETRANSMIT datagrams its sockets dropped. */
    final long[] dataOverflowedOnLine = new long[2];
    /** Pauses that stopped a running process (and of them those longer than every timeout), and crashes. */
    long pauses;
    long longPauses;
    long crashes;

    SimHost(Scheduler scheduler, List<SimNetwork> lines, String name, HostShape shape) {
        this.scheduler = scheduler;
        this.lines = lines;
        this.demand = lines.get(0).demand();
        this.name = name;
        this.shape = shape;
        int attached = -1;
        for (SimNetwork line : lines) {
            final int lineId = line.attach(this);
            if (attached >= 0 && lineId != attached) {
                throw new IllegalStateException("hosts must attach to every line in the same order");
            }
            attached = lineId;
        }
        this.id = attached;
    }

    /** One round of the host's thread; returns the work done. */
    abstract int round(long nowNs);

    /** Builds what the process holds when it (re)starts. */
    abstract void onStart(long nowNs);

    /** Drops what the process held when it crashes; its sockets are closed already. */
    abstract void onCrash(long nowNs);

    boolean isRunning() {
        return running;
    }

    /** Whether no process runs on this host now: not started yet, crashed, or exited. */
    boolean isDown() {
        return !alive;
    }

    /** Opens a socket listening on {@code port} of {@code line}. */
    final SimSocket openSocket(int line, FrameType.Port port) {
        final SimSocket socket = new SimSocket(line, port, shape.queueLimit());
        sockets.add(socket);
        return socket;
    }

    /** Closes a socket this host opened. */
    final void closeSocket(SimSocket socket) {
        socket.close();
        sockets.remove(socket);
    }

    /** Whether any socket of this host listens on {@code port} of {@code line}. */
    final boolean listens(int line, FrameType.Port port) {
        for (int i = 0; i < sockets.size(); i++) {
            final SimSocket socket = sockets.get(i);
            if (socket.line == line && socket.port == port) {
                return true;
            }
        }
        return false;
    }

    /**
     * A datagram host {@code from} sent reached this host on {@code port} of {@code line}, from the
     * address of host {@code source}: each socket listening there gets a copy.
     */
    final void arrive(int line, FrameType.Port port, int from, int source, byte[] datagram) {
        for (int i = 0; i < sockets.size(); i++) {
            final SimSocket socket = sockets.get(i);
            if (socket.line == line && socket.port == port && !socket.offer(from, source, datagram)) {
                overflowed++;
                if (port == FrameType.Port.DATA
                    && SimNetwork.carriesData(new UnsafeBuffer(datagram), 0, datagram.length)) {
                    dataOverflowed++;
                    dataOverflowedOnLine[line]++;
                    demand.note(datagram);
                }
            }
        }
    }

    /** Sends a datagram to {@code port} on {@code line}. */
    final void transmit(int line, FrameType.Port port, DirectBuffer buffer, int offset, int length) {
        transmitAs(id, line, port, buffer, offset, length);
    }

    /** Sends a datagram to {@code port} on {@code line} with the source address of host {@code source}. */
    final void transmitAs(int source, int line, FrameType.Port port, DirectBuffer buffer, int offset, int length) {
        lines.get(line).send(id, source, port, buffer, offset, length);
    }

    /**
     * The address and port host {@code hostId} sends from on {@code line}: 10.{line}.x.y, its id in
     * the last two bytes, port 40000 (one sending socket per line and process).
     */
    static DatagramSource sourceOf(int hostId, int line, DatagramSource into) {
        return into.ipv4(0x0A00_0000 | line << 16 | hostId & 0xFFFF, 40_000);
    }

    /**
     * Starts the process at {@code atNs}, or starts it again if it crashed or exited; nothing if it
     * lives (paused or not).
     */
    final void startAt(long atNs) {
        scheduler.at(atNs, () -> {
            if (alive) {
                return;
            }
            alive = true;
            running = true;
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
                    if (alive && !running) {
                        running = true;
                        scheduleRound(scheduler.nowNs());
                    }
                });
            }
        });
    }

    /** Kills the process at {@code atNs}: its sockets close, its memory goes. */
    final void crash(long atNs) {
        scheduler.at(atNs, this::crashNow);
    }

    /** Kills the process now, if it lives. */
    final void crashNow() {
        if (alive) {
            crashes++;
            exit();
            onCrash(scheduler.nowNs());
        }
    }

    /** Ends the process: no more rounds, its sockets closed; for a crash, or a process that stopped by itself. */
    final void exit() {
        alive = false;
        running = false;
        generation++;
        sockets.forEach(SimSocket::close);
        sockets.clear();
    }

    private void scheduleRound(long atNs) {
        final int expected = generation;
        scheduler.at(atNs, () -> {
            if (!running || expected != generation) {
                return;
            }
            final long nowNs = scheduler.nowNs();
            final int work = round(nowNs);
            if (!running || expected != generation) {
                return;
            }
            if (work > 0) {
                idleNs = MIN_IDLE_NS;
                scheduleRound(nowNs + shape.busyNs());
            } else {
                scheduleRound(nowNs + idleNs);
                idleNs = Math.min(shape.maxIdleNs(), idleNs * 2);
            }
        });
    }
}
