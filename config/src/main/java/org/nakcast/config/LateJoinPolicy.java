package org.nakcast.config;

/**
 * Where a subscriber that joins a running topic starts ({@code topics[].late-join} in YAML).
 */
public enum LateJoinPolicy {
    /** At the live edge: the next message sent, the default. Nothing is replayed. */
    NOW,
    /** At the oldest message still in the publisher's history, which is then replayed to it. */
    OLDEST
}
