package org.nakcast.transport.receive;

import java.util.List;
import java.util.Map;

import org.nakcast.config.LateJoinPolicy;
import org.nakcast.transport.media.Line;
import org.nakcast.transport.replay.RecoverySource;

/**
 * What a subscription to one topic needs, resolved from the topic's and transport's configuration.
 *
 * @param topicName the topic's name, for counters and logs
 * @param topicId the topic's numeric id
 * @param lines the transports the topic travels on, one or two: a datagram heard on any other is
 *     not this topic's
 * @param lineTimeoutNs with two lines, how long a stream waits for one line to bring a datagram
 *     the other already brought before it declares that line down and NAKs what the other misses
 * @param streamSettings how each publisher stream of the topic is received
 * @param publisherTimeoutNs how long a publisher stream may stay silent before it is closed
 * @param lateJoin where a stream heard for the first time starts: at the live edge, or replaying
 *     what the publisher's history still holds
 * @param heartbeatNs the topic's heartbeat interval: a publisher silent for longer is not talking
 * @param statusKeepAliveNs with flow control {@code min}, the longest time between two STATUS of a
 *     stream (the topic's heartbeat); 0 when the topic's flow control is {@code max} and no STATUS
 *     is sent
 * @param maxPublishers the most publisher streams kept at once; a further session's datagrams are
 *     refused until one ends
 * @param deliveryQueueTimeoutNs how long the topic's streams wait for a queued subscription with no
 *     room before it is overrun and they go on without it
 * @param recorders the topic's recorders (A, then B), where its streams fetch what their publishers
 *     no longer hold; empty for none: such messages are lost (a loss event). A recovery that brings
 *     nothing for {@code publisherTimeoutNs} gives up what is left
 * @param resumeAt per session, the index of the next message a service wants: a stream of such a
 *     session, heard for the first time, begins there (the messages before are not delivered)
 */
public record SubscriptionSettings(
    String topicName, int topicId, List<Line> lines, long lineTimeoutNs, InboundStreamSettings streamSettings,
    long publisherTimeoutNs,
    LateJoinPolicy lateJoin, long heartbeatNs, long statusKeepAliveNs, int maxPublishers, long deliveryQueueTimeoutNs,
    List<RecoverySource> recorders, Map<Integer, Long> resumeAt) {

    /** Checks the lines, copies the recorders and positions. */
    public SubscriptionSettings {
        lines = Line.oneOrTwo(lines);
        recorders = List.copyOf(recorders);
        resumeAt = Map.copyOf(resumeAt);
        if (lines.size() > 1 && lineTimeoutNs <= 0) {
            throw new IllegalArgumentException("lineTimeoutNs must be positive with two lines: " + lineTimeoutNs);
        }
    }

    /** These settings with streams of the sessions named beginning at the positions given. */
    public SubscriptionSettings resumingAt(Map<Integer, Long> positions) {
        return new SubscriptionSettings(topicName, topicId, lines, lineTimeoutNs, streamSettings, publisherTimeoutNs,
            lateJoin, heartbeatNs, statusKeepAliveNs, maxPublishers, deliveryQueueTimeoutNs, recorders, positions);
    }

    /** "md-a: 239.255.0.1:40456 ... and md-b: ...", every line's setup, for the log when the topic opens. */
    public String describeLines() {
        return Line.describeSetups(lines);
    }
}
