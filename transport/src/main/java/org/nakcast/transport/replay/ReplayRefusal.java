package org.nakcast.transport.replay;

/**
 * Why a recorder refused a replay request, or a connection: sent in a REFUSED frame with a
 * sentence that names the request's figures.
 */
public enum ReplayRefusal implements WireCode {
    /** The recorder holds no recording of that topic and session. */
    NO_RECORDING(1, "no recording of that topic and session"),
    /**
     * The recording does not hold the first message asked for (it ends before it, or retention
     * removed it), or retention removed what came next while the request was answered (after what
     * was sent). What was asked before the recording began is no refusal: it is answered as a hole
     * ({@link HoleCause#BEFORE_RECORDING}), then what the recording holds.
     */
    NOT_HELD(2, "the recording does not hold what was asked for"),
    /** The request asks for more messages than one request may: ask in parts. */
    TOO_LONG(3, "more messages than one request may ask for"),
    /** A request came while the connection's last one was still being answered: one at a time. */
    BUSY(4, "the connection's previous request is still being answered"),
    /** The recorder serves as many connections as it may: try later, or the other recorder. */
    TOO_MANY_CLIENTS(5, "the recorder serves as many clients as it may"),
    /** The request was not one this version reads. */
    BAD_REQUEST(6, "a request this recorder cannot read"),
    /** The recording is damaged where the replay reached: nothing damaged is served. */
    DAMAGED(7, "the recording is damaged there"),
    /**
     * The recorder could not be reached, or the connection to it failed or went silent: never sent
     * by a recorder, an asker's own answer for one it could not hear.
     */
    UNREACHABLE(8, "the recorder could not be reached"),
    /**
     * The recording does not hold the first message asked for, nor will it soon: its disk refuses
     * what comes (a full disk), or did when the recording stopped. A failure of the recorder, not
     * an answer about the stream: the recording goes on (with a hole for what was refused) once
     * the disk takes segments again.
     */
    NOT_STORING(9, "the recorder's disk refuses what comes, so the recording does not hold it"),
    /**
     * The recorder has no recording of that session (or none that holds what was asked) because its
     * node turns the session away: the topic keeps as many publisher streams there as
     * {@code max-publishers} allows, or as many from the session's host as one host may hold. A
     * failure of the recorder, as {@link #NOT_STORING} is: it cannot come to hold what its publisher
     * no longer holds, and what it records once it has room begins where it begins.
     */
    SESSION_REFUSED(10, "the recorder's node turns that session away (its topic has no room for it)"),
    /**
     * The recording does not hold the first message asked for, and is not being recorded: it
     * stopped (its recorder was stopped or killed, or its node gave the session up) and its node
     * has heard nothing of the session to go on with since. A failure of the recorder, as
     * {@link #NOT_STORING} is: a recording that stopped comes to hold more only once its node hears
     * the session again, and then begins with what its publisher still holds.
     */
    NOT_RECORDING(11, "the recorder is not recording that session now (its recording stopped)"),
    /** A reason this version does not know (sent by a newer recorder). */
    UNKNOWN(0, "a reason unknown to this version");

    private static final ReplayRefusal[] ALL = values();

    private final int code;
    private final String reason;

    ReplayRefusal(int code, String reason) {
        this.code = code;
        this.reason = reason;
    }

    /** The code sent in a REFUSED frame. */
    @Override
    public int code() {
        return code;
    }

    /** The reason in words. */
    public String reason() {
        return reason;
    }

    /** The refusal of {@code code}; {@link #UNKNOWN} for a code this version does not know. */
    public static ReplayRefusal of(int code) {
        return WireCode.of(ALL, code, UNKNOWN);
    }
}
