package org.nakcast.transport.protocol;

/**
 * The kinds of datagram nakcast puts on the wire, by the code carried in the header's type field,
 * and the port each travels to: the one place that rule is written.
 *
 * <p>DATA, RETRANSMIT, HEARTBEAT and UNRECOVERABLE travel from a publisher to the data port of a
 * transport; NAK and STATUS travel from a receiver to the control port, where the publisher and
 * every other receiver hear them. A datagram of a type that arrives on the other port is malformed
 * ({@link org.nakcast.transport.status.DatagramCheck#WRONG_PORT}).
 */
public enum FrameType {
    /** Messages, first send. */
    DATA(1, Port.DATA),
    /** Messages, sent again from history in answer to a NAK. */
    RETRANSMIT(2, Port.DATA),
    /** A publisher's liveness beacon carrying its highest sequence, so a lost tail is found. */
    HEARTBEAT(3, Port.DATA),
    /** A receiver's request for ranges of datagrams it missed. */
    NAK(4, Port.CONTROL),
    /** A publisher's answer to a NAK for datagrams no longer in its history. */
    UNRECOVERABLE(5, Port.DATA),
    /** A receiver's report of how far it has consumed a stream, for flow control. */
    STATUS(6, Port.CONTROL);

    /** The two ports of a transport. */
    public enum Port {
        /** The transport's port: what publishers send, receivers listen on. */
        DATA,
        /** The transport's port + 1: what receivers send, publishers and receivers listen on. */
        CONTROL
    }

    private static final FrameType[] BY_CODE = new FrameType[8];

    static {
        for (FrameType type : values()) {
            BY_CODE[type.code] = type;
        }
    }

    private final int code;
    private final Port port;

    FrameType(int code, Port port) {
        this.code = code;
        this.port = port;
    }

    /** The code carried on the wire. */
    public int code() {
        return code;
    }

    /** The port datagrams of this type travel to. */
    public Port port() {
        return port;
    }

    /**
     * Whether a datagram whose type field reads {@code code} belongs on {@code arrivedOn}: false for
     * a type of the other port, or a code nakcast does not know.
     */
    public static boolean belongsOn(Port arrivedOn, int code) {
        final FrameType type = fromCode(code);
        return type != null && type.port == arrivedOn;
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
