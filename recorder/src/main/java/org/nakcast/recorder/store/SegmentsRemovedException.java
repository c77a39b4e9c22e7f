package org.nakcast.recorder.store;

import java.io.IOException;

/**
 * A reader reached the end of a segment whose successor retention has removed while it read: the
 * recording no longer holds what comes next, and the reader cannot go on from where it is.
 */
public final class SegmentsRemovedException extends IOException {
    private static final long serialVersionUID = 1L;

    private final long nextMessageIndex;

    /**
     * @param recordingId the recording read
     * @param segment the segment read to its end
     * @param nextMessageIndex the message the reader needed next
     */
    public SegmentsRemovedException(long recordingId, int segment, long nextMessageIndex) {
        super("recording " + recordingId + ": the segments after " + segment + " were removed by retention while"
            + " they were read, from message " + nextMessageIndex + " on");
        this.nextMessageIndex = nextMessageIndex;
    }

    /** The message the reader needed next: every one before it was handed out. */
    public long nextMessageIndex() {
        return nextMessageIndex;
    }
}
