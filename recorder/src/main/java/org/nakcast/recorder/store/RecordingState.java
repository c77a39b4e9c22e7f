package org.nakcast.recorder.store;

/** Where a recording stands, as its catalog descriptor says. */
public enum RecordingState {
    /** Its recorder is appending to it (or died while it was: recovery finds out). */
    RECORDING(1),
    /** Its recorder stopped recording it before its publisher ended the stream: it may be resumed. */
    STOPPED(2),
    /** Its publisher ended the stream and the recording holds an END frame: nothing will follow. */
    ENDED(3);

    private static final RecordingState[] ALL = values();

    private final int code;

    RecordingState(int code) {
        this.code = code;
    }

    /** The code stored in the catalog. */
    int code() {
        return code;
    }

    /** The state of {@code code}; null for a code this version does not know. */
    static RecordingState of(int code) {
        for (RecordingState state : ALL) {
            if (state.code == code) {
                return state;
            }
        }
        return null;
    }
}
