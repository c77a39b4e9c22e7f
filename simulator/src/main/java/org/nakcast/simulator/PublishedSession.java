package org.nakcast.simulator;

import java.util.ArrayList;
import java.util.List;

import org.agrona.collections.IntHashSet;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.collections.LongArrayList;
import org.nakcast.transport.protocol.FrameType;

/**
 * What the checker knows of one publisher session, from the application that publishes it and
 * from the wire, never from the publisher's own state: where it runs, when it began, what it
 * published (messages 0 .. published-1, whose bytes {@link MessageContent} gives) of its quota,
 * whether it was closed or its process died; and what it sent (the highest DATA sequence, its
 * data and repair bytes, its UNRECOVERABLE answers), from which the checker works out what its
 * history must still hold.
 */
final class PublishedSession {
    final int sessionId;
    final int topicId;
    final PublisherHost host;
    final long startNs;
    final int maxLength;
    final int fragmentLength;
    /** The messages its application means to publish. */
    final long quota;
    /** The datagrams its history keeps, as the configuration says. */
    final int historyDatagrams;
    /**
     * The most datagrams it packs ahead of the highest it sent, as the protocol says (they take
     * history slots): a quarter of the history, at most 32, or, when nothing waits to be sent, every
     * fragment of its largest message; and the open datagram.
     */
    final int packedAhead;
    long published;
    long lastPublishNs;
    long deadSinceNs = -1;
    /** When its publication was closed; -1 while it is open. */
    long closedAtNs = -1;
    /** Its publisher id, read off its first heartbeat; 0 before. */
    long publisherId;
    /** The repair budget's settings, from the publication's. */
    int datagramLength;
    long repairRate;
    long repairBurst;
    int repairPercentOfData;
    long dataBytes;
    long repairBytes;
    long firstSendNs = -1;
    long lastSendNs;
    /** The highest DATA sequence sent, -1 before the first. */
    long highestDataSequence = -1;
    /** The highest DATA sequence its node handed to the media, sent or still batched; -1 before the first. */
    long highestHandedData = -1;
    /** When its publisher's node last read a STATUS of each receiver id, off the wire. */
    final Long2LongHashMap statusReadNs = new Long2LongHashMap(Long.MIN_VALUE);
    /** The position of the last STATUS its publisher's node read of each receiver id. */
    final Long2LongHashMap statusPosition = new Long2LongHashMap(Long.MIN_VALUE);
    /** When the position its publisher's node read of each receiver id last changed. */
    final Long2LongHashMap statusMovedNs = new Long2LongHashMap(Long.MIN_VALUE);
    /**
     * When its publisher's node first read a STATUS of each receiver id: flow control waits for a
     * receiver from then on, not before.
     */
    final Long2LongHashMap firstStatusReadNs = new Long2LongHashMap(Long.MIN_VALUE);
    /** When each DATA sequence was first sent, by sequence. */
    private final LongArrayList dataFirstSentNs = new LongArrayList();
    /** When its node first handed each DATA sequence to the media, by sequence. */
    private final LongArrayList dataFirstHandedNs = new LongArrayList();
    /**
     * The receivers its publisher dropped from flow control when none of their STATUS had reached it
     * for the flow-control timeout: what was sent past them may be lost to them.
     */
    final IntHashSet droppedReceivers = new IntHashSet();
    /** What its publisher was asked to resend and has not: see {@link RepairSweep}. */
    RepairSweep sweep;
    /** Whether the session's sweep was found passing over a datagram: it is reported once. */
    boolean sweepReported;
    /** Whether the session was found over its repair budget: it is reported once. */
    boolean overBudget;
    /**
     * Each UNRECOVERABLE the session sent, as {from, to, the highest DATA sequence sent by then}: to
     * + 1 was the oldest datagram its history held.
     */
    final List<long[]> unrecoverableAnswers = new ArrayList<>();

    PublishedSession(int sessionId, int topicId, PublisherHost host, long startNs, long quota, int maxLength,
        int fragmentLength, int historyDatagrams) {
        this.sessionId = sessionId;
        this.topicId = topicId;
        this.host = host;
        this.startNs = startNs;
        this.quota = quota;
        this.maxLength = maxLength;
        this.fragmentLength = fragmentLength;
        this.historyDatagrams = historyDatagrams;
        final int largestMessageFragments = (maxLength + fragmentLength - 1) / fragmentLength;
        this.packedAhead = Math.max(Math.max(1, Math.min(32, historyDatagrams / 4)), largestMessageFragments) + 1;
    }

