package org.nakcast.simulator;

/**
 * The invariants a run is checked against, each with the label a violation starts with
 * ({@code [avoidable-loss] ...}): the guarantees of transport/README.md, numbered as there, and the
 * simulator's own rules for what a run may not do.
 */
enum Invariant {
    /** 1. Per publisher session, each message with its published bytes, in order, once. */
    ORDER("order"),
    /** 2. Any message skipped lies inside an exact loss event. */
    EXACT_LOSS("exact-loss"),
    /** 3. Given up only once really gone, as the receiver decides it. */
    GIVEN_UP_WHEN_GONE("given-up-when-gone"),
    /** 4. A subscription there before a session began gets it from its first message. */
    OWED_FROM_START("owed-from-start"),
    /** 5. Nothing of a session after it was told ended or restarted; ended only when closed and had. */
    AFTER_THE_END("after-the-end"),
    /** 6. After healing, every live subscription reaches the last message of every live session owed. */
    CONVERGENCE("convergence"),
    /** 7. A session's repairs stay within its repair budget at every send. */
    REPAIR_BUDGET("repair-budget"),
    /** 8. Retransmits per datagram needed again are bounded. */
    REPAIRS_PER_LOSS("repairs-per-loss"),
    /** 9. No more publisher streams than max-publishers; strays counted once and making nothing. */
    BOUNDED_MEMORY("bounded-memory"),
    /** 10. What a subscription's handler throws reaches its error handler or poller, nothing else. */
    ISOLATION("isolation"),
    /** 11. With line B healthy throughout, no NAK. */
    HEALTHY_LINE("healthy-line"),
    /** 12. No loss of what the publisher held while a repair could have reached the receiver. */
    AVOIDABLE_LOSS("avoidable-loss"),
    /** 13. Every live session publishes its quota; an offer with a live receiver is not refused for long. */
    LIVENESS("liveness"),
    /** 14. NAK datagrams per datagram needed again are bounded. */
    NAK_VOLUME("nak-volume"),
    /** 15. A receiver asks again for what it asked for no sooner than the shortest retry interval. */
    NAK_PACE("nak-pace"),
    /** 16. A publisher's sweep of repairs passes over nothing it was asked for and holds. */
    REPAIR_SWEEP("repair-sweep"),
    /** 17. A receiver keeps its NAK back only when a NAK it heard lately asks for the lowest datagram it misses. */
    SUPPRESSION("suppression"),
    /**
     * 18. A recorder's recording of a session holds its messages with their published bytes, in
     * order, once, every index from its first to its end a message or a hole, nothing past what was
     * published, and an end only if the publication ended.
     */
    RECORDING("recording"),
    /**
     * 19. A receiver whose topic names recorders loses no message a recorder held when its recovery
     * began and that answered it throughout; what it loses is one exact loss event naming them.
     */
    RECOVERY("recovery"),
    /**
     * 20. A stranger's datagram in a live session's name from its own address, read by a receiver
     * that already hears the session, is dropped and counted once as from a wrong source.
     */
    SOURCE_PINNED("source-pinned"),
    /**
     * 21. With authentication on, each datagram a node's socket read that no node signed is dropped,
     * counted under the one cause its bytes give, and each replay of one a socket took before is
     * dropped as replayed: nothing a stranger sends reaches a stream.
     */
    AUTHENTICATED("authenticated"),
    /** A node's own thread met an error (an agent's round threw), or the run itself threw. */
    ERRORS("errors");

    private final String label;

    Invariant(String label) {
        this.label = label;
    }

    /** The label violations of it start with, in brackets. */
    String label() {
        return label;
    }
}
