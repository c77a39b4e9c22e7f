package org.nakcast.config;

/**
 * Whose pace a topic's publisher keeps ({@code topics[].flow-control} in YAML).
 */
public enum FlowControlMode {
    /**
     * The publisher goes as fast as its pacing allows, the default: one slow receiver cannot slow
     * the others; it repairs from history or meets its loss policy.
     */
    MAX,
    /**
     * The publisher is held to its slowest live receiver: nobody falls behind, and everybody goes
     * at the speed of the slowest.
     */
    MIN
}
