package org.nakcast.config;

/**
 * What a node's thread does when it finds no work ({@code node.idle-strategy} in YAML).
 */
public enum IdleStrategyType {
    /**
     * Spin a little, yield a little, then park for growing intervals, the default: an idle node
     * costs close to no CPU, at the price of some microseconds to wake.
     */
    BACKOFF,
    /** Busy-spin: the lowest latency, and a whole core burnt even when idle. Opt in for latency. */
    SPIN,
    /** Yield the core to other threads between polls: lower CPU than spin, still never idle. */
    YIELD,
    /** Sleep between polls: the least CPU and the slowest reaction. */
    SLEEP
}
