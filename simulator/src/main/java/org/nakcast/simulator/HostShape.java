package org.nakcast.simulator;

/**
 * How a simulated process runs: the datagrams each socket queue holds (its receive buffer), the
 * time a round with work takes, and the longest its idle strategy parks.
 */
record HostShape(int queueLimit, long busyNs, long maxIdleNs) {
}
