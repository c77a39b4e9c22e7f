package org.nakcast.recorder.store;

import java.util.List;

import org.nakcast.transport.replay.ReplayRefusal;

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
 * @param refusing whether its disk refused what came, as of the catalog's last update: its stored
 *     frames end before {@code nextMessageIndex} (or it holds nothing), and nothing after them is
 *     stored until a segment can be made (if it stopped so, when it is resumed)
 * @param geometry its segments' shape
 */
public record RecordingDescriptor(long recordingId, int topicId, String topicName, int sessionId, long publisherId,
    long firstMessageIndex, long nextMessageIndex, long startEpochMs, long stopEpochMs, long bytes,
    long holeMessages, RecordingState state, boolean refusing, SegmentGeometry geometry) {

    /**
     * The recording of a topic's session to read from message {@code from}: of the session's
     * recordings (a recorder restarted may hold several), the last that begins at or before it, or
     * the first if none does; null if none records the session.
     */
    public static RecordingDescriptor find(List<RecordingDescriptor> recordings, int topicId, int sessionId,
        long from) {
        RecordingDescriptor found = null;
        for (RecordingDescriptor recording : recordings) {
            if (recording.topicId() == topicId && recording.sessionId() == sessionId
                && (found == null || recording.firstMessageIndex() <= from)) {
                found = recording;
            }
        }
        return found;
    }

    /**
     * Why a replay from a message past what this recording holds is refused. Failures of the
     * recorder, which an asker does not wait for at every gap: its disk refuses what comes
     * ({@link ReplayRefusal#NOT_STORING}); its node turns the session away now
     * ({@link ReplayRefusal#SESSION_REFUSED}); it stopped and nothing of the session has come to go
     * on with since ({@link ReplayRefusal#NOT_RECORDING}). Otherwise it is being recorded (or ended)
     * and may only be behind: {@link ReplayRefusal#NOT_HELD}.
     *
     * @param turnedAwayNow whether the recorder's node turns the session away now
     */
    public ReplayRefusal refusalPastItsEnd(boolean turnedAwayNow) {
        if (refusing) {
            return ReplayRefusal.NOT_STORING;
        }
        if (turnedAwayNow) {
            return ReplayRefusal.SESSION_REFUSED;
        }
        return state == RecordingState.STOPPED ? ReplayRefusal.NOT_RECORDING : ReplayRefusal.NOT_HELD;
    }
}
