package org.nakcast.transport.sim;

import java.util.List;
import java.util.Set;

import org.nakcast.config.NodeConfig;
import org.nakcast.config.TopicConfig;
import org.nakcast.transport.NodeContext;

/**
 * Everything one seed decided: the configuration, the processes and what happens to them, the
 * network's faults, and how long the fault phase and the healed phase last.
 *
 * @param seed the seed it was drawn from
 * @param injected the fault kinds this seed uses
 * @param config the nodes' configuration (every process shares it)
 * @param context the knobs beside the configuration
 * @param publishers the publishing processes
 * @param subscribers the subscribing processes
 * @param faults what the network (line A's, with two lines) does wrong until it heals; it says how
 *     often a send is refused, too
 * @param strangerIntervalNs how often a stranger forges a datagram; 0 for no stranger
 * @param secondLine the second line when topics travel on two (each host is on both; the config names
 *     both lines, and their line timeout); null for one
 * @param faultPhaseNs when the network heals and the stranger stops; a pause or a restart drawn in
 *     the fault phase may end after it ({@link #allRunningAtNs()})
 * @param settleNs how long after healing, once the publishers have offered everything, nothing more
 *     has to arrive anywhere for the run to end; then every live subscriber must have everything
 */
record Scenario(long seed, Set<FaultKind> injected, NodeConfig config, NodeContext context,
    List<PublisherPlan> publishers, List<SubscriberPlan> subscribers, NetworkFaults faults, long strangerIntervalNs,
    SecondLine secondLine, long faultPhaseNs, long settleNs) {

    /**
     * Line B of a seed whose topics travel on two lines.
     *
     * @param faults what line B's segment does wrong until it heals
     * @param healthy whether line B does nothing wrong at all (and line A has network faults alone):
     *     no NAK may be sent
     */
    record SecondLine(NetworkFaults faults, boolean healthy) {
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
    }

    /**
     * A publishing process.
     *
     * @param topics what it publishes
     * @param pauses when its thread stops
     * @param crashAtNs when it is killed (-1: never)
     * @param restartAtNs when it starts again after that (-1: never)
     */
    record PublisherPlan(HostShape shape, List<PublisherHost.Topic> topics, List<Pause> pauses, long crashAtNs,
        long restartAtNs) {
        long lastStopEndNs() {
            return Scenario.lastStopEndNs(pauses, restartAtNs);
        }
    }

    /**
     * A subscribing process.
     *
     * @param subscriptions what it subscribes to
     * @param joinAtNs when it starts
     * @param pauses when its thread stops
     * @param crashAtNs when it is killed (-1: never)
     * @param restartAtNs when it starts again after that (-1: never)
     */
    record SubscriberPlan(HostShape shape, List<SubscriberHost.Subscription> subscriptions, long joinAtNs,
        List<Pause> pauses, long crashAtNs, long restartAtNs) {
        long lastStopEndNs() {
            return Math.max(joinAtNs, Scenario.lastStopEndNs(pauses, restartAtNs));
        }
    }
}
