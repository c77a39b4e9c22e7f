package org.nakcast.transport.status;

/**
 * The verdict on a received datagram: {@link #VALID}, or the first thing found wrong with it.
 * Each cause has its own counter, so an operator can tell a foreign sender from a corrupt link.
 */
public enum DatagramCheck {
    /** Every field checked out. */
    VALID("valid"),
    /** Shorter than the common header. */
    TOO_SHORT("shorter than a header"),
    /** Does not start with nakcast's magic: another application on the port. */
    BAD_MAGIC("foreign magic"),
    /** A protocol version this code does not speak. */
    UNSUPPORTED_VERSION("unsupported version"),
    /** A type code nakcast does not know. */
    UNKNOWN_TYPE("unknown type"),
    /** Flag bits set that no version defines. */
    BAD_FLAGS("undefined flags"),
    /** The length field disagrees with the bytes received, or the type's fixed length. */
    LENGTH_MISMATCH("length mismatch"),
    /** A topic id outside 1..2^31-1. */
    BAD_TOPIC("bad topic id"),
    /** A sequence or message count that cannot occur (negative, or a range running backwards). */
    BAD_SEQUENCE("bad sequence"),
    /**
     * A NAK asking for more than
     * {@link org.nakcast.transport.protocol.NakFlyweight#MAX_DATAGRAMS_ASKED} datagrams in all its
     * ranges, which no receiver sends (a stranger asking for a whole history, or a corrupt datagram).
     */
    NAK_TOO_WIDE("NAK asking for more than " + org.nakcast.transport.protocol.NakFlyweight.MAX_DATAGRAMS_ASKED
        + " datagrams"),
    /**
     * A type that does not belong on the port it arrived on: a NAK or STATUS on a data port, a DATA,
     * RETRANSMIT, HEARTBEAT or UNRECOVERABLE on a control port.
     */
    WRONG_PORT("a type that does not belong on this port"),
    /** Message frames that overrun the datagram or break the fragment rules. */
    BAD_FRAMES("bad message frames"),
    /**
     * Well-formed, but its sequence lies further ahead than its publisher can have got since the
     * stream started (a corrupt or forged datagram): given by the stream, not by the stateless checks.
     */
    OUT_OF_REACH("sequence out of the publisher's reach"),
    /**
     * An UNRECOVERABLE whose message index says more messages were lost than its datagrams can
     * have held (a corrupt or forged datagram): given by the stream.
     */
    IMPLAUSIBLE_LOSS("more messages lost than the datagrams can hold"),
    /**
     * An UNRECOVERABLE that gives up datagrams past the highest its stream has seen (forged, or an
     * answer to a receiver further ahead while this one lost the newest datagrams, which it then
     * NAKs itself): given by the stream, which ignores it.
     */
    GONE_BEYOND_SEEN("UNRECOVERABLE past the highest datagram seen"),
    /**
     * A HEARTBEAT saying the stream ended below a datagram its stream has already seen, which its
     * publisher cannot have sent (a corrupt or forged datagram): given by the stream, which ignores it.
     */
    END_BELOW_SEEN("end of stream below a datagram seen"),
    /**
     * A STATUS whose position lies beyond what its publisher stream has sent, which no receiver can
     * have consumed (a corrupt or forged datagram): given by a flow-control {@code min} publisher.
     */
    STATUS_BEYOND_SENT("STATUS position beyond what was sent");

    private final String description;

    DatagramCheck(String description) {
        this.description = description;
    }

    /** A short description, used in counter labels and events. */
    public String description() {
        return description;
    }
}
