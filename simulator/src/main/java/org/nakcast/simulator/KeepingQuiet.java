package org.nakcast.simulator;

import java.util.Arrays;

import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.IntHashSet;
import org.nakcast.transport.protocol.NakFlyweight;
import org.nakcast.transport.status.StreamCounters;

/**
 * Guarantee 17 for one subscribing process, judged from what it read: a receiver keeps a NAK back
 * (counts it suppressed) only when the NAKs it heard lately ask for what it misses. A stream's NAK
 * lists its missing ranges from the lowest datagram it neither delivered nor holds, so whatever it
 * keeps back, the NAKs it heard within the last retry interval cover that lowest missing datagram.
 *
 * <p>The model of each stream, per incarnation of the process:
 * <pre>
 *   stream start (its first sequence)          taken: DATA, RETRANSMIT
 *          v                                    v   v
 *   .......[ taken or given up, every one ][gap][ ahead ][gap]......
 *                                  contiguous ^  ^
 *                                             lowest missing = contiguous + 1
 * </pre>
 * A datagram read counts as taken unless the node counted it dropped while reading it (a reorder
 * window overflow, a refused or ended session, a topic not subscribed, a wrong source, a datagram
 * out of reach): each read is settled at the next look, when those counters show whether it was dropped. Before
 * its start is decided a stream holds, uncounted, only what lies within a reorder window from the
 * first datagram it held; after, what lies within the window from the next datagram it needs, in
 * the receiver's slots, so that one held before the start from further on is lost, uncounted, when
 * a datagram takes its slot. Given up
 * means inside a loss event the receiver raised. A stream that ends forgets what it held ahead; one
 * that starts (or resumes) begins at its first sequence; one the node ended before its start (seen
 * as its {@code streams gone before their start} counter moving on, and the stream's counters gone)
 * is forgotten whole. NAKs heard are kept per session with the time they were read, any
 * receiver's and any range, for the longest retry interval: more than the receiver itself counts,
 * so a violation is one the receiver could not have justified by any rule of its own.
 *
 * <p>A suppression is seen as the node's {@code NAKs suppressed} counter moving on, looked at before
 * each datagram the node reads and after each round, so the model is as the receiver saw it then.
 * It is justified when some started stream's lowest missing datagram lies in a NAK heard within the
 * window. A stream event judges it too, before the model changes; the datagram read last is then
 * unsettled (the event may come while it is read, or in the round after, as an end the receiver's
 * timers decide), so either way counts: with it missing, or taken. A stream whose start is not
 * decided yet asks for nothing, so it keeps nothing back.
 *
 * <p>A stream asks no more for what an UNRECOVERABLE it read said is gone. Most give such a run up
 * at once; one recovering from a recorder recovers those runs one after another without the
 * publisher, and one whose delivery queue is full (a slow poller, a recorder's slow disk) gives
 * them up once its queue takes the datagram it holds before them; either asks again then, which
 * the model does not see (nor does it see a queue full while no datagram arrives). So a NAK heard
 * that asked for either lowest datagram justifies: the lowest it misses, or the lowest above the
 * furthest UNRECOVERABLE it read that it neither took nor gave up.
 * An UNRECOVERABLE read is settled as a DATA is: one the node ignored (a forgery reaching past what
 * the stream has seen, or from a wrong source) moves a counter, and counts for nothing.
 */
final class KeepingQuiet {
    /**
     * The NAK ranges remembered at most per session: far more than a receiver keeps per stream (16).
     * Per session, not across them: a stalled link let go at once can hand a receiver more than ten
     * thousand ranges of other sessions within a retry interval (seed 1225071).
     */
    private static final int HEARD_PER_SESSION = 1024;
    private static final long NONE = Long.MIN_VALUE;

    private final long windowNs;
    private final int reorderWindow;
    private final Int2ObjectHashMap<Stream> streams = new Int2ObjectHashMap<>();
    private final Int2ObjectHashMap<HeardRanges> heard = new Int2ObjectHashMap<>();
    private long suppressedSeen;
    private long droppedSeen;
    private long queueFullSeen;
    private long goneUnstartedSeen;
    private final IntHashSet receiving = new IntHashSet();
    private int pendingSession;
    private long pendingSequence = NONE;
    private int pendingGoneSession;
    private long pendingGoneTo = NONE;

