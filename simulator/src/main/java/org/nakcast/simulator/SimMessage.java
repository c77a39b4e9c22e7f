package org.nakcast.simulator;

/**
 * A message of the simulation as the application publishes it and a subscription gets it back
 * from the topic's codec ({@link SimMessageCodec}): which message of which session, and whether
 * every byte was what was published.
 *
 * @param sessionId the publisher session the message says it belongs to
 * @param index its index in that session
 * @param length its length in bytes
 * @param intact whether every byte after the header followed from the session and the index
 */
record SimMessage(int sessionId, long index, int length, boolean intact) {
}
