package org.nakcast.recorder.store;

/**
 * What the catalog says of one recording: a publisher stream's messages from
 * {@code firstMessageIndex} up to, not including, {@code nextMessageIndex}, holes among them.
 *
 * @param recordingId its id: its place in the catalog, and the prefix of its segment files' names
 * @param topicId the topic
 * @param topicName the topic's name
 * @param sessionId the publisher session
 * @param publisherId the publisher's id, stable across its restarts (0 if not known)
 * @param firstMessageIndex the first message it holds (retention moves it on)
 * @param nextMessageIndex one past the last message it holds, as of the catalog's last update
 * @param startEpochMs when recording began
 * @param stopEpochMs when it stopped; -1 while recording
 * @param bytes bytes of frames it stored
 * @param holeMessages messages it holds as holes
 * @param state where it stands
 * @param geometry its segments' shape
 */
public record RecordingDescriptor(long recordingId, int topicId, String topicName, int sessionId, long publisherId,
    long firstMessageIndex, long nextMessageIndex, long startEpochMs, long stopEpochMs, long bytes,
    long holeMessages, RecordingState state, SegmentGeometry geometry) {
}
