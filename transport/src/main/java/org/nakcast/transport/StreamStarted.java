package org.nakcast.transport;

/**
 * A publisher stream was first heard by a subscription (a publisher joined, or restarted under a
 * new session), or a stream given up as silent was heard again and resumes.
 *
 * @param topicId the topic
 * @param sessionId the publisher session
 * @param firstSequence the datagram sequence delivery starts from: 0 for a session that began after
 *     the subscription (it is owed from its first message)
 */
public record StreamStarted(int topicId, int sessionId, long firstSequence) {
}
