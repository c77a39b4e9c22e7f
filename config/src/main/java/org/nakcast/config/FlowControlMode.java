package org.nakcast.config;

/**
 * Whose pace a topic's publisher keeps ({@code topics[].flow-control} in YAML).
 */
public enum FlowControlMode {
    /**
     * The publisher goes as fast as its pacing allows: one slow receiver cannot slow the others, but
     * a receiver that falls further behind than the publisher's history holds loses messages (a loss
     * event names them). The explicit choice for feeds whose latest value supersedes the ones before
     * (prices, positions), where a late message is worth less than a current one.
     */
    MAX,
    /**
     * The publisher is held to its slowest live receiver, the default: no live receiver falls out of
     * history, so none loses a message, and everybody goes at the speed of the slowest. A receiver
     * silent for the topic's {@code flow-control-timeout} is dropped (an event) and the others go on;
     * with no live receiver at all, offers answer {@code NOT_CONNECTED} until one's first STATUS.
     */
    MIN
}
