package org.nakcast.simulator;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import org.nakcast.config.FlowControlMode;
import org.nakcast.config.NodeConfig;
import org.nakcast.config.TopicConfig;
import org.nakcast.transport.node.NodeHarness;

/**
 * Everything one seed decided: the configuration, the processes and what happens to them, the
 * network's faults, and how long the fault phase and the healed phase last.
 *
 * @param seed the seed it was drawn from
 * @param injected the fault kinds this seed uses
 * @param config the nodes' configuration (every process shares it)
 * @param harness the protocol's knobs set in code (the defaults a service's node runs with)
 * @param publishers the publishing processes
 * @param subscribers the subscribing processes
 * @param recorders the recorder processes ({@link FaultKind#RECORDER}): each records every topic; its
 *     process's plan has no subscriptions of an application's
 * @param faults what the network (line A's, with two lines) does wrong until it heals; it says how
 *     often a send is refused, too
 * @param strangerIntervalNs how often a stranger forges a datagram; 0 for no stranger
 * @param secondLine the second line when topics travel on two (each host is on both; the config names
 *     both lines, and their line timeout); null for one
 * @param faultPhaseNs when the network heals and the stranger stops; a pause or a restart drawn in
 *     the fault phase may end after it ({@link #allRunningAtNs()})
 * @param settleNs how long after healing, once the publishers have offered everything, nothing more
 *     has to arrive anywhere for the run to end; then every live subscriber must have everything
 * @param recovery how the recorder answers the subscribers of topics that name recorders; null when
 *     no topic does
 */
