package org.nakcast.transport;

/**
 * A publisher stream ended: its publisher closed it and every message of it was delivered
 * ({@link Cause#ENDED}), it fell silent for longer than the topic's {@code publisher-timeout}, or
 * the same publisher came back under a new session (a restart). The receiver has closed the stream;
 * a restarted publisher's new stream is delivered as a stream of its own.
 *
 * @param topicId the topic
 * @param sessionId the session that ended
 * @param cause why it ended
 * @param silentNs how long nothing had been heard from the session when it ended
 * @param newSessionId the restarted publisher's new session; 0 unless {@code cause} is
 *     {@link Cause#RESTARTED}
 */
public record PublisherGone(int topicId, int sessionId, Cause cause, long silentNs, int newSessionId) {

    /** Why a publisher stream ended. */
    public enum Cause {
        /**
         * The publisher closed its publication, and everything it sent up to its end-of-stream
         * marker was delivered (or reported lost).
         */
        ENDED,
        /** Nothing heard (no data, no heartbeat) for longer than the topic's publisher timeout. */
        SILENT,
        /** The same publisher (same publisher id) is heard under a new session. */
        RESTARTED
    }

    /** The event in words, for logs and operators. */
    public String describe() {
        final String what = switch (cause) {
            case ENDED -> "publisher closed the stream, everything delivered";
            case SILENT -> "silent for %d ms: publisher gone".formatted(silentNs / 1_000_000);
            case RESTARTED -> "publisher restarted as session %d".formatted(newSessionId);
        };
        return "topic %d, publisher session %d: %s; stream closed".formatted(topicId, sessionId, what);
    }
}
