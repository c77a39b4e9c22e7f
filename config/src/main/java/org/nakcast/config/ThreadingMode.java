package org.nakcast.config;

/**
 * How a node's work is spread over threads ({@code node.threading} in YAML).
 */
public enum ThreadingMode {
    /** A thread for sending and one for receiving: lowest latency, wants two free cores. */
    DEDICATED,
    /**
     * One thread does both sending and receiving, the default: it suits a 2-core box, where
     * dedicated spinning threads starve each other and the application.
     */
    SHARED,
    /** No thread of its own: the application calls the node's work method from its own loop. */
    INVOKER
}
