/**
 * Replay from a recorder: the protocol's frames ({@link org.nakcast.transport.replay.ReplayFrame},
 * drawn there), the client a subscriber or a tool asks with
 * ({@link org.nakcast.transport.replay.ReplayClient}), and what a recording says of messages it
 * does not hold ({@link org.nakcast.transport.replay.HoleCause}). The recorder that answers is in
 * {@code nakcast-recorder}.
 *
 * <p>Replay runs over TCP: a replay is a bulk transfer from one disk to one asker, which TCP's
 * ordering, retransmission and flow control carry with nothing more to build, and a slow asker is
 * held back by its own connection's window, never by the multicast group.
 */
package org.nakcast.transport.replay;
