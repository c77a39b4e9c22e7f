package org.nakcast.transport.receive;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongSupplier;

import org.agrona.DirectBuffer;
import org.agrona.ExpandableDirectByteBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.nakcast.transport.replay.HoleCause;
import org.nakcast.transport.replay.RecoverySource;
import org.nakcast.transport.replay.ReplayHandler;
import org.nakcast.transport.replay.ReplayRefusal;
import org.nakcast.transport.status.SystemCounter;
import org.nakcast.transport.status.SystemCounters;

/**
 * Fetches the messages a stream's publisher no longer holds from its topic's recorders (A, then
 * B), and delivers them in order while the stream holds the live datagrams that follow.
 *
 * <pre>
 *   begin(messages first..last)
 *     ask A for next..last --- message next ----------> delivered, next++   (done at last)
 *        |                  -- hole at next ----------> ask B from next; if B holds it as a hole too
 *        |                                              (or does not hold it, a patience after it first
 *        |                                              said so): lost
 *        |                  -- done short of last ----> ask the same again from next
 *        |                  -- refused, unreachable --> ask B from next; if it has failed every ask for
 *        |                                              a patience (in this recovery or the ones before),
 *        |                                              it answers as a hole
 *        +-- every recorder failed at next: ask A again after a pause
 *     nothing new for the patience: a hole known at next lost (then on after it), else next..last
 *     lost; each loss one event naming each recorder's answer
 * </pre>
 *
 * <p>The patience runs from the last message (or the start) and starts anew when a recorder not
 * yet asked at {@code next} is asked, so each recorder has a whole patience to answer there: a
 * slow answer from A does not use up B's time. A recovery waits at most one patience per recorder
 * at one position. It runs only while the receiving thread polls: a stop longer than the pause
 * between asks (a long GC pause, a stopped process) is not counted, so a node that could not look
 * does not blame recorders that were not asked meanwhile; it asks again when it runs again. A
 * recorder down (refusing, its disk refusing what comes, its node turning the session away, or
 * unreachable) for a whole patience is not waited for again at every gap of the stream while it
 * stays down, which would hold the live stream a patience per gap: it is asked, and its failure
 * taken as a hole, until it answers again.
 * A recorder that has no recording of the session at all while the session has not been heard for
 * a whole patience is taken at its word at once: it cannot begin one of a publisher silent that
 * long, and a stream whose publisher died with many gaps would otherwise wait a patience at each.
 *
 * <p>A message the delivery gate cannot take yet (a queued subscription's full queue) is stashed
 * with those after it until the gate opens, so answers are read in batches. Messages it cannot get
 * are handed to the stream's loss handling ({@link Unrecovered}) exactly, each run once. Not
 * thread-safe: the receiving thread owns it. Off the hot path: a recovery allocates its fetches,
 * and a stash that grows.
 */
final class MessageRecovery implements ReplayHandler {
    /** Answers read per fetch poll. */
    private static final int ANSWERS_PER_POLL = 64;
    private static final int STASHED_HEADER = 2 * Long.BYTES;

    /** Where messages no recorder holds go: the stream's loss event and loss policy. */
    interface Unrecovered {
        /**
         * Messages {@code firstMessage} to {@code firstMessage + count - 1}, given up with the
         * datagrams {@code fromSequence..toSequence}, are held by no recorder asked.
         *
         * @param recordersAsked each recorder asked and its last answer
         */
        void lost(long fromSequence, long toSequence, long firstMessage, long count, List<String> recordersAsked,
            long nowNs);
    }

    private final int topicId;
    private final int sessionId;
    private final List<RecoverySource> sources;
    private final long patienceNs;
    private final long retryNs;
    private final LongSupplier lastHeardNs;
    private final MessageDelivery delivery;
    private final Resequencer sequencer;
    private final Unrecovered unrecovered;
    private final AtomicCounter recoveries;
    private final AtomicCounter recoveredMessages;
    private final String[] answers;
    private final ExpandableDirectByteBuffer stash = new ExpandableDirectByteBuffer(0);
    private int stashHead;
    private int stashTail;

