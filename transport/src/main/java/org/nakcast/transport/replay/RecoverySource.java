package org.nakcast.transport.replay;

/**
 * A recorder a subscriber's stream can fetch messages from that its publisher no longer holds. The
 * stream asks for a range of one session and polls the fetch on its receiving thread, which must
 * never block: a fetch answers as a {@link ReplayClient} does (accepted, messages in order, holes,
 * done, or refused), and reports a recorder it cannot reach, or a connection that fails, as a
 * refusal of its own ({@link ReplayRefusal#UNREACHABLE}).
 *
 * <p>A topic's recorders (its {@code recorders:} key) are {@link RecorderSource}s, over TCP; the
 * simulator gives its nodes sources that read its recorders' directories on its clock.
 */
public interface RecoverySource {
    /** The recorder's name in events and logs, e.g. {@code 10.0.0.7:40480}. */
    String name();

    /**
     * Begins to fetch messages {@code fromMessage} to {@code toMessage} (inclusive) of a session of
     * a topic. The answers may cover only the first part of the range (a recorder that has not
     * recorded further yet, or that serves a request in parts): the asker asks again for the rest.
     */
    Fetch fetch(int topicId, int sessionId, long fromMessage, long toMessage, long nowNs);

    /** One range asked for: polled until it is done, refused or given up, then closed. */
    interface Fetch extends AutoCloseable {
        /**
         * Hands on up to {@code limit} answers that have come, in order; never blocks.
         *
         * @return answers handed on
         */
        int poll(ReplayHandler answers, int limit, long nowNs);

        /** Ends the fetch and frees what it holds (its connection); answers nothing after. */
        @Override
        void close();
    }
}
