package org.nakcast.transport.replay;

/**
 * Why a recording has a hole: the messages of a hole were never stored, for this reason. A recording
 * stores the code in its HOLE frames, and a replay sends it to the asker with the hole (and says
 * {@link #BEFORE_RECORDING} of what was asked before its recording began).
 */
public enum HoleCause implements WireCode {
    /** The transport gave them up: the publisher no longer held them when the recorder asked. */
    LOST_IN_TRANSPORT(1, "lost in transport before the recorder had them"),
    /** The recorder had them but could not store them (disk full, a file that could not be made). */
    NOT_STORED(2, "not stored: the recorder's disk refused them"),
    /** The recorder was down while they were sent, and its publisher no longer held them after. */
    RECORDER_DOWN(3, "sent while the recorder was down"),
    /**
     * Sent before the recording began (a recorder that joined the session late): never stored, a
     * replay's answer for what was asked before the first message its recording holds.
     */
    BEFORE_RECORDING(4, "sent before the recording began"),
        /** A cause this version does not know (written by a newer one). */
    UNKNOWN(0, "cause unknown to this version");

    private static final HoleCause[] ALL = values();

    private final int code;
    private final String reason;

    HoleCause(int code, String reason) {
        this.code = code;
        this.reason = reason;
    }

    /** The code stored in a HOLE frame. */
    @Override
    public int code() {
        return code;
    }

    /** The cause in words. */
    public String reason() {
        return reason;
    }

    /** The cause of {@code code}; {@link #UNKNOWN} for a code this version does not know. */
    public static HoleCause of(int code) {
        return WireCode.of(ALL, code, UNKNOWN);
    }
}
