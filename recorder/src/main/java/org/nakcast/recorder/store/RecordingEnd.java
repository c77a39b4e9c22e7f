package org.nakcast.recorder.store;

/**
 * Where a recording's stored frames end, as {@link RecordingRecovery} found it.
 *
 * @param recordingId the recording
 * @param segmentNumber its last segment; -1 if it has none (it never stored a frame)
 * @param endOffset where the next frame goes in that segment
 * @param nextMessageIndex the index the next message would have
 * @param ended whether it ended with an END frame (its publisher ended the stream)
 * @param cutBytes bytes of a torn frame found after the end and cleared (0 if the tail was clean)
 */
public record RecordingEnd(long recordingId, int segmentNumber, int endOffset, long nextMessageIndex,
    boolean ended, long cutBytes) {
}
