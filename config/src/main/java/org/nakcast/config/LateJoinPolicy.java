package org.nakcast.config;

/**
 * Where a subscriber that joins a running topic starts ({@code topics[].late-join} in YAML).
 */
public enum LateJoinPolicy {
    /** At the live edge: the next message sent, the default. Nothing is replayed. */
    NOW,
    /** At the oldest message still in the publisher's history, which is then replayed to it. */
    OLDEST,
    /**
     * At the session's first message: what the publisher no longer holds is fetched from the
     * topic's {@code recorders} (without them, a loss event tells what was missed).
     */
    SESSION_START
}
