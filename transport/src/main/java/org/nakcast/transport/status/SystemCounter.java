package org.nakcast.transport.status;

/**
 * The node-wide counters, each with a fixed type id and a label that a reading tool prints.
 * Counters are Agrona counters: another process can read them live.
 */
public enum SystemCounter {
    /** DATA, RETRANSMIT, HEARTBEAT, NAK and UNRECOVERABLE datagrams handed to the kernel. */
    DATAGRAMS_SENT(1, "datagrams sent"),
    /** Bytes of the datagrams sent. */
    BYTES_SENT(2, "bytes sent"),
    /** Datagrams read from the data and control ports (before any check). */
    DATAGRAMS_RECEIVED(3, "datagrams received"),
    /** Bytes of the datagrams received. */
    BYTES_RECEIVED(4, "bytes received"),
    /** NAK datagrams this node's receivers sent. */
    NAKS_SENT(5, "NAKs sent"),
    /** NAK datagrams this node's publishers received for their streams. */
    NAKS_RECEIVED(6, "NAKs received"),
    /** NAKs a receiver did not send because another receiver had asked for the same ranges. */
    NAKS_SUPPRESSED(7, "NAKs suppressed"),
    /** Datagrams a publisher sent again from history. */
    RETRANSMITS_SENT(8, "retransmits sent"),
    /** NAKed datagrams not resent because they had just been resent (storm guard). */
    RETRANSMITS_HELD_OFF(9, "retransmits held off"),
    /** DATA or RETRANSMIT datagrams received that had been received before. */
    DUPLICATES(10, "duplicate datagrams"),
    /** Gaps in a stream's sequence that a receiver detected. */
    GAPS(11, "gaps detected"),
    /** Ranges a receiver learned were gone from the publisher's history. */
    UNRECOVERABLE_RANGES(12, "unrecoverable ranges"),
    /** Messages lost in unrecoverable ranges. */
    LOST_MESSAGES(13, "messages lost"),
    /** UNRECOVERABLE answers a publisher sent. */
    UNRECOVERABLE_SENT(14, "unrecoverable answers sent"),
    /** HEARTBEAT datagrams a publisher sent. */
    HEARTBEATS_SENT(15, "heartbeats sent"),
    /** Datagrams that arrived too far ahead to hold in the reorder window (they are NAKed later). */
    REORDER_WINDOW_OVERFLOWS(16, "reorder window overflows"),
    /** Messages a receiver refused because their reassembled size passed the limit. */
    MESSAGES_TOO_LARGE(17, "messages too large"),
    /**
     * Offers refused because the publication's buffer was full: every refused call counts, so a
     * caller that retries in a tight loop moves it fast; compare it with messages offered.
     */
    BACK_PRESSURE(18, "back-pressure events"),
    /** Sends the kernel refused (buffer full, network down). */
    SEND_FAILURES(19, "send failures"),
    /** Streams a receiver dropped under its topic's loss policy. */
    STREAMS_DROPPED(20, "streams dropped"),
    /** Valid datagrams for a topic nobody on this node subscribed to. */
    NOT_SUBSCRIBED(21, "datagrams for unsubscribed topics"),
    /** Datagrams dropped on purpose by a configured loss generator. */
    LOSS_INJECTED(22, "datagrams dropped by loss injection"),
    /** Errors reported to the node's error handler. */
    ERRORS(23, "errors"),
    /** Datagrams rejected by the checks, all causes together (each cause has its own counter too). */
    MALFORMED(24, "malformed datagrams"),
    /** Messages a typed subscription's codec refused (corrupt, or a class it does not carry). */
    UNDECODABLE_MESSAGES(25, "undecodable messages"),
    /** Receivers a flow-control {@code min} publisher stopped waiting for after the timeout. */
    RECEIVERS_DROPPED(26, "receivers dropped by flow control"),
    /** Times a flow-control {@code min} publisher held data back for its slowest receiver. */
    FLOW_CONTROL_HOLDS(27, "flow-control holds"),
    /**
     * In-order datagrams a stream held back because a subscription's delivery queue was full (for at
     * most the topic's {@code delivery-queue-timeout}).
     */
    DELIVERY_QUEUE_FULL(28, "datagrams held for a full delivery queue"),
    /** Stream counters the counters file had no room for: those streams' positions are not visible outside. */
    STREAM_COUNTERS_UNAVAILABLE(29, "stream counters without room in the counters file"),
    /** Datagrams of a new publisher session dropped because its topic already keeps {@code max-publishers} streams. */
    PUBLISHER_STREAMS_REFUSED(30, "datagrams of refused publisher streams"),
    /**
     * Receivers a flow-control {@code min} publisher did not track because it already tracked the
     * most it waits for: a newcomer no slower than the fastest tracked one (its STATUS ignored), or
     * the fastest tracked one, displaced by a slower newcomer. One per STATUS that found the table full.
     */
    FLOW_CONTROL_RECEIVERS_TURNED_AWAY(31, "receivers turned away by a full flow-control table"),
    /**
     * Exceptions a subscription's handler or listener threw on the receiving thread: each reported to
     * the node's error handler; the message counts as delivered to it, and the others go on.
     */
    HANDLER_ERRORS(40, "subscriber handler errors"),
    /**
     * Datagrams of a session this receiver ended for good (its publisher restarted under a new
     * session, or the loss policy dropped it): nothing of an earlier incarnation is delivered.
     */
    ENDED_SESSION_DATAGRAMS(42, "datagrams of sessions ended for good"),
    /**
     * Messages a queued subscription missed because its poller took nothing from its full queue for
     * the topic's {@code delivery-queue-timeout}; each run is reported to it as a loss event.
     */
    SUBSCRIPTION_OVERRUN_MESSAGES(41, "messages missed by overrun subscriptions"),
    /**
     * Repairs a publisher held back because its repair budget ({@code repair-rate}) was spent:
     * each datagram that had to wait counts once, each UNRECOVERABLE answer not sent once.
     */
    REPAIRS_HELD_BACK(43, "repairs held back by the repair budget"),
    /**
     * Times one line of a stream heard on two lines went down (a {@code LineDown} event): it brought
     * nothing new while the other went on talking for the topic's {@code line-timeout}. Each stream counts its
     * own, so a line that fails under three streams counts three.
     */
    LINES_DOWN(44, "line-down events"),
    /**
     * Streams a receiver held from a new session's first datagrams but ended before their start was
     * decided (the session fell silent, or its publisher restarted): nothing of them was delivered,
     * and no event was raised, since the subscriber was never told they began.
     */
    STREAMS_GONE_UNSTARTED(45, "streams gone before their start"),
    /** Messages a recorder on this node wrote to its recordings (counted as each recording's progress is saved). */
    RECORDED_MESSAGES(46, "messages recorded"),
    /** Bytes a recorder on this node wrote to its segment files: frames with their headers and padding. */
    RECORDED_BYTES(47, "bytes recorded"),
    /** Segment files a recorder on this node made. */
    RECORDING_SEGMENTS(48, "recording segments made"),
    /**
     * Times a recorder on this node could not make a segment file (the disk full, or refusing): what
     * comes meanwhile is written down as a hole once a segment can be made.
     */
    RECORDING_SEGMENTS_REFUSED(49, "recording segments refused by the disk"),
    /** Holes a recorder on this node wrote: runs of messages it does not have, each with its cause. */
    RECORDED_HOLES(50, "holes recorded"),
    /** Messages inside the holes a recorder on this node wrote. */
    RECORDED_HOLE_MESSAGES(51, "messages recorded as holes"),
    /** Replay requests a recorder on this node answered to the end of their range. */
    REPLAYS_SERVED(52, "replays served"),
    /**
     * Replay requests (and connections) a recorder on this node refused, each with its reason sent
     * to the asker: no such recording, a range it does not hold or longer than a request may ask,
     * too many clients, a request it cannot read, a damaged recording.
     */
    REPLAY_REQUESTS_REFUSED(53, "replay requests refused"),
    /** Messages a recorder on this node sent in replays. */
    REPLAYED_MESSAGES(54, "messages replayed"),
    /**
     * Recoveries a receiver began: runs of messages its publisher no longer held, fetched from the
     * topic's recorders instead of given up.
     */
    RECOVERIES(55, "recoveries from recorders"),
    /** Messages a receiver fetched from its topic's recorders and delivered in order. */
    RECOVERED_MESSAGES(56, "messages recovered from recorders"),
    /**
     * NAKed ranges a publisher could not queue for repair: its retransmit queue already held as many
     * separate ranges as it takes, waiting for the repair budget. The receivers' next NAKs ask again.
     */
    RETRANSMITS_REFUSED(57, "repairs refused by a full retransmit queue"),
    /**
     * DATA, RETRANSMIT, HEARTBEAT and UNRECOVERABLE datagrams of a session dropped because they came
     * from another address or port than the one the receiver first heard the session from on that
     * line: another host, or another process, sending in a live session's name.
     */
    WRONG_SOURCE(58, "datagrams from a wrong source"),
    /**
     * NAKs a publisher answered only in part, or not at all, because what they asked for was more
     * than their source's share of the repair budget (half of it per host): one host asking for
     * much, again and again. Its receivers' next NAKs ask again for what was left out.
     */
    REPAIRS_OVER_SOURCE_SHARE(59, "NAKs beyond their source's repair share"),
    /**
     * STATUS a {@code min} publisher ignored because they named a receiver it first heard, on that
     * line, from another address: another host reporting in a receiver's name.
     */
    STATUS_WRONG_SOURCE(60, "STATUS from a wrong source"),
    /**
     * Receivers a {@code min} publisher dropped as stuck: heard, but a full window behind and not
     * moving for the flow-control timeout. Each is also a {@link #RECEIVERS_DROPPED} and benches its
     * address for a while.
     */
    RECEIVERS_STUCK(61, "receivers dropped by flow control as stuck"),
    /**
     * STATUS a {@code min} publisher ignored because they would bring in a new receiver from an
     * address benched after its receiver was dropped as stuck.
     */
    STATUS_FROM_BENCHED_HOSTS(62, "STATUS from benched hosts"),
    /**
     * Datagrams an authenticated transport dropped because they carry no authentication trailer:
     * from a node whose transport has no key file, or not nakcast's.
     */
    AUTH_UNSIGNED(63, "datagrams without authentication"),
    /**
     * Datagrams an authenticated transport dropped because they name a key (or a suite) its key
     * file does not hold: a node with another key file, or a key not rolled out here yet.
     */
    AUTH_UNKNOWN_KEY(64, "datagrams signed with an unknown key"),
    /**
     * Datagrams an authenticated transport dropped because their tag does not check: forged, or
     * changed on the way.
     */
    AUTH_BAD_TAG(65, "datagrams whose tag does not check"),
    /**
     * Datagrams an authenticated transport dropped because their nonce was accepted before, or is
     * too old to tell: a replay.
     */
    AUTH_REPLAYED(66, "datagrams replayed"),
    /**
     * Trains of datagrams the {@code native} media handed to the kernel as one UDP GSO message,
     * cut into datagrams on the way out: {@code datagrams sent} over this is how many datagrams a
     * train carried on average. 0 on {@code nio}.
     */
    GSO_TRAINS_SENT(67, "UDP GSO trains sent"),
    /**
     * Trains of datagrams of one sender the {@code native} media read from the kernel at once, with
     * UDP GRO, and cut back into datagrams: {@code datagrams received} over this is how many a train
     * carried on average. 0 on {@code nio}.
     */
    GRO_TRAINS_RECEIVED(68, "UDP GRO trains received");

    private final int typeId;
    private final String label;

    SystemCounter(int typeId, String label) {
        this.typeId = typeId;
        this.label = label;
    }

    /** The counter's type id in the counters file. */
    public int typeId() {
        return typeId;
    }

    /** The counter's label as a reading tool prints it. */
    public String label() {
        return label;
    }
}
