package org.nakcast.transport.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.agrona.DirectBuffer;

/**
 * A simulated multicast segment: every datagram sent to a port reaches, as its own copy, every
 * other host listening on that port, each copy suffering the {@link NetworkFaults} on its own
 * (per-receiver loss and bursts, duplication, exponential delay that reorders, partitions, stalls)
 * and arriving in that host's socket queue, which drops what it has no room for.
 */
final class SimNetwork {
    /** The two ports of a transport. */
    enum Port {
        /** DATA, RETRANSMIT, HEARTBEAT, UNRECOVERABLE: publishers send, receivers listen. */
        DATA,
        /** NAK, STATUS: receivers send, publishers and receivers listen. */
        CONTROL
    }

    /** What the network did, for the report. */
    static final class Tally {
        long copies;
        long lost;
        long sharedLost;
        long burstLost;
        long duplicated;
        long partitioned;
        long stalled;
    }

    private final Scheduler scheduler;
    private final SplittableRandom random;
    private final NetworkFaults faults;
    private final List<SimHost> hosts = new ArrayList<>();
    private final Tally tally = new Tally();
    /** Per (from, to) link: data datagrams still to lose in the current burst. */
    private int[][] burstLeft = new int[0][0];

    SimNetwork(Scheduler scheduler, SplittableRandom random, NetworkFaults faults) {
        this.scheduler = scheduler;
        this.random = random;
        this.faults = faults;
    }

    /** Adds a host; returns its id. */
    int attach(SimHost host) {
        hosts.add(host);
        final int size = hosts.size();
        final int[][] grown = new int[size][size];
        for (int i = 0; i < burstLeft.length; i++) {
            System.arraycopy(burstLeft[i], 0, grown[i], 0, burstLeft[i].length);
        }
        burstLeft = grown;
        return size - 1;
    }

    Tally tally() {
        return tally;
    }

    NetworkFaults faults() {
        return faults;
    }

    /**
     * Multicasts a datagram from host {@code from} to {@code port}. Copies that arrive at the same
     * time (no jitter, no stall) arrive in one scheduled action, in the order they were sent: the
     * same order as one action each, for a fraction of the scheduler's work.
     */
    void send(int from, Port port, DirectBuffer buffer, int offset, int length) {
        final long nowNs = scheduler.nowNs();
        final boolean faulty = faults.active(nowNs);
        if (faulty && port == Port.DATA && chance(faults.sharedDataLoss)) {
            tally.sharedLost++;
            return;
        }
        final Copies copies = new Copies(port, nowNs + faults.baseDelayNs);
        for (int to = 0; to < hosts.size(); to++) {
            final SimHost host = hosts.get(to);
            if (to == from || !host.listens(port)) {
                continue;
            }
            tally.copies++;
            if (faulty && dropped(from, to, port, nowNs)) {
                continue;
            }
            if (copies.bytes == null) {
                copies.bytes = new byte[length];
                buffer.getBytes(offset, copies.bytes);
            }
            deliver(copies, host, to);
            if (faulty && chance(faults.duplicate)) {
                tally.duplicated++;
                deliver(copies, host, to);
            }
        }
    }

    /** The copies of one datagram that arrive at the same time, at the hosts listed, in turn. */
    private final class Copies implements Runnable {
        private final Port port;
        private final long arrivalNs;
        private final List<SimHost> hosts = new ArrayList<>();
        private byte[] bytes;

        Copies(Port port, long arrivalNs) {
            this.port = port;
            this.arrivalNs = arrivalNs;
        }

        @Override
        public void run() {
            for (int i = 0; i < hosts.size(); i++) {
                hosts.get(i).arrive(port, bytes);
            }
        }
    }

    /** Sends one copy to {@code host}: with the others arriving at the same time, or on its own when delayed. */
    private void deliver(Copies copies, SimHost host, int to) {
        final long jittered = faults.jitterMeanNs > 0
            ? copies.arrivalNs + (long) (-Math.log(1 - random.nextDouble()) * faults.jitterMeanNs) : copies.arrivalNs;
        final long at = faults.active(jittered) ? faults.stalledUntil(to, jittered) : jittered;
        if (at != jittered) {
            tally.stalled++;
        }
        if (at != copies.arrivalNs) {
            final Port port = copies.port;
            final byte[] bytes = copies.bytes;
            scheduler.at(at, () -> host.arrive(port, bytes));
            return;
        }
        if (copies.hosts.isEmpty()) {
            scheduler.at(at, copies);
        }
        copies.hosts.add(host);
    }

    private boolean dropped(int from, int to, Port port, long nowNs) {
        if (faults.partitioned(from, to, nowNs)) {
            tally.partitioned++;
            return true;
        }
        if (port == Port.DATA) {
            if (burstLeft[from][to] > 0) {
                burstLeft[from][to]--;
                tally.burstLost++;
                return true;
            }
            if (faults.burstStart > 0 && chance(faults.burstStart)) {
                burstLeft[from][to] = 1 + random.nextInt(Math.max(1, faults.burstLength));
                tally.burstLost++;
                return true;
            }
        }
        if (chance(port == Port.DATA ? faults.dataLoss : faults.controlLoss)) {
            tally.lost++;
            return true;
        }
        return false;
    }

    private boolean chance(double probability) {
        return probability > 0 && random.nextDouble() < probability;
    }
}
