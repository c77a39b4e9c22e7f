package org.nakcast.simulator;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.nakcast.transport.protocol.FrameType;
import org.nakcast.transport.protocol.HeaderFlyweight;

/**
 * A simulated multicast segment: every datagram sent to a port reaches, as its own copy, every
 * other host with a socket on that port, each copy suffering the {@link NetworkFaults} on its own
 * (per-receiver loss and bursts, duplication, exponential delay that reorders, partitions, stalls)
 * and arriving in that host's socket queue, which drops what it has no room for. A seed whose
 * topics travel on two lines has two segments, each with its own faults, and every host on both.
 */
final class SimNetwork {
    /** Sees every datagram sent on the segment, before the network does anything to it. */
    @FunctionalInterface
    interface WireTap {
        /** Host {@code from} sent a datagram to {@code port} of line {@code line}. */
        void sent(int from, int line, FrameType.Port port, DirectBuffer buffer, int offset, int length);
    }

    /** What the network did, for the report and the bound on repairs. */
    static final class Tally {
        long copies;
        long lost;
        long sharedLost;
        long burstLost;
        long trainLost;
        long duplicated;
        long partitioned;
        long stalled;
        /** RETRANSMIT copies a stalled link held: their receiver may ask again meanwhile. */
        long stalledRepairs;
        /** Copies that arrived after a copy sent later on the same link. */
        long reordered;
        /** Copies of DATA and RETRANSMIT datagrams lost in any way, a datagram lost before it fans out once. */
        long dataLost;
    }

    private final Scheduler scheduler;
    private final int line;
    private final SplittableRandom random;
    private final NetworkFaults faults;
    private final List<SimHost> hosts = new ArrayList<>();
    private final Tally tally = new Tally();
    private WireTap tap = (from, line, port, buffer, offset, length) -> { };
    private final RepairDemand demand;
    /** Per (from, to) link: data datagrams still to lose in the current burst. */
    private int[][] burstLeft = new int[0][0];
    /** Per (from, to) link: data datagrams still to lose of the GRO train being lost. */
    private int[][] trainLeft = new int[0][0];
    /** Per (from, to) link: copies sent, and the latest of them (by when sent) that arrived. */
    private long[][] sentOnLink = new long[0][0];
    private long[][] arrivedOnLink = new long[0][0];

    /**
     * @param line which line this segment is: 0 (A) or 1 (B)
     * @param demand where the datagrams receivers need again are noted, shared by the lines
     */
    SimNetwork(Scheduler scheduler, int line, SplittableRandom random, NetworkFaults faults, RepairDemand demand) {
        this.scheduler = scheduler;
        this.line = line;
        this.random = random;
        this.faults = faults;
        this.demand = demand;
    }

    /** Adds a host; returns its id. */
    int attach(SimHost host) {
        hosts.add(host);
        final int size = hosts.size();
        final int[][] grown = new int[size][size];
        final int[][] grownTrains = new int[size][size];
        final long[][] grownSent = new long[size][size];
        final long[][] grownArrived = new long[size][size];
        for (int i = 0; i < burstLeft.length; i++) {
            System.arraycopy(burstLeft[i], 0, grown[i], 0, burstLeft[i].length);
            System.arraycopy(trainLeft[i], 0, grownTrains[i], 0, trainLeft[i].length);
            System.arraycopy(sentOnLink[i], 0, grownSent[i], 0, sentOnLink[i].length);
            System.arraycopy(arrivedOnLink[i], 0, grownArrived[i], 0, arrivedOnLink[i].length);
        }
        burstLeft = grown;
        trainLeft = grownTrains;
        sentOnLink = grownSent;
        arrivedOnLink = grownArrived;
        return size - 1;
    }

    Tally tally() {
        return tally;
    }

    /** Where the datagrams receivers need again are noted. */
    RepairDemand demand() {
        return demand;
    }

    /** Shows every datagram sent on this segment to {@code tap}. */
    void tap(WireTap tap) {
        this.tap = tap;
    }

    NetworkFaults faults() {
        return faults;
    }

    /**
     * Multicasts a datagram from host {@code from} to {@code port}, its source address that of host
     * {@code source} (the sender's own, or one it spoofs). Copies that arrive at the same time (no
     * jitter, no stall) arrive in one scheduled action, in the order they were sent: the same order
     * as one action each, for a fraction of the scheduler's work.
     */
    void send(int from, int source, FrameType.Port port, DirectBuffer buffer, int offset, int length) {
        tap.sent(from, line, port, buffer, offset, length);
        final long nowNs = scheduler.nowNs();
        final boolean faulty = faults.active(nowNs);
        final boolean data = carriesData(buffer, offset, length);
        if (faulty && port == FrameType.Port.DATA && chance(faults.sharedDataLoss)) {
            tally.sharedLost++;
            tally.dataLost += data ? 1 : 0;
            demand.note(buffer, offset, length);
            return;
        }
        final Copies copies = new Copies(from, source, port, nowNs + faults.baseDelayNs);
        for (int to = 0; to < hosts.size(); to++) {
            final SimHost host = hosts.get(to);
            if (to == from || !host.listens(line, port)) {
                continue;
            }
            tally.copies++;
            if (faulty && dropped(from, to, port, nowNs)) {
                tally.dataLost += data ? 1 : 0;
                demand.note(buffer, offset, length);
                continue;
            }
            if (copies.bytes == null) {
                copies.bytes = new byte[length];
                buffer.getBytes(offset, copies.bytes);
            }
            deliver(copies, to);
            if (faulty && chance(faults.duplicate)) {
                tally.duplicated++;
                demand.note(buffer, offset, length);
                deliver(copies, to);
            }
        }
    }

