package org.nakcast.recorder.store;

import java.util.concurrent.TimeUnit;

/**
 * When a recording's mapped pages are forced to the disk. Whatever the policy, what was written
 * survives the recorder's process dying (the pages are the kernel's); a policy decides what
 * survives the machine losing power.
 *
 * @param mode when to force
 * @param intervalNs for {@link Mode#PERIODIC}, how often; 0 otherwise
 */
public record SyncPolicy(Mode mode, long intervalNs) {
    /** Never forced by the recorder: the kernel writes pages back when it chooses. */
    public static final SyncPolicy NONE = new SyncPolicy(Mode.NONE, 0);
    /** Each segment forced when it is full and when its recording stops. */
    public static final SyncPolicy PER_SEGMENT = new SyncPolicy(Mode.PER_SEGMENT, 0);

    /** When to force. */
    public enum Mode {
        /** Never. */
        NONE,
        /** When a segment is closed. */
        PER_SEGMENT,
        /** Every interval, and when a segment is closed. */
        PERIODIC
    }

    /** Checks that only a periodic policy has an interval, and that it is positive. */
    public SyncPolicy {
        if (mode == Mode.PERIODIC ? intervalNs <= 0 : intervalNs != 0) {
            throw new IllegalArgumentException("sync policy " + mode + " with interval " + intervalNs
                + " ns: only a periodic policy has an interval, and it must be positive");
        }
    }

    /** A periodic policy: the active segment forced every {@code interval}. */
    public static SyncPolicy periodic(long interval, TimeUnit unit) {
        return new SyncPolicy(Mode.PERIODIC, unit.toNanos(interval));
    }

    /** Whether a closed segment is forced. */
    boolean forcesClosedSegments() {
        return mode != Mode.NONE;
    }
}
