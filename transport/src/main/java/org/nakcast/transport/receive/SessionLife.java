package org.nakcast.transport.receive;

import org.nakcast.transport.media.DatagramSource;

/**
 * What a receiver knows of one publisher session beyond its datagrams: which publisher sends it
 * (the publisher id its heartbeats carry), where from on each line (the address and port it was
 * first heard from there), when it began by this receiver's clock (its heartbeats' age tells, with
 * no clocks compared), and when anything of it was last heard. The session index
 * ({@link TopicStreams}) decides by these whether a datagram is the session's at all, whether a
 * session fell silent, whether a new session of the same publisher is its restart, and whether this
 * receiver was there before the session began. A stream that ends and resumes keeps its life, so
 * its sources stay pinned. Not thread-safe: the receiving thread owns it.
 */
final class SessionLife {
    /** Per line (a topic travels on one line or two), the source the session is pinned to there. */
    private final DatagramSource[] sources = {new DatagramSource(), new DatagramSource()};
    private boolean identified;
    private long publisherId;
    private long startNs = Long.MAX_VALUE;
    private long lastHeardNs;

    /**
     * Whether a datagram of the session heard on {@code line} from {@code source} is the session's:
     * the first one heard on a line pins the session there to its source, and from then on only
     * that address and port are. A source the media could not tell is taken.
     */
    boolean comesFrom(int line, DatagramSource source) {
        if (!source.isKnown()) {
            return true;
        }
        final DatagramSource pinned = sources[line];
        if (!pinned.isKnown()) {
            pinned.copy(source);
            return true;
        }
        return pinned.sameAs(source);
    }

    /** The source the session is pinned to on {@code line}; unknown before it was heard there. */
    DatagramSource source(int line) {
        return sources[line];
    }

    /** Something of the session (data, retransmit, heartbeat, unrecoverable) arrived at {@code nowNs}. */
    void heard(long nowNs) {
        lastHeardNs = nowNs;
    }

    /** When anything of the session last arrived. */
    long lastHeardNs() {
        return lastHeardNs;
    }

    /**
     * Moves the time the session was last heard from on by {@code ns}: the receiver itself stopped for
     * that long, and a publisher must not look silent for what the receiver did not listen to.
     */
    void creditSilence(long ns) {
        lastHeardNs += ns;
    }

    /** Records the publisher id a heartbeat carried. */
    void identify(long id) {
        publisherId = id;
        identified = true;
    }

    /** Whether a heartbeat told the session's publisher id. */
    boolean isIdentified() {
        return identified;
    }

    /** The publisher id its heartbeats carry; meaningful once {@link #isIdentified()}. */
    long publisherId() {
        return publisherId;
    }

    /**
     * Notes when the session began by this receiver's clock, as a heartbeat's age tells it (or an
     * earlier stream of the session knew); the earliest estimate is kept (a late heartbeat makes a
     * session look younger than it is).
     */
    void noteStart(long sessionStartNs) {
        startNs = Math.min(startNs, sessionStartNs);
    }

    /** When the session began by this receiver's clock, or {@code Long.MAX_VALUE} before a heartbeat said. */
    long startNs() {
        return startNs;
    }
}
