package org.nakcast.transport.receive;

import org.nakcast.config.LateJoinPolicy;

import org.nakcast.transport.media.MulticastAddress;

/**
 * What a subscription to one topic needs, resolved from the topic's and transport's configuration.
 *
 * @param topicName the topic's name, for counters and logs
 * @param topicId the topic's numeric id
 * @param address where the topic's transport listens
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
 */
public record SubscriptionSettings(
    String topicName, int topicId, MulticastAddress address, InboundStreamSettings streamSettings,
    long publisherTimeoutNs,
    LateJoinPolicy lateJoin, long heartbeatNs, long statusKeepAliveNs, int maxPublishers, long deliveryQueueTimeoutNs) {
}