    private boolean active;
    private long fromSequence;
    private long toSequence;
    private long next;
    private long last;
    private int source;
    /** The recorders that failed at {@link #next} since the last message came, one bit each. */
    private int failedHere;
    /** The last message of a hole a recorder holds at {@link #next}, or -1: lost if no other recorder has it. */
    private long holeHereLast = -1;
    /**
     * The recorders that answered a hole at {@link #next} since the last message came, or that they
     * hold no recording of the session, or none holding {@link #next}, a whole patience after first
     * saying so, one bit each.
     */
    private int holesHere;
    /**
     * Per recorder, when it first answered in this recovery that it has no recording of the session
     * or none that holds the message asked for, or Long.MIN_VALUE: still saying so a patience
     * later, it is taken at its word.
     */
    private final long[] notHeldSinceNs;
    /**
     * Per recorder, since when it has failed every ask (refused for a failure of its own, or could
     * not be reached) without serving anything, or Long.MIN_VALUE: kept from one recovery of the
     * stream to the next, so a recorder down for a whole patience is not waited for again at every
     * gap while it stays down; it is still asked each time.
     */
    private final long[] failingSinceNs;
    /** The recorders asked at {@link #next}: each gets a whole patience from when it is first asked there. */
    private int askedHere;
    private RecoverySource.Fetch fetch;
    private long fetchFrom;
    private long lastProgressNs;
    private long retryAtNs;
    private long nowNs;

    /**
     * @param sources the topic's recorders, A first; one or two
     * @param patienceNs how long a recovery may bring no message before what is left is given up
     * @param lastHeardNs when anything of the session was last heard, asked each time: a stream that
     *     resumes takes over its session's earlier life, and this must follow it
     */
    MessageRecovery(int topicId, int sessionId, List<RecoverySource> sources, long patienceNs, LongSupplier lastHeardNs,
        MessageDelivery delivery, Resequencer sequencer, Unrecovered unrecovered, SystemCounters counters) {
        if (sources.isEmpty() || sources.size() > Integer.SIZE) {
            throw new IllegalArgumentException("a recovery needs one recorder or two: " + sources);
        }
        this.topicId = topicId;
        this.sessionId = sessionId;
        this.sources = List.copyOf(sources);
        this.patienceNs = patienceNs;
        this.retryNs = Math.max(1, patienceNs / 8);
        this.lastHeardNs = lastHeardNs;
        this.delivery = delivery;
        this.sequencer = sequencer;
        this.unrecovered = unrecovered;
        this.recoveries = counters.get(SystemCounter.RECOVERIES);
        this.recoveredMessages = counters.get(SystemCounter.RECOVERED_MESSAGES);
        this.answers = new String[sources.size()];
        this.notHeldSinceNs = new long[sources.size()];
        this.failingSinceNs = new long[sources.size()];
        Arrays.fill(failingSinceNs, Long.MIN_VALUE);
    }

    /** Whether a recovery is under way: the stream's delivery waits for it. */
    boolean isActive() {
        return active;
    }

    /** The last message of the recovery under way (or of the last one). */
    long lastMessage() {
        return last;
    }

    /** The first datagram given up to the recovery under way: where a stream of its session resumes. */
    long fromSequence() {
        return fromSequence;
    }

    /**
     * Begins to fetch messages {@code firstMessage..lastMessage}, which went out in datagrams
     * {@code fromSeq..toSeq} that the publisher no longer holds.
     */
    void begin(long fromSeq, long toSeq, long firstMessage, long lastMessage, long now) {
        active = true;
        fromSequence = fromSeq;
        toSequence = toSeq;
        next = firstMessage;
        last = lastMessage;
        source = 0;
        failedHere = 0;
        holeHereLast = -1;
        holesHere = 0;
        askedHere = 1;
        retryAtNs = now;
        Arrays.fill(answers, null);
        Arrays.fill(notHeldSinceNs, Long.MIN_VALUE);
        lastProgressNs = now;
        nowNs = now;
        recoveries.increment();
        ask();
    }

