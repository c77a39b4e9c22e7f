package org.nakcast.transport.receive;

import org.agrona.concurrent.status.AtomicCounter;
import org.nakcast.transport.protocol.DataFlyweight;
import org.nakcast.transport.protocol.MessageFrame;
import org.nakcast.transport.status.DatagramCheck;
import org.nakcast.transport.status.SystemCounter;
import org.nakcast.transport.status.SystemCounters;

/**
 * What a stream's datagrams can truthfully claim, judged by what the stream knows: checks that pass
 * a datagram's stateless checks but not the stream's history. A datagram that fails one is corrupt
 * or forged: it is counted as malformed (by its {@link DatagramCheck}) and ignored.
 *
 * <pre>
 *   reach:  sequence &lt;= start + REACH_MARGIN + (now - startNs) / NS_PER_DATAGRAM
 *   loss:   messages an UNRECOVERABLE claims lost &lt;= datagrams it covers x most messages per datagram
 *   gone:   an UNRECOVERABLE's last datagram &lt;= the highest seen
 *   end:    an END_OF_STREAM's last datagram &gt;= the highest seen
 * </pre>
 *
 * <p>Reach: a publisher cannot be further ahead than where the stream started plus
 * {@link #REACH_MARGIN}, plus one datagram per {@link #NS_PER_DATAGRAM} since. A DATA, RETRANSMIT,
 * HEARTBEAT or UNRECOVERABLE beyond that could otherwise have the stream NAK for ever for datagrams
 * that will not exist for ages, or give up its present as lost. The last sequence,
 * {@code Long.MAX_VALUE}, is never in reach. Plausible loss: each message takes at least a frame
 * header, so an UNRECOVERABLE cannot take more messages with it than its datagrams hold. Gone and
 * end, for a started stream: its publisher answers a NAK with what is gone below what it sent, and
 * ends a stream at the last datagram it sent, so an UNRECOVERABLE reaching past the highest datagram
 * seen, or an end of stream below it, would give up the stream's future or end it early: ignored
 * (a real answer meant for a receiver further ahead is asked for again by this one's own NAK).
 */
final class StreamReach {
    /**
     * How far past the sequence it started at a stream's publisher may already be: the first
     * datagram heard may have waited in the socket buffer while the publisher sent on.
     */
    static final long REACH_MARGIN = 1 << 20;
    /**
     * The fastest a publisher can send, one datagram per this many nanoseconds: 200 million a
     * second, more than a 100 GbE link carries even of minimum-size frames.
     */
    static final long NS_PER_DATAGRAM = 5;
    private static final long LAST_REACHABLE = Long.MAX_VALUE - 1;

    private final long maxMessagesPerDatagram;
    private final AtomicCounter malformed;
    private final AtomicCounter outOfReach;
    private final AtomicCounter implausibleLoss;
    private final AtomicCounter goneBeyondSeen;
    private final AtomicCounter endBelowSeen;
    private long startSequence;
    private long startNs;

    /** @param maxDatagramLength the longest datagram the stream takes */
    StreamReach(int maxDatagramLength, SystemCounters counters) {
        this.maxMessagesPerDatagram =
            (maxDatagramLength - DataFlyweight.DATA_HEADER_LENGTH) / MessageFrame.FRAME_HEADER_LENGTH + 1;
        this.malformed = counters.get(SystemCounter.MALFORMED);
        this.outOfReach = counters.malformed(DatagramCheck.OUT_OF_REACH);
        this.implausibleLoss = counters.malformed(DatagramCheck.IMPLAUSIBLE_LOSS);
        this.goneBeyondSeen = counters.malformed(DatagramCheck.GONE_BEYOND_SEEN);
        this.endBelowSeen = counters.malformed(DatagramCheck.END_BELOW_SEEN);
    }

    /** The stream started at {@code sequence} at {@code nowNs}: reach is measured from there. */
    void startedAt(long sequence, long nowNs) {
        startSequence = sequence;
        startNs = nowNs;
    }

    /** Whether {@code sequence} lies beyond the furthest the publisher can have reached; if so, counted. */
    boolean beyondReach(long sequence, long nowNs) {
        final long reach = REACH_MARGIN + Math.max(0, nowNs - startNs) / NS_PER_DATAGRAM;
        final long limit = startSequence > LAST_REACHABLE - reach ? LAST_REACHABLE : startSequence + reach;
        if (sequence <= limit) {
            return false;
        }
        count(outOfReach);
        return true;
    }

    /**
     * Whether {@code claimedMessages} lost cannot fit in {@code datagrams} datagrams; if so, counted.
     */
    boolean implausibleLoss(long claimedMessages, long datagrams) {
        if (claimedMessages <= datagrams * maxMessagesPerDatagram) {
            return false;
        }
        count(implausibleLoss);
        return true;
    }

    /** Whether an UNRECOVERABLE up to {@code toSequence} reaches past {@code highestSeen}; if so, counted. */
    boolean goneBeyondSeen(long toSequence, long highestSeen) {
        return countIf(toSequence > highestSeen, goneBeyondSeen);
    }

    /** Whether an end of stream at {@code lastSequence} lies below {@code highestSeen}; if so, counted. */
    boolean endBelowSeen(long lastSequence, long highestSeen) {
        return countIf(lastSequence < highestSeen, endBelowSeen);
    }

    private boolean countIf(boolean failed, AtomicCounter check) {
        if (failed) {
            count(check);
        }
        return failed;
    }

    private void count(AtomicCounter check) {
        check.increment();
        malformed.increment();
    }
}
