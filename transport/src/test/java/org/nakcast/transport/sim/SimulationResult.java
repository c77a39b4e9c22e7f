package org.nakcast.transport.sim;

import java.util.List;
import java.util.Set;

/**
 * What one seed's run came to.
 *
 * @param seed the seed
 * @param injected the fault kinds it used
 * @param published messages offered and taken by the publishers
 * @param delivered messages delivered to subscriptions, over all of them
 * @param lossEvents loss events raised to subscriptions
 * @param lostMessages messages those events gave up
 * @param naksSent NAK datagrams the subscribers sent
 * @param retransmits datagrams the publishers resent
 * @param sharedLosses data datagrams the network lost before they fanned out
 * @param violations invariants broken
 * @param firstViolations the first few, in words
 * @param traceHash a hash of every delivery and loss event in order: the same seed gives the same hash
 * @param events scheduler actions run
 * @param simulatedNs the simulated time at the end
 * @param subscribers how many subscribing processes the seed ran
 */
record SimulationResult(long seed, Set<FaultKind> injected, long published, long delivered, long lossEvents,
    long lostMessages, long naksSent, long retransmits, long sharedLosses, long violations,
    List<String> firstViolations, long traceHash, long events, long simulatedNs, int subscribers) {
}
