package org.nakcast.transport.sim;

import java.util.List;
import java.util.Set;

import org.nakcast.config.NodeConfig;
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
 * @param faults what the network does wrong until it heals
 * @param strangerIntervalNs how often a stranger forges a datagram; 0 for no stranger
 * @param sendRefusal the chance a send is refused while faults last
 * @param faultPhaseNs when the network heals and every process runs again
 * @param settleNs how long after healing, once the publishers have offered everything, nothing more
 *     has to arrive anywhere for the run to end; then every live subscriber must have everything
 */
record Scenario(long seed, Set<FaultKind> injected, NodeConfig config, NodeContext context,
    List<PublisherPlan> publishers, List<SubscriberPlan> subscribers, NetworkFaults faults, long strangerIntervalNs,
    double sendRefusal, long faultPhaseNs, long settleNs) {

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
    }
}
