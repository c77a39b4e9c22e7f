package org.nakcast.config;

/**
 * What a subscriber does when data it missed is gone from the publisher's history
 * ({@code topics[].loss-policy} in YAML). Either way a loss event with the exact range is raised:
 * loss is never silent.
 */
public enum LossPolicy {
    /** Raise the loss event and go on after the gap, the default: the stream stays live. */
    CONTINUE,
    /** Raise the loss event and drop the subscriber, with the reason: for consumers that need every message. */
    DROP
}
