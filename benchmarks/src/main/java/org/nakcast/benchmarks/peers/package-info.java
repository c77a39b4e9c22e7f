/**
 * The peer systems {@code ops/throughput --peers} measures beside nakcast, each in a publisher JVM
 * and a subscriber JVM that speak the same child-JVM protocol and run the same delivery check as
 * nakcast's ({@link org.nakcast.benchmarks.throughput.CheckedPublisher},
 * {@link org.nakcast.benchmarks.throughput.CheckedSubscriber}): raw messages numbered in their
 * first eight bytes, on loopback multicast bound to {@code lo}, TTL 0. Aeron is also a path of the
 * latency-rtt tool ({@link org.nakcast.benchmarks.peers.aeron.AeronRttPath}, {@code ops/latency-peers}).
 * Nothing outside the benchmarks module sees these systems.
 */
package org.nakcast.benchmarks.peers;
