/**
 * The receiving side of a node. {@link org.nakcast.transport.receive.ReceiverAgent} owns the
 * sockets; the stream logic under it is free of I/O and clocks:
 * {@link org.nakcast.transport.receive.InboundStream} puts one (session, topic) stream's datagrams
 * back in order, delivers each message exactly once, NAKs gaps with adaptive timing, and turns
 * unrecoverable loss into a {@link org.nakcast.transport.LossEvent}. It is fed checked datagrams
 * and the time, and polled for due NAKs; tests do the same with a stepped clock.
 *
 * <p>The stream's parts, one job each: {@code Resequencer} delivers in order and holds in its
 * {@code ReorderWindow} the datagrams that arrived ahead of a gap; {@code MessageDelivery} and
 * {@code Reassembler} turn in-order datagrams into messages; {@code NakEmitter} decides what to NAK
 * and sends it, with {@code NakScheduler} and {@code RepairTimeEstimator} deciding when and
 * {@code MissingRanges} and {@code HeardNaks} what a NAK lists and whether another receiver's NAK
 * already asked for it; {@code UnrecoverableLoss} gives up what the publisher no longer holds;
 * {@code StreamReach} refuses what a datagram cannot truthfully claim; {@code LineArbiter} arbitrates
 * two lines. Above the streams, {@code TopicStreams} is a topic's one index of them (start, resume,
 * restart, end, with each session's {@code SessionLife}) and {@code TopicReceiver} fans out to the
 * topic's subscriptions.
 *
 * <p>Choices the design left open:
 * <ul>
 *   <li>A datagram further ahead than the reorder window, or longer than its slots, is dropped and
 *       counted as a window overflow; it is asked for again once the window has moved.</li>
 *   <li>Suppression: a NAK heard from another receiver that asks for everything this stream would
 *       ask for postpones this stream's pending NAK, first or retry, by a retry interval, as if it
 *       had been sent.</li>
 *   <li>A gap found while a retry is armed gets its own short random delay; the NAK it triggers
 *       lists the older gaps too (one datagram, and the publisher's hold-off absorbs repeats).</li>
 *   <li>Repair time is sampled only from a RETRANSMIT that the latest NAK asked for first (Karn's
 *       rule), so a late original or an answer to an older NAK does not skew it.</li>
 *   <li>An UNRECOVERABLE gives up everything up to its last sequence (the publisher's history is
 *       contiguous), held datagrams included, so the loss count taken from the wire stays exact.</li>
 *   <li>A message longer than the limit, or cut short by the start of another (a publisher that
 *       breaks the fragment rules), is dropped with a loss event for one message; delivery goes
 *       on with the next message whatever the loss policy.</li>
 *   <li>The NAK emitter counts NAKS_SENT; the sink counts datagrams and bytes sent.</li>
 * </ul>
 */
package org.nakcast.transport.receive;