    /**
     * @param windowNs how long a NAK heard counts: the longest retry interval
     * @param reorderWindow the datagrams a stream holds from the first it holds before its start; 0
     *     when the model does not know it (sized from a socket buffer), and then nothing is judged
     */
    KeepingQuiet(long windowNs, int reorderWindow) {
        this.windowNs = windowNs;
        this.reorderWindow = reorderWindow;
    }

    /** A new incarnation of the process: a new node, knowing nothing, its counters at zero. */
    void restart() {
        streams.clear();
        heard.clear();
        suppressedSeen = 0;
        droppedSeen = 0;
        queueFullSeen = 0;
        goneUnstartedSeen = 0;
        pendingSequence = NONE;
        pendingGoneTo = NONE;
    }

    /** A DATA or RETRANSMIT of {@code sessionId} is about to be read: settled at the next look. */
    void reading(int sessionId, long sequence) {
        pendingSession = sessionId;
        pendingSequence = sequence;
    }

    /**
     * The node's count of datagrams it dropped or ignored while reading them (every cause): the
     * datagram read last, if a DATA or RETRANSMIT, was taken unless it moved, and an UNRECOVERABLE
     * acted on (a forged one reaching past what the stream has seen, or from a wrong source, is not).
     * And its count of datagrams held for a full delivery queue: if it moved, the datagram read last
     * was the next one needed, stored instead of delivered, and its stream may store the next ones
     * too (see {@link Stream}).
     */
    void settle(long dropped, long queueFull) {
        if (pendingSequence != NONE && queueFull != queueFullSeen) {
            stream(pendingSession).mayStoreTheNext();
        }
        queueFullSeen = queueFull;
        if (pendingSequence != NONE && dropped == droppedSeen) {
            stream(pendingSession).take(pendingSequence);
        }
        if (pendingGoneTo != NONE && dropped == droppedSeen) {
            stream(pendingGoneSession).goneRead(pendingGoneTo);
        }
        pendingSequence = NONE;
        pendingGoneTo = NONE;
        droppedSeen = dropped;
    }

    /** A stream of {@code sessionId} started (or resumed) at {@code firstSequence}. */
    void started(int sessionId, long firstSequence) {
        stream(sessionId).startAt(firstSequence);
    }

    /** The receiver gave up datagrams of {@code sessionId} up to {@code toSequence}. */
    void givenUp(int sessionId, long toSequence) {
        stream(sessionId).givenUpTo(toSequence);
    }

    /**
     * An UNRECOVERABLE of {@code sessionId} saying everything up to {@code toSequence} is gone is about
     * to be read: settled at the next look, or by the recovery it begins.
     */
    void goneRead(int sessionId, long toSequence) {
        pendingGoneSession = sessionId;
        pendingGoneTo = toSequence;
    }

    /** The receiver began to recover datagrams of {@code sessionId} up to {@code toSequence} from a recorder. */
    void recoveryStarted(int sessionId, long toSequence) {
        if (pendingGoneTo != NONE && pendingGoneSession == sessionId) {
            stream(sessionId).goneRead(pendingGoneTo);
            pendingGoneTo = NONE;
        }
        final Stream stream = stream(sessionId);
        stream.givenUpTo(toSequence);
        stream.mayStoreTheNext();
    }

    /** The stream of {@code sessionId} ended: what it held is gone with it. */
    void ended(int sessionId) {
        stream(sessionId).end();
    }

    /**
     * The node's count of streams it ended before their start: if it moved on since the last look,
     * the node dropped what such streams held, so the model forgets every stream not started that
     * the node no longer receives, as {@code streamCounters} show them. A session heard again later begins
     * a new stream, holding from its first datagram read then.
     */
    void forgetGoneUnstarted(long goneUnstarted, StreamCounters streamCounters) {
        if (goneUnstarted == goneUnstartedSeen) {
            return;
        }
        goneUnstartedSeen = goneUnstarted;
        receiving.clear();
        streamCounters.forEachReceivingStream((topicId, sessionId) -> receiving.add(sessionId));
        streams.values().removeIf(stream -> !stream.started && !receiving.contains(stream.sessionId));
    }

    /** A NAK was read on the control port, at {@code nowNs}. */
    void heard(NakFlyweight nak, long nowNs) {
        final HeardRanges ranges = heard.computeIfAbsent(nak.sessionId(), session -> new HeardRanges());
        for (int i = 0, count = nak.rangeCount(); i < count; i++) {
            ranges.add(nak.rangeFrom(i), nak.rangeTo(i), nowNs);
        }
    }

