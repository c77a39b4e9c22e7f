package org.nakcast.transport.receive;

import org.nakcast.config.LateJoinPolicy;
import org.nakcast.transport.protocol.DataFlyweight;

/**
 * Where a publisher stream heard for the first time starts. A receiver that subscribed before the
 * session began is owed all of it, from its first message, whatever it happened to hear first (the
 * session's first datagrams may have been lost); a receiver that joined a session already under way
 * starts as its topic's {@code late-join} says: at the live edge ({@code now}), replaying history
 * ({@code oldest}), or at the session's first message ({@code session-start}, what the publisher no
 * longer holds coming from the topic's recorders), unless it may be a session it forgot. When the
 * session began is learned without comparing clocks: a heartbeat carries the session's age, a DATA
 * datagram its age class (within a factor of two). What is in doubt waits
 * for a heartbeat. A session begun no later than one this receiver has forgotten is never taken for
 * a new one.
 */
final class StartRule {
    /** Where to start. */
    enum Start {
        /** At the session's first datagram and first message: this receiver was there before it began. */
        SESSION_START,
        /** At the live edge: the datagram in hand, or the first held. */
        LIVE_EDGE,
        /** Replaying part of the publisher's history (late join {@code oldest}). */
        REPLAY,
        /** Not known yet: hold what arrives until a heartbeat says. */
        WAIT
    }

    private StartRule() {
    }

    /**
     * The start for a session a heartbeat received at {@code nowNs} says is {@code ageNs} old.
     *
     * @param subscribedAtNs when the topic was first subscribed to here
     * @param forgottenStartNs the latest start among the ended sessions forgotten for want of room, or
     *     {@code Long.MIN_VALUE}
     */
    static Start fromHeartbeat(
        long ageNs, long nowNs, long subscribedAtNs, long forgottenStartNs, LateJoinPolicy lateJoin) {
        if (begunSince(subscribedAtNs, forgottenStartNs, ageNs, nowNs)) {
            return Start.SESSION_START;
        }
        return switch (lateJoin) {
            case OLDEST -> Start.REPLAY;
            case SESSION_START ->
                mayBeForgotten(forgottenStartNs, ageNs, nowNs) ? Start.LIVE_EDGE : Start.SESSION_START;
            case NOW -> Start.LIVE_EDGE;
        };
    }

    /**
     * The start for a session first heard through a DATA datagram of age class {@code ageClass}
     * received at {@code nowNs}.
     */
    static Start fromData(
        int ageClass, long nowNs, long subscribedAtNs, long forgottenStartNs, LateJoinPolicy lateJoin) {
        if (nowNs - subscribedAtNs < DataFlyweight.minAgeNs(ageClass)) {
            return lateJoin == LateJoinPolicy.NOW ? Start.LIVE_EDGE : Start.WAIT;
        }
        if (begunSince(subscribedAtNs, forgottenStartNs, DataFlyweight.maxAgeNs(ageClass), nowNs)) {
            return Start.SESSION_START;
        }
        return Start.WAIT;
    }

    /**
     * Whether a session {@code ageNs} old at {@code nowNs} may be one this receiver had and forgot: it
     * began no later than the latest forgotten one. Such a session is never started from its first
     * message again.
     */
    private static boolean mayBeForgotten(long forgottenStartNs, long ageNs, long nowNs) {
        return forgottenStartNs != Long.MIN_VALUE && nowNs - forgottenStartNs <= ageNs;
    }

    /**
     * Whether a session at most {@code ageNs} old at {@code nowNs} began no earlier than the
     * subscription and after every forgotten session. Compares durations: no clock value overflows.
     */
    private static boolean begunSince(long subscribedAtNs, long forgottenStartNs, long ageNs, long nowNs) {
        return nowNs - subscribedAtNs >= ageNs
            && (forgottenStartNs == Long.MIN_VALUE || nowNs - forgottenStartNs > ageNs);
    }
}
