package org.nakcast.simulator;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import org.agrona.DirectBuffer;
import org.agrona.collections.IntHashSet;
import org.agrona.concurrent.UnsafeBuffer;
import org.nakcast.transport.protocol.DatagramValidator;
import org.nakcast.transport.protocol.FrameType;
import org.nakcast.transport.protocol.HeaderFlyweight;
import org.nakcast.transport.protocol.HeartbeatFlyweight;
import org.nakcast.transport.protocol.UnrecoverableFlyweight;
import org.nakcast.transport.status.DatagramCheck;

/**
 * The checker's view of the wire: every datagram any process sends, on any line, before the
 * network does anything to it. A datagram a publisher sends on both lines counts once. From it the
 * checker learns what each session sent (so what its history must still hold), its publisher id,
 * and which sessions exist on a data port at all; and it checks, at every send, that a session's
 * repairs stay within its repair budget and that an UNRECOVERABLE gives up only what the history
 * may have lost. In an authenticated seed each node's datagram is read without its trailer, and
 * noted as signed ({@link SignedDatagrams}); the stranger's, forged or copied, are passed over: no
 * socket takes what it forges, and what it copies was sent before.
 */
final class WireWatch implements SimNetwork.WireTap {
    private final Scheduler scheduler;
    private final Map<Integer, PublishedSession> sessions;
    private final Violations violations;
    /** The datagrams the nodes signed, in an authenticated seed; null in another. */
    private final SignedDatagrams signed;
    private final HeaderFlyweight header = new HeaderFlyweight();
    private final HeartbeatFlyweight heartbeat = new HeartbeatFlyweight();
    private final UnrecoverableFlyweight unrecoverable = new UnrecoverableFlyweight();
    private final UnsafeBuffer view = new UnsafeBuffer(new byte[0]);
    /** The datagrams sent at the current instant, so that a second line's copy is known as one. */
    private final Set<Sent> sentNow = new HashSet<>();
    private long now = Long.MIN_VALUE;
    /**
     * Sessions that sent a valid DATA, RETRANSMIT, HEARTBEAT or UNRECOVERABLE to a data port (forged
     * ones too, where a socket may take them: without authentication).
     */
    private final IntHashSet onDataPorts = new IntHashSet();

    /** One datagram sent, as far as telling two lines' copies apart needs. */
    private record Sent(int from, int type, int sessionId, long sequence, int length) {
    }

    /** @param signed where the nodes' signed datagrams are noted, in an authenticated seed; null in another */
    WireWatch(Scheduler scheduler, Map<Integer, PublishedSession> sessions, Violations violations,
        SignedDatagrams signed) {
        this.scheduler = scheduler;
        this.sessions = sessions;
        this.violations = violations;
        this.signed = signed;
    }

    @Override
    public void sent(int from, int line, FrameType.Port port, DirectBuffer buffer, int offset, int length) {
        int protocolLength = length;
        if (signed != null) {
            if (!signed.signs(from)) {
                return;
            }
            signed.signed(buffer, offset, length);
            protocolLength -= TrailerLayout.LENGTH;
        }
        if (DatagramValidator.check(buffer, offset, protocolLength) != DatagramCheck.VALID) {
            return;
        }
        view.wrap(buffer, offset, protocolLength);
        header.wrap(view, 0);
        final int type = header.typeCode();
        if (port != FrameType.Port.DATA || !FrameType.belongsOn(port, type)) {
            return;
        }
        onDataPorts.add(header.sessionId());
        final long nowNs = scheduler.nowNs();
        if (nowNs != now) {
            now = nowNs;
            sentNow.clear();
        }
        if (!sentNow.add(new Sent(from, type, header.sessionId(), header.sequence(), protocolLength))) {
            return;
        }
        final PublishedSession session = sessions.get(header.sessionId());
        if (session == null || session.host.id != from) {
            return;
        }
        session.sent(type, protocolLength, header.sequence(), nowNs);
        if (type == FrameType.HEARTBEAT.code() && session.publisherId == 0) {
            heartbeat.wrap(view, 0);
            session.publisherId = heartbeat.publisherId();
        } else if (type == FrameType.UNRECOVERABLE.code()) {
            unrecoverable.wrap(view, 0);
            checkUnrecoverable(session, unrecoverable.fromSequence(), unrecoverable.toSequence(), nowNs);
        }
        checkRepairBudget(session, nowNs);
    }

    /** Whether a valid datagram of a publisher's type of {@code sessionId} was ever sent to a data port. */
    boolean seenOnDataPort(int sessionId) {
        return onDataPorts.contains(sessionId);
    }

    /** An UNRECOVERABLE may give up only what the history no longer surely holds. */
    private void checkUnrecoverable(PublishedSession session, long from, long to, long nowNs) {
        session.unrecoverableAnswers.add(new long[] {from, to, session.highestDataSequence});
        final long held = session.surelyHeldFrom();
        if (to >= held) {
            violations.add(nowNs, Invariant.AVOIDABLE_LOSS, ("session %d said datagrams %d..%d were gone, but its"
                + " history of %d holds every datagram from %d (it has sent up to %d)").formatted(session.sessionId,
                from, to, session.historyDatagrams, held, session.highestDataSequence));
        }
    }

    /** Every session's repairs stay within its repair budget at every send: reported once per session. */
    private void checkRepairBudget(PublishedSession session, long nowNs) {
        if (!session.overBudget && session.repairBytes > session.repairAllowance()) {
            session.overBudget = true;
            violations.add(nowNs, Invariant.REPAIR_BUDGET, "session %d has sent %d bytes of repairs, more than its"
                .formatted(session.sessionId, session.repairBytes)
                + " budget (%d)".formatted(session.repairAllowance()));
        }
    }
}
