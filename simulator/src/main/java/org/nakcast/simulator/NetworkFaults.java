package org.nakcast.simulator;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * What the simulated network does wrong until it heals: loss (per receiver copy, shared by every
 * copy of a datagram, in bursts, and in whole GRO trains), duplication, delay with reordering, one-way partitions and
 * stalled links. Data (publisher to receivers) and control (NAK, STATUS) traffic are lossy apart.
 * After {@link #healAtNs} nothing is lost, duplicated, partitioned or stalled; delays stay (a
 * healthy network reorders too).
 */
final class NetworkFaults {
    /** A link that drops everything from one host (or any host) to another in a time window. */
    record Partition(int fromHost, int toHost, long startNs, long endNs) {
        boolean cuts(int from, int to, long nowNs) {
            return (fromHost < 0 || fromHost == from) && toHost == to && nowNs >= startNs && nowNs < endNs;
        }
    }

    /** A host whose incoming link holds everything in a time window and lets it through at the end. */
    record Stall(int toHost, long startNs, long endNs) {
    }

    double dataLoss;
    double controlLoss;
    double sharedDataLoss;
    double burstStart;
    int burstLength;
    /** The chance a data datagram's copy begins a lost GRO train, and the most datagrams a train takes. */
    double trainStart;
    int trainDatagrams;
    double duplicate;
    /** The chance a send is refused while faults last. */
    double sendRefusal;
    long baseDelayNs = 10_000;
    long jitterMeanNs;
    long healAtNs = Long.MAX_VALUE;
    final List<Partition> partitions = new ArrayList<>();
    final List<Stall> stalls = new ArrayList<>();

    /** Whether faults still apply at {@code nowNs}. */
    boolean active(long nowNs) {
        return nowNs < healAtNs;
    }

    /** Whether a send at {@code nowNs} is refused; draws from {@code random} only while sends may be refused. */
    boolean refusesSend(long nowNs, SplittableRandom random) {
        return active(nowNs) && sendRefusal > 0 && random.nextDouble() < sendRefusal;
    }

    /** Whether any datagram from {@code from} to {@code to} is cut at {@code nowNs}. */
    boolean partitioned(int from, int to, long nowNs) {
        if (!active(nowNs)) {
            return false;
        }
        for (int i = 0; i < partitions.size(); i++) {
            if (partitions.get(i).cuts(from, to, nowNs)) {
                return true;
            }
        }
        return false;
    }

    /** Whether every partition and stall lasts less than {@code lengthNs}. */
    boolean cutsShorterThan(long lengthNs) {
        return partitions.stream().allMatch(cut -> cut.endNs() - cut.startNs() < lengthNs)
            && stalls.stream().allMatch(stall -> stall.endNs() - stall.startNs() < lengthNs);
    }

    /** When a datagram reaching {@code to} at {@code arrivalNs} really gets there: at a stall's end if stalled. */
    long stalledUntil(int to, long arrivalNs) {
        long at = arrivalNs;
        for (int i = 0; i < stalls.size(); i++) {
            final Stall stall = stalls.get(i);
            if (stall.toHost() == to && at >= stall.startNs() && at < stall.endNs()) {
                at = stall.endNs();
            }
        }
        return at;
    }
}