    /**
     * Delivers what has come, asks again where an answer ended, and gives up what nothing brought
     * for the patience.
     *
     * @return work done
     */
    int poll(long now) {
        if (!active) {
            return 0;
        }
        final long unpolledNs = now - nowNs - retryNs;
        if (unpolledNs > 0) {
            lastProgressNs += unpolledNs;
        }
        nowNs = now;
        int work = deliverStashed();
        if (stashHead < stashTail || !active) {
            return work;
        }
        if (fetch == null && now - retryAtNs >= 0) {
            ask();
        }
        if (fetch != null) {
            work += fetch.poll(this, ANSWERS_PER_POLL, now);
        }
        if (active && stashHead == stashTail && now - lastProgressNs > patienceNs) {
            if (holeHereLast >= 0) {
                loseHoleAndGoOn();
            } else {
                giveUp(last);
            }
        }
        return work;
    }

    /** Ends a recovery under way without a word: its stream is closing. */
    void close() {
        closeFetch();
        active = false;
    }

    @Override
    public void onAccepted(long requestId, long first, long lastAccepted) {
        // the messages follow
    }

    @Override
    public void onMessage(long messageIndex, DirectBuffer buffer, int offset, int length, long recordedAtNs) {
        if (!active || messageIndex != next) {
            return;
        }
        if (stashHead == stashTail && sequencer.canTakeWhole(length, nowNs)) {
            delivery.deliverRecovered(messageIndex, buffer, offset, length);
        } else {
            stash.putLong(stashTail, messageIndex);
            stash.putLong(stashTail + Long.BYTES, length);
            stash.putBytes(stashTail + STASHED_HEADER, buffer, offset, length);
            stashTail += STASHED_HEADER + length;
        }
        next++;
        notHeldSinceNs[source] = Long.MIN_VALUE;
        failingSinceNs[source] = Long.MIN_VALUE;
        failedHere = 0;
        holeHereLast = -1;
        holesHere = 0;
        askedHere = 1 << source;
        lastProgressNs = nowNs;
        recoveredMessages.increment();
        if (next > last) {
            closeFetch();
            finishWhenDelivered();
        }
    }

    @Override
    public void onHole(long firstMessage, long count, HoleCause cause) {
        if (!active || firstMessage != next || count < 1) {
            return;
        }
        final long holeLast = Math.min(last, firstMessage + count - 1);
        answers[source] = "messages " + firstMessage + ".." + holeLast + " not recorded, " + cause.reason();
        holeHereLast = holeHereLast < 0 ? holeLast : Math.min(holeHereLast, holeLast);
        notHeldSinceNs[source] = Long.MIN_VALUE;
        failingSinceNs[source] = Long.MIN_VALUE;
        holesHere |= 1 << source;
        closeFetch();
        failed();
    }

    @Override
    public void onDone(long requestId, long nextMessageIndex) {
        if (!active) {
            return;
        }
        failingSinceNs[source] = Long.MIN_VALUE;
        closeFetch();
        if (next > fetchFrom) {
            ask();
        } else {
            answers[source] = "holds nothing from message " + next + " yet";
            failed();
        }
    }

    @Override
    public void onRefused(long requestId, ReplayRefusal refusal, String sentence) {
        if (!active) {
            return;
        }
        answers[source] = refusal.reason() + " (" + sentence + ")";
        final boolean notHeld = refusal == ReplayRefusal.NO_RECORDING || refusal == ReplayRefusal.NOT_HELD;
        (notHeld ? failingSinceNs : notHeldSinceNs)[source] = Long.MIN_VALUE;
        final boolean noneOfASilentSession = refusal == ReplayRefusal.NO_RECORDING
            && nowNs - lastHeardNs.getAsLong() >= patienceNs;
        if (noneOfASilentSession || saysSoStill(notHeld ? notHeldSinceNs : failingSinceNs)) {
            holesHere |= 1 << source;
        }
        closeFetch();
        failed();
    }

