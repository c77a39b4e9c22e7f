package org.nakcast.simulator;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What one seed's run came to.
 *
 * @param seed the seed
 * @param injected the fault kinds it drew
 * @param injectedByKind what was injected of each kind (see {@link SimulationReport} for the units),
 *     also of kinds the seed did not draw when other faults brought them about (a pause fills socket
 *     queues until they overflow)
 * @param longPublisherPauses publisher pauses longer than every timeout of the run
 * @param longSubscriberPauses subscriber pauses longer than every timeout of the run
 * @param strays datagrams the processes were handed that were no datagram or on the wrong port
 * @param copiesTaken the stranger's copies of signed datagrams the processes' sockets took, new to them
 * @param receiversDropped receivers the publishers dropped from flow control
 * @param streamsGoneUnstarted streams the subscribers' nodes ended before their start
 * @param reached the states of a stream's life the run reached (see {@link StreamWatch})
 * @param published messages offered and taken by the publishers
 * @param delivered messages delivered to subscriptions, over all of them
 * @param lossEvents loss events raised to subscriptions
 * @param lostMessages messages those events gave up
 * @param naksSent NAK datagrams the subscribers sent
 * @param retransmits datagrams the publishers resent
 * @param neededAgain datagrams the receivers may have had to ask for again (see
 *     {@link Simulation#checkRepairsPerLoss})
 * @param distinctNeededAgain the distinct datagrams among them (see {@link Simulation#checkRepairsPerLoss})
 * @param sharedLosses data datagrams the network lost before they fanned out
 * @param violations invariants broken
 * @param violationsPerInvariant how many of each invariant
 * @param firstViolations the first few, in words
 * @param traceHash a hash of every delivery and loss event in order: the same seed gives the same hash
 * @param events scheduler actions run
 * @param simulatedNs the simulated time at the end
 * @param subscribers how many subscribing processes the seed ran
 */
record SimulationResult(long seed, Set<FaultKind> injected, Map<FaultKind, Long> injectedByKind,
    long longPublisherPauses, long longSubscriberPauses, long strays, long copiesTaken, long receiversDropped,
    long streamsGoneUnstarted,
    StreamWatch.Reached reached, long published, long delivered, long lossEvents, long lostMessages, long naksSent,
    long retransmits, long neededAgain,
    long distinctNeededAgain,
    long sharedLosses, long violations, Map<Invariant, Long> violationsPerInvariant, List<String> firstViolations,
    long traceHash, long events, long simulatedNs,
    int subscribers) {
}