record Scenario(long seed, Set<FaultKind> injected, NodeConfig config, NodeHarness harness,
    List<PublisherPlan> publishers, List<SubscriberPlan> subscribers, List<RecorderPlan> recorders,
    NetworkFaults faults, long strangerIntervalNs,
    SecondLine secondLine, long faultPhaseNs, long settleNs, RecoveryFaults recovery) {

    /**
     * What the seed's recorders do wrong when subscribers fetch from them: the first recorder process
     * is their recorder A, and with {@code sources} 2 the second is their recorder B (each drawing
     * its own faults).
     *
     * @param sources how many recorders the recovering topics name: 1 or 2, each a recorder process
     * @param refusal the chance a fetch is refused (as by a recorder serving too many clients)
     * @param answerDelayMaxNs the longest a fetch waits before its first answer
     * @param messagesPerPoll the most messages a fetch reads per poll: a slow disk
     * @param lagNs how long a message stays unserved after it was recorded (less than a heartbeat): a
     *     recorder whose catalog lags what it wrote, so that an answer ends short of what it holds
     * @param lateAtMostNs how late a recorder that is only behind may answer: a heartbeat, and a
     *     quarter of the publisher timeout, at most; one held longer by its disk fails the asker
     */
    record RecoveryFaults(int sources, double refusal, long answerDelayMaxNs, int messagesPerPoll, long lagNs,
        long lateAtMostNs) {
    }

    /**
     * Line B of a seed whose topics travel on two lines.
     *
     * @param faults what line B's segment does wrong until it heals
     * @param healthy whether line B does nothing wrong at all (and line A has network faults alone):
     *     no NAK may be sent
     */
    record SecondLine(NetworkFaults faults, boolean healthy) {
    }

    /** The fault kinds a seed repairable by construction may draw: see {@link #repairableByConstruction}. */
    private static final Set<FaultKind> REPAIRABLE_KINDS = EnumSet.of(FaultKind.LOSS, FaultKind.BURST,
        FaultKind.TRAIN_LOSS, FaultKind.SHARED_LOSS, FaultKind.DUPLICATION, FaultKind.REORDER, FaultKind.OVERFLOW,
        FaultKind.PARTITION, FaultKind.STALL, FaultKind.SEND_REFUSAL, FaultKind.PUBLISHER_PAUSE,
        FaultKind.SUBSCRIBER_PAUSE, FaultKind.THROWING_HANDLER, FaultKind.SHARED_PUBLISHER_ID,
        FaultKind.REDUNDANT_LINES, FaultKind.RECORDER, FaultKind.AUTHENTICATION);

    /** Whether the seed's transports authenticate their datagrams ({@link FaultKind#AUTHENTICATION}). */
    boolean authenticated() {
        return config.transports().get(0).authenticated();
    }

    /** The topic of id {@code topicId}. */
    TopicConfig topic(int topicId) {
        return config.topics().stream().filter(topic -> topic.id() == topicId).findFirst().orElseThrow();
    }

    /** The longest of every topic's publisher, flow-control and delivery-queue timeouts. */
    long longestTimeoutNs() {
        return longestTimeoutNs(config.topics());
    }

    /** The longest of the topics' publisher, flow-control and delivery-queue timeouts. */
    static long longestTimeoutNs(List<TopicConfig> topics) {
        long longest = 0;
        for (TopicConfig topic : topics) {
            longest = Math.max(longest, Math.max(topic.publisherTimeout().toNanos(),
                Math.max(topic.flowControlTimeout().toNanos(), topic.deliveryQueueTimeout().toNanos())));
        }
        return longest;
    }

    /** When the network has healed and every process that is to run again does: no pause or restart is left. */
    long allRunningAtNs() {
        long atNs = faultPhaseNs;
        for (PublisherPlan plan : publishers) {
            atNs = Math.max(atNs, plan.lastStopEndNs());
        }
        for (SubscriberPlan plan : subscribers) {
            atNs = Math.max(atNs, plan.lastStopEndNs());
        }
        for (RecorderPlan recorder : recorders) {
            atNs = Math.max(atNs, recorder.process().lastStopEndNs());
        }
        return atNs;
    }

    private static long lastStopEndNs(List<Pause> pauses, long restartAtNs) {
        long endNs = restartAtNs;
        for (Pause pause : pauses) {
            endNs = Math.max(endNs, pause.untilNs());
        }
        return endNs;
    }

    /** A pause of a process's thread. */
    record Pause(long fromNs, long untilNs) {
        long lengthNs() {
            return untilNs - fromNs;
        }
    }

    /**
     * How a process ends along the way, if it does: killed, or its node closed by its application
     * (it then exits), and when it starts again.
     *
     * @param atNs when it ends (-1: never)
     * @param closed whether its application closes its node rather than the process being killed
     * @param restartAtNs when it starts again after that (-1: never)
     */
    record Stop(long atNs, boolean closed, long restartAtNs) {
        /** A process that runs to the end. */
        static final Stop NEVER = new Stop(-1, false, -1);

        boolean happens() {
            return atNs >= 0;
        }

        boolean crash() {
            return happens() && !closed;
        }
    }

    /**
     * A publishing process.
     *
     * @param nodeName its node's name: two processes of one name publish under the same publisher ids
     * @param topics what it publishes
     * @param pauses when its thread stops
     * @param stop whether and how it ends along the way
     */
    record PublisherPlan(HostShape shape, String nodeName, List<PublisherHost.Topic> topics, List<Pause> pauses,
        Stop stop) {
        long lastStopEndNs() {
            return Scenario.lastStopEndNs(pauses, stop.restartAtNs());
        }
    }

    /** A recorder process: what happens to the process, and to its disk. */
    record RecorderPlan(SubscriberPlan process, Disk disk) {
    }

    /**
     * A recorder's disk ({@link FaultKind#DISK}).
     *
     * @param fullFromNs when it fills up: from then it refuses every segment; {@link Long#MAX_VALUE}: never
     * @param fullUntilNs when it has room again
     * @param slowPercent the chance, in percent, that making a segment stalls the recording thread
     * @param slowMaxNs the longest such a stall lasts
     * @param seed what the stalls are drawn from
     */
    record Disk(long fullFromNs, long fullUntilNs, int slowPercent, long slowMaxNs, long seed) {
        /** A disk that is never full and never slow. */
        static final Disk HEALTHY = new Disk(Long.MAX_VALUE, Long.MAX_VALUE, 0, 1, 0);

        boolean isFull(long nowNs) {
            return fullFromNs <= nowNs && nowNs < fullUntilNs;
        }
    }

    /**
     * A subscribing process.
     *
     * @param subscriptions what it subscribes to
     * @param joinAtNs when it starts
     * @param pauses when its thread stops
     * @param stop whether and how it ends along the way
     */
    record SubscriberPlan(HostShape shape, List<SubscriberHost.SubscriptionPlan> subscriptions, long joinAtNs,
        List<Pause> pauses, Stop stop) {
        long lastStopEndNs() {
            return Math.max(joinAtNs, Scenario.lastStopEndNs(pauses, stop.restartAtNs()));
        }
    }

    /**
     * Whether every loss this seed can bring about is one the protocol repairs: every topic holds
     * its publisher to its slowest live receiver (flow control {@code min}), no process crashes,
     * restarts, closes or joins late, nobody forges anything, and no process is paused, and no link
     * cut or stalled, for as long as it takes a receiver to be dropped from flow control (the
     * shortest flow-control timeout less the longest heartbeat, in which a live receiver sends its
     * STATUS). In such a seed no subscription may be told of any loss but its own overrun.
     */
    boolean repairableByConstruction() {
        if (!REPAIRABLE_KINDS.containsAll(injected)) {
            return false;
        }
        long shortestTimeoutNs = Long.MAX_VALUE;
        long longestHeartbeatNs = 0;
        for (TopicConfig topic : config.topics()) {
            if (topic.flowControl() != FlowControlMode.MIN) {
                return false;
            }
            shortestTimeoutNs = Math.min(shortestTimeoutNs, topic.flowControlTimeout().toNanos());
            longestHeartbeatNs = Math.max(longestHeartbeatNs, topic.heartbeat().toNanos());
        }
        final long shortNs = shortestTimeoutNs - longestHeartbeatNs;
        for (PublisherPlan plan : publishers) {
            if (plan.pauses().stream().anyMatch(pause -> pause.lengthNs() >= shortNs)) {
                return false;
            }
        }
        for (SubscriberPlan plan : subscribers) {
            if (plan.pauses().stream().anyMatch(pause -> pause.lengthNs() >= shortNs)) {
                return false;
            }
        }
        for (RecorderPlan recorder : recorders) {
            if (recorder.process().pauses().stream().anyMatch(pause -> pause.lengthNs() >= shortNs)) {
                return false;
            }
        }
        return faults.cutsShorterThan(shortNs) && (secondLine == null || secondLine.faults().cutsShorterThan(shortNs));
    }
}