    /**
     * Notes that the recorder asked gave the same kind of answer as before ({@code sinceNs} holds
     * since when, per recorder); whether it has for a whole patience: it is then taken at its word.
     */
    private boolean saysSoStill(long[] sinceNs) {
        if (sinceNs[source] == Long.MIN_VALUE) {
            sinceNs[source] = nowNs;
            return false;
        }
        return nowNs - sinceNs[source] >= patienceNs;
    }

    private void ask() {
        closeFetch();
        fetchFrom = next;
        fetch = sources.get(source).fetch(topicId, sessionId, next, last, nowNs);
    }

    /**
     * The recorder asked failed at {@link #next}: the next one untried there is asked. If every one
     * failed and every one holds a hole there (or has said for a whole patience that it has no
     * recording of the session, or none holding that message), the hole is lost at once, or
     * everything left if none answered a hole; else all are asked again after a pause (a recorder
     * that has not recorded it yet, or refused, may have it then).
     */
    private void failed() {
        failedHere |= 1 << source;
        final int untried = untriedHere();
        if (untried >= 0) {
            source = untried;
            if ((askedHere & 1 << untried) == 0) {
                askedHere |= 1 << untried;
                lastProgressNs = nowNs;
            }
            ask();
            return;
        }
        failedHere = 0;
        source = 0;
        if (holesHere == (1 << sources.size()) - 1 && stashHead == stashTail) {
            if (holeHereLast < 0) {
                giveUp(last);
            } else {
                loseHoleAndGoOn();
            }
        } else {
            retryAtNs = nowNs + retryNs;
        }
    }

    /** The hole known at {@link #next} is lost; the recovery goes on after it, with patience anew. */
    private void loseHoleAndGoOn() {
        final long lostLast = holeHereLast;
        holeHereLast = -1;
        holesHere = 0;
        failedHere = 0;
        closeFetch();
        giveUp(lostLast);
        if (active) {
            lastProgressNs = nowNs;
            source = 0;
            askedHere = 1;
            ask();
        }
    }

    /** A recorder that has not failed at {@link #next}, or -1. */
    private int untriedHere() {
        for (int i = 0; i < sources.size(); i++) {
            if ((failedHere & 1 << i) == 0) {
                return i;
            }
        }
        return -1;
    }

    /** Gives up messages {@link #next}..{@code lostLast}: one loss event, then on after them. */
    private void giveUp(long lostLast) {
        final List<String> asked = new ArrayList<>(sources.size());
        for (int i = 0; i < sources.size(); i++) {
            asked.add(sources.get(i).name() + ": " + (answers[i] == null ? "not asked in time" : answers[i]));
        }
        final long first = next;
        next = lostLast + 1;
        if (next > last) {
            closeFetch();
            active = false;
        }
        delivery.continueAt(next);
        unrecovered.lost(fromSequence, toSequence, first, lostLast - first + 1, asked, nowNs);
    }

    /** Delivers stashed messages while the gate takes them; ends the recovery once it has them all. */
    private int deliverStashed() {
        int delivered = 0;
        while (stashHead < stashTail) {
            final long index = stash.getLong(stashHead);
            final int length = (int) stash.getLong(stashHead + Long.BYTES);
            if (!sequencer.canTakeWhole(length, nowNs)) {
                return delivered;
            }
            delivery.deliverRecovered(index, stash, stashHead + STASHED_HEADER, length);
            stashHead += STASHED_HEADER + length;
            delivered++;
            lastProgressNs = nowNs;
        }
        stashHead = 0;
        stashTail = 0;
        finishWhenDelivered();
        return delivered;
    }

    private void finishWhenDelivered() {
        if (next > last && stashHead == stashTail) {
            active = false;
        }
    }

    private void closeFetch() {
        if (fetch != null) {
            fetch.close();
            fetch = null;
        }
    }
}
