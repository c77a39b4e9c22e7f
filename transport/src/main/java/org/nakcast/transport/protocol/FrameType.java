package org.nakcast.transport.protocol;

/**
 * The kinds of datagram nakcast puts on the wire, by the code carried in the header's type field.
 *
 * <p>DATA, RETRANSMIT, HEARTBEAT and UNRECOVERABLE travel from a publisher to the data port of a
 * transport; NAK and STATUS travel from a receiver to the control port, where the publisher and
 * every other receiver hear them.
 */
public enum FrameType {
    /** Messages, first send. */
    DATA(1),
    /** Messages, sent again from history in answer to a NAK. */
    RETRANSMIT(2),
    /** A publisher's liveness beacon carrying its highest sequence, so a lost tail is found. */
    HEARTBEAT(3),
    /** A receiver's request for ranges of datagrams it missed. */
    NAK(4),
    /** A publisher's answer to a NAK for datagrams no longer in its history. */
    UNRECOVERABLE(5),
    /** A receiver's report of how far it has consumed a stream, for flow control. */
    STATUS(6);

    private static final FrameType[] BY_CODE = new FrameType[8];

    static {
        for (FrameType type : values()) {
            BY_CODE[type.code] = type;
        }
    }

    private final int code;

    FrameType(int code) {
        this.code = code;
    }

    /** The code carried on the wire. */
    public int code() {
        return code;
    }

    /**
     * The type for a code read off the wire.
     *
     * @return the type, or {@code null} for a code nakcast does not know
     */
    public static FrameType fromCode(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
