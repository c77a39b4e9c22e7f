package org.nakcast.rtt;

import org.agrona.DirectBuffer;

/**
 * One side's link to the other over one {@link RttPath}: sends ping or echo messages and hands what
 * arrives to a {@link Receiver}. Driven entirely by the caller's thread ({@link #poll()}), so one
 * thread per side does all the work of the built-in paths. Implementations allocate nothing in
 * {@link #send} and {@link #poll}, and are used by one thread at a time.
 */
public interface RttLink extends AutoCloseable {
    /** What {@link #naksSent()} answers for a path that does not count NAKs. */
    long NOT_COUNTED = -1;

    /** Gets each message that arrives, on the thread that called {@link #poll()}. */
    @FunctionalInterface
    interface Receiver {
        /**
         * One message; the bytes are valid only during the call.
         *
         * @param buffer holds the message
         * @param offset where it starts
         * @param length its length
         */
        void onMessage(DirectBuffer buffer, int offset, int length);
    }

    /**
     * Hands a message to the link.
     *
     * @param buffer holds the message at offset 0; a direct buffer
     * @param length its length
     * @return false if the link cannot take it now (back-pressured, or the other side not connected
     *     yet): poll, then try again
     * @throws IllegalStateException if the link refuses the message for good
     */
    boolean send(DirectBuffer buffer, int length);

    /**
     * Does one round of sending and receiving on the caller's thread, delivering what arrived.
     *
     * @return the work done; 0 means nothing happened
     */
    int poll();

    /**
     * What this side's link has done on the wire so far (datagrams, NAKs, repairs, heartbeats),
     * for the run's log, so a round trip far out in the tail can be matched with a repair or its
     * absence; one line, empty for a path that counts nothing.
     */
    default String wireCounts() {
        return "";
    }

    /**
     * The NAKs this side's link has sent so far, asking the other side again for what it lost;
     * {@link #NOT_COUNTED} for a path that does not count them.
     */
    default long naksSent() {
        return NOT_COUNTED;
    }

    /**
     * Stops taking what arrives while still sending, and answering for, what this side sent: called
     * by the pong side once the ping side ended the turn, before it lingers for late repairs of its
     * echoes, so that it takes no part in the next turn's streams on the same groups and ports (a
     * lingering nakcast subscription would join the next ping publisher's stream and, gone a moment
     * later, hold that publisher under flow control {@code min} until it was timed out). Nothing to do
     * for a path without such streams.
     */
    default void stopReceiving() {
        // nothing joins a stream on this path
    }

    /** Closes what the link opened; on the thread that used it. */
    @Override
    void close();
}