    /** The copies of one datagram that arrive at the same time, at the hosts listed, in turn. */
    private final class Copies implements Runnable {
        private final int from;
        private final int source;
        private final FrameType.Port port;
        private final long arrivalNs;
        private int[] hosts = new int[4];
        private long[] linkSequences = new long[4];
        private int count;
        private byte[] bytes;

        Copies(int from, int source, FrameType.Port port, long arrivalNs) {
            this.from = from;
            this.source = source;
            this.port = port;
            this.arrivalNs = arrivalNs;
        }

        void add(int to, long linkSequence) {
            if (count == hosts.length) {
                hosts = Arrays.copyOf(hosts, 2 * count);
                linkSequences = Arrays.copyOf(linkSequences, 2 * count);
            }
            hosts[count] = to;
            linkSequences[count++] = linkSequence;
        }

        @Override
        public void run() {
            for (int i = 0; i < count; i++) {
                arrive(from, source, hosts[i], linkSequences[i], port, bytes);
            }
        }
    }

    /** Sends one copy to host {@code to}: with the others arriving at the same time, or on its own when delayed. */
    private void deliver(Copies copies, int to) {
        final long jittered = faults.jitterMeanNs > 0
            ? copies.arrivalNs + (long) (-Math.log(1 - random.nextDouble()) * faults.jitterMeanNs) : copies.arrivalNs;
        final long at = faults.active(jittered) ? faults.stalledUntil(to, jittered) : jittered;
        if (at != jittered) {
            tally.stalled++;
            if (isRetransmit(copies.bytes)) {
                tally.stalledRepairs++;
                demand.note(copies.bytes);
            }
        }
        final long linkSequence = ++sentOnLink[copies.from][to];
        if (at != copies.arrivalNs) {
            final int from = copies.from;
            final int source = copies.source;
            final FrameType.Port port = copies.port;
            final byte[] bytes = copies.bytes;
            scheduler.at(at, () -> arrive(from, source, to, linkSequence, port, bytes));
            return;
        }
        if (copies.count == 0) {
            scheduler.at(at, copies);
        }
        copies.add(to, linkSequence);
    }

    /** A copy reaches host {@code to}; it is counted as reordered if one sent after it on its link came first. */
    private void arrive(int from, int source, int to, long linkSequence, FrameType.Port port, byte[] bytes) {
        if (linkSequence < arrivedOnLink[from][to]) {
            tally.reordered++;
            demand.note(bytes);
        } else {
            arrivedOnLink[from][to] = linkSequence;
        }
        hosts.get(to).arrive(line, port, from, source, bytes);
    }

    private boolean dropped(int from, int to, FrameType.Port port, long nowNs) {
        if (faults.partitioned(from, to, nowNs)) {
            tally.partitioned++;
            return true;
        }
        if (port == FrameType.Port.DATA) {
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
            if (trainLeft[from][to] > 0) {
                trainLeft[from][to]--;
                tally.trainLost++;
                return true;
            }
            if (faults.trainStart > 0 && chance(faults.trainStart)) {
                trainLeft[from][to] = random.nextInt(faults.trainDatagrams);
                tally.trainLost++;
                return true;
            }
        }
        if (chance(port == FrameType.Port.DATA ? faults.dataLoss : faults.controlLoss)) {
            tally.lost++;
            return true;
        }
        return false;
    }

    private static boolean isRetransmit(byte[] datagram) {
        return datagram.length >= HeaderFlyweight.HEADER_LENGTH
            && HeaderFlyweight.typeCodeAt(new UnsafeBuffer(datagram), 0) == FrameType.RETRANSMIT.code();
    }

    /** Whether the datagram is a DATA or a RETRANSMIT: one whose loss a receiver repairs. */
    static boolean carriesData(DirectBuffer buffer, int offset, int length) {
        if (length < HeaderFlyweight.HEADER_LENGTH) {
            return false;
        }
        final int type = HeaderFlyweight.typeCodeAt(buffer, offset);
        return type == FrameType.DATA.code() || type == FrameType.RETRANSMIT.code();
    }

    private boolean chance(double probability) {
        return probability > 0 && random.nextDouble() < probability;
    }
}