    /**
     * The node's count of NAKs suppressed now: if it moved on since the last look, the description of
     * an unjustified suppression, else null.
     */
    String judge(long suppressed, long nowNs) {
        if (suppressed == suppressedSeen) {
            return null;
        }
        suppressedSeen = suppressed;
        if (reorderWindow <= 0) {
            return null;
        }
        final StringBuilder missing = new StringBuilder();
        for (Stream stream : streams.values()) {
            if (!stream.started) {
                continue;
            }
            if (justified(stream, false, nowNs) || justified(stream, true, nowNs)) {
                return null;
            }
            missing.append(missing.isEmpty() ? "" : ", ").append("session ").append(stream.sessionId).append(": ")
                .append(stream.lowestMissing(false));
        }
        return ("kept a NAK back though no NAK it heard in the last %d us asked for the lowest datagram it misses"
            + " of any stream (%s)").formatted(windowNs / 1_000, missing);
    }

    /**
     * Whether a NAK heard within the window asked for the lowest datagram the stream misses, looking
     * {@code pastGone} what it was told is gone; or for the one it would miss had the node
     * taken the datagram read last, still unsettled: a stream event judged before the next look (one
     * the receiver decides in the round after a read) cannot tell whether it was taken.
     */
    private boolean justified(Stream stream, boolean pastGone, long nowNs) {
        return covered(stream.sessionId, stream.lowestMissing(pastGone), nowNs)
            || covered(stream.sessionId, stream.lowestInDoubt(pastGone), nowNs)
            || pendingSequence != NONE && pendingSession == stream.sessionId
            && covered(stream.sessionId, stream.lowestMissingTaking(pendingSequence, pastGone), nowNs);
    }

    /** Whether a NAK of {@code sessionId} heard within the window asked for {@code sequence}. */
    private boolean covered(int sessionId, long sequence, long nowNs) {
        final HeardRanges ranges = heard.get(sessionId);
        return ranges != null && ranges.cover(sequence, nowNs - windowNs);
    }

    /** The NAK ranges heard of one session, the last {@link #HEARD_PER_SESSION} of them, with when each was. */
    private static final class HeardRanges {
        private final long[] from = new long[HEARD_PER_SESSION];
        private final long[] to = new long[HEARD_PER_SESSION];
        private final long[] heardNs = new long[HEARD_PER_SESSION];
        private int next;
        private int size;

        void add(long rangeFrom, long rangeTo, long nowNs) {
            from[next] = rangeFrom;
            to[next] = rangeTo;
            heardNs[next] = nowNs;
            next = (next + 1) % HEARD_PER_SESSION;
            size = Math.min(size + 1, HEARD_PER_SESSION);
        }

        /** Whether a range heard at {@code sinceNs} or later holds {@code sequence}: the newest first. */
        boolean cover(long sequence, long sinceNs) {
            for (int back = 1; back <= size; back++) {
                final int i = (next - back + HEARD_PER_SESSION) % HEARD_PER_SESSION;
                if (heardNs[i] < sinceNs) {
                    return false;
                }
                if (from[i] <= sequence && to[i] >= sequence) {
                    return true;
                }
            }
            return false;
        }
    }

    private Stream stream(int sessionId) {
        Stream stream = streams.get(sessionId);
        if (stream == null) {
            stream = new Stream(sessionId, reorderWindow);
            streams.put(sessionId, stream);
        }
        return stream;
    }