    /** The length of message {@code index}. */
    int messageLength(long index) {
        return MessageContent.length(sessionId, index, maxLength, fragmentLength);
    }

    boolean isDead() {
        return deadSinceNs >= 0;
    }

    /** Whether its publication was closed: after its close-linger its publisher holds nothing more of it. */
    boolean isClosed() {
        return closedAtNs >= 0;
    }

    /** Whether its publisher may hold nothing of it now: its process died, or its publication was closed. */
    boolean mayBeGone() {
        return isDead() || isClosed();
    }

    /**
     * The oldest datagram its history must still hold, from what it sent: a history of
     * {@code historyDatagrams} slots holds the latest datagrams packed, and packing runs at most
     * {@code packedAhead} datagrams ahead of the highest sent. Long.MAX_VALUE when it may hold
     * nothing (closed, dead, or nothing sent yet).
     */
    long surelyHeldFrom() {
        if (mayBeGone() || highestDataSequence < 0) {
            return Long.MAX_VALUE;
        }
        return Math.max(0, highestDataSequence + packedAhead + 1 - historyDatagrams);
    }

    /**
     * As {@link #surelyHeldFrom()}, from the DATA its node handed to the media (some may still wait for
     * the sender's flush): the oldest datagram its history must hold at this moment.
     */
    long surelyHeldNowFrom() {
        if (mayBeGone() || highestHandedData < 0) {
            return Long.MAX_VALUE;
        }
        return Math.max(0, highestHandedData + packedAhead + 1 - historyDatagrams);
    }

    /**
     * Whether datagram {@code sequence} may have left the history before flow control waited for
     * {@code receiverId}: before its publisher's node first read a STATUS of that receiver, DATA had
     * gone out far enough past {@code sequence} for the history to let it go (see
     * {@link #surelyHeldFrom()}). Until its first STATUS arrives a receiver holds nobody back.
     */
    boolean mayHaveLeftBeforeHeard(long sequence, int receiverId) {
        final long evictingSequence = sequence + historyDatagrams - packedAhead;
        if (evictingSequence < 0 || evictingSequence >= dataFirstSentNs.size()) {
            return false;
        }
        final long firstHeardNs = firstStatusReadNs.get(receiverId);
        return firstHeardNs == Long.MIN_VALUE || firstHeardNs > dataFirstSentNs.getLong((int) evictingSequence);
    }

    /** Notes that its node handed DATA {@code sequence} to the media at {@code nowNs}. */
    void handedData(long sequence, long nowNs) {
        highestHandedData = Math.max(highestHandedData, sequence);
        while (dataFirstHandedNs.size() <= sequence) {
            dataFirstHandedNs.addLong(nowNs);
        }
    }

    /**
     * When flow control last had reason to take {@code receiverId} for a receiver that keeps up, from
     * the STATUS its publisher's node read: when its position last moved, or, if later, when the node
     * first handed on the datagram that position needs (until then the receiver had all that was
     * sent, and standing still was not lagging). Long.MAX_VALUE while it still has all that was sent;
     * Long.MIN_VALUE if no STATUS of it was read.
     */
    long keptUpAtNs(long receiverId) {
        final long movedNs = statusMovedNs.get(receiverId);
        if (movedNs == Long.MIN_VALUE) {
            return movedNs;
        }
        final long position = statusPosition.get(receiverId);
        return position < dataFirstHandedNs.size()
            ? Math.max(movedNs, dataFirstHandedNs.getLong((int) position)) : Long.MAX_VALUE;
    }

    /** Counts one datagram this session sent. */
    void sent(int type, int length, long sequence, long nowNs) {
        if (firstSendNs < 0) {
            firstSendNs = nowNs;
        }
        lastSendNs = nowNs;
        if (type == FrameType.DATA.code()) {
            while (dataFirstSentNs.size() <= sequence) {
                dataFirstSentNs.addLong(nowNs);
            }
            dataBytes += length;
            highestDataSequence = Math.max(highestDataSequence, sequence);
        } else if (type == FrameType.RETRANSMIT.code() || type == FrameType.UNRECOVERABLE.code()) {
            repairBytes += length;
        }
    }

    /**
     * The most the repair budget lets the session send in repairs from its first datagram until its
     * latest: its rate over that time, its burst, and its share of the new data, with one datagram of
     * slack. It holds at every send (the budget's bucket starts full and fills no faster), so it is
     * checked at every send.
     */
    long repairAllowance() {
        final double seconds = Math.max(0, lastSendNs - firstSendNs) / 1e9;
        return (long) (repairRate * seconds) + repairBurst + dataBytes * repairPercentOfData / 100 + datagramLength;
    }
}
