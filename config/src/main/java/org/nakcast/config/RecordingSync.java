package org.nakcast.config;

/**
 * When a recorder forces what it recorded to the disk ({@code recorder.sync} in YAML). Whatever is
 * chosen, what was recorded survives the recorder's process dying (the written pages belong to the
 * kernel); the choice decides what survives the machine losing power.
 */
public enum RecordingSync {
    /** Never forced by the recorder: the kernel writes the pages back when it chooses. */
    NONE,
    /** Each segment file forced when it is full and when its recording stops, the default. */
    SEGMENT,
    /** The segment being written forced every {@code sync-interval}, and each segment when it is closed. */
    PERIODIC
}