    /**
     * What one session's stream took or gave up, from its start on, held as the receiver holds it:
     * in a window of {@code reorderWindow} slots, datagram s in slot {@code s % reorderWindow}. Before
     * the start it holds what lies within the window from the first datagram it held; after, what
     * lies within the window from the next datagram it needs, and a datagram stored there takes the
     * slot of whatever was held in it (one held before the start from further on): that one is
     * gone, uncounted, as the receiver's window loses it. The next datagram needed is delivered at
     * once and stored nowhere, unless the receiver cannot deliver it.
     *
     * <p>A receiver paused for a recovery, or whose delivery queue is full (a slow handler, a
     * recorder's slow disk), stores the next datagram too, and every one after it until it delivers
     * again, each in the slot of one held before the start from further on. The model sees a
     * recovery begin, and a full queue at the datagram that found it full (the node's count of
     * datagrams held for a full delivery queue moves as it is read), but not when either ends. From
     * then on, a datagram held in the slot the next one needed takes is kept as in doubt: held, as
     * far as the model knows, or gone, until it is taken again or given up; a NAK that asked for the
     * lowest in doubt justifies as well.
     */
    private static final class Stream {
        private final int sessionId;
        private final long[] slots;
        /** Per slot, a datagram held before the start that a paused receiver may have lost: see above. */
        private final long[] inDoubt;
        private boolean started;
        /** Every sequence from the start to this one was taken or given up. */
        private long contiguous;
        /** The first datagram held before the start was decided. */
        private long firstHeld = NONE;
        /** The furthest an UNRECOVERABLE read said was gone: it no longer asks for anything up to it. */
        private long goneRead = NONE;
        /** Since a recovery began or its delivery queue was seen full: it may store the next datagram. */
        private boolean mayStore;

        Stream(int sessionId, int reorderWindow) {
            this.sessionId = sessionId;
            this.slots = new long[Math.max(1, reorderWindow)];
            this.inDoubt = new long[slots.length];
            Arrays.fill(slots, NONE);
            Arrays.fill(inDoubt, NONE);
        }

        void take(long sequence) {
            final int slot = slotOf(sequence);
            if (inDoubt[slot] == sequence) {
                inDoubt[slot] = NONE;
            }
            if (started) {
                // The next one needed is delivered, not stored: it takes no slot, unless paused for a recovery.
                if (sequence == contiguous + 1) {
                    if (mayStore && slots[slot] > sequence) {
                        inDoubt[slot] = slots[slot];
                    }
                    contiguous++;
                    advance();
                } else if (sequence > contiguous && sequence - contiguous <= slots.length) {
                    hold(sequence);
                }
                return;
            }
            if (firstHeld == NONE) {
                firstHeld = sequence;
            }
            if (sequence >= firstHeld && sequence - firstHeld < slots.length) {
                hold(sequence);
            }
        }

        void goneRead(long toSequence) {
            goneRead = Math.max(goneRead, toSequence);
        }

        void mayStoreTheNext() {
            mayStore = true;
        }

        /**
         * The lowest datagram it misses; {@code pastGone}: above what it was told is gone, too.
         */
        long lowestMissing(boolean pastGone) {
            return missingFrom((pastGone ? Math.max(contiguous, goneRead) : contiguous) + 1);
        }

        /**
         * The lowest datagram in doubt ({@code pastGone}: above what it was told is gone), or
         * {@link #NONE}.
         */
        long lowestInDoubt(boolean pastGone) {
            final long floor = pastGone ? goneRead : NONE;
            long lowest = NONE;
            for (long sequence : inDoubt) {
                if (sequence != NONE && sequence > floor && (lowest == NONE || sequence < lowest)) {
                    lowest = sequence;
                }
            }
            return lowest;
        }

        /** The lowest datagram it would miss after taking {@code sequence}, leaving the model as it is. */
        long lowestMissingTaking(long sequence, boolean pastGone) {
            final long next = lowestMissing(pastGone);
            return started && sequence == next ? missingFrom(next + 1) : next;
        }

        private long missingFrom(long sequence) {
            long next = sequence;
            while (holds(next)) {
                next++;
            }
            return next;
        }

        void startAt(long firstSequence) {
            contiguous = firstSequence - 1;
            started = true;
            advance();
        }

        void givenUpTo(long toSequence) {
            for (int i = 0; i < inDoubt.length; i++) {
                if (inDoubt[i] <= toSequence) {
                    inDoubt[i] = NONE;
                }
            }
            if (started && toSequence > contiguous) {
                contiguous = toSequence;
                advance();
            }
        }

        void end() {
            started = false;
            firstHeld = NONE;
            goneRead = NONE;
            mayStore = false;
            Arrays.fill(slots, NONE);
            Arrays.fill(inDoubt, NONE);
        }

        private void hold(long sequence) {
            slots[slotOf(sequence)] = sequence;
        }

        private boolean holds(long sequence) {
            return slots[slotOf(sequence)] == sequence;
        }

        private int slotOf(long sequence) {
            return (int) Math.floorMod(sequence, (long) slots.length);
        }

        private void advance() {
            while (started && holds(contiguous + 1)) {
                contiguous++;
            }
        }
    }
}
