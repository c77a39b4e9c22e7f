package org.nakcast.transport.receive;

import java.util.Arrays;
import java.util.Objects;

import org.agrona.concurrent.status.AtomicCounter;
import org.nakcast.transport.LineDown;
import org.nakcast.transport.LineUp;
import org.nakcast.transport.StreamEventListener;

/**
 * Arbitrates one publisher stream heard on two lines (A and B): how far each line has brought the
 * stream, which line is down, and up to where a gap is one that both lines missed (the NAK horizon).
 * The stream takes the first copy of each datagram, whichever line brings it; this class decides
 * only when a gap may be NAKed, and keeps the tallies per line.
 *
 * <pre>
 *   line A  ..  7  8  .  10 11 12            A's progress: 12
 *   line B  ..  7  8  9  10 .                B's progress: 10 (lags, lost 11)
 *   horizon = min(progress of the lines up) = 10: 9 is in hand from B, nothing below 10 to NAK;
 *   11 waits for B's copy; only once B passes 11 without it (or B is down) is 11 NAKed
 * </pre>
 *
 * <p>A line's progress is the highest sequence it told of: a DATA it brought, or a HEARTBEAT's
 * highest. A line is <em>down</em> once it has brought nothing new while the other line, ahead of
 * it, went on talking for the line timeout: the other line's DATA and HEARTBEATs since this one
 * fell behind span the line timeout, each silence between two of them counted for at most half the
 * line timeout. A silence of both lines is no line's fault: the publisher or this receiver was
 * stopped (a thread preempted, a GC pause), and a line that lost the datagram before such a stop
 * and the one after it is not down for the stop's length; on a busy stream it is down only once the
 * other line has gone on for half the line timeout more without it. A dead line so holds the horizon
 * back for about the line timeout (until the other line's next datagrams after it: its data, or its
 * publisher's quick heartbeats once it goes quiet). A publisher stopped for a while between its two
 * sends of one datagram leaves one line ahead by that datagram, but the other line is silent too,
 * so that is no line's fault either; nor are both lines quiet (an idle publisher): a line is only
 * ever down against the other talking. It is up again with the first datagram that takes it further.
 * Decided when the stream polls, after its receiver read both lines' sockets. The horizon never
 * moves back.
 *
 * <p>Tallies per line: datagrams whose first copy it brought, copies it brought second (the stream
 * had them already), datagrams it missed alone (it went past them without them while the other line
 * brought them: counted by the stream, which knows what it holds, when the line jumps past datagrams
 * it has, and here when the other line's first copy comes after the jump), and its lag behind the
 * other: a moving mean (gain 1/8) of how long its second copies came after the other's first. Per
 * stream: the gaps both lines missed (those the stream NAKs). {@link LineCounters} publishes them.
 *
 * <p>It is its {@link InboundStream}'s two-line glue: the stream hands it every DATA and HEARTBEAT
 * with the line it came on, asks it which gaps the horizon newly passed, and on each poll has it tell
 * the stream's listener of each line that went down ({@link LineDown}) or came up ({@link LineUp})
 * and publish the tallies. No clock (the time is handed in), no I/O; not thread-safe.
 */
final class LineArbiter {
    /** What {@link #pollTransition} answers when no line went down or came up. */
    static final int NO_TRANSITION = -1;
    private static final long NEVER = Long.MIN_VALUE;
    /** How many recent first copies remember when and on which line they came, to measure lag. */
    private static final int ARRIVALS = 1024;
    private static final int LAG_GAIN_SHIFT = 3;

    private final int topicId;
    private final int sessionId;
    private final String[] names;
    private final long lineTimeoutNs;
    private final StreamEventListener listener;
    private final AtomicCounter linesDown;
    private LineCounters counters;
    /** The NAK horizon up to which the stream's gaps were looked for. */
    private long gapsFoundUpTo = -1;
    private final long[] progress = {-1, -1};
    /** Per line: since when the other line has been ahead while this one brought nothing new. */
    private final long[] behindSinceNs = {NEVER, NEVER};
    /** Per line: when it last brought a DATA or HEARTBEAT of the stream, new or not. */
    private final long[] heardNs = {NEVER, NEVER};
    /** Per line, while it is behind: how long the other line has talked since, silences capped. */
    private final long[] outtalkedNs = new long[2];
    /** The most a silence of the line ahead counts towards the line timeout. */
    private final long longestSilenceCountedNs;
    private final boolean[] down = new boolean[2];
    /** Per line: whether its going down or coming up is still to be told. */
    private final boolean[] untold = new boolean[2];
    private final long[] downSinceNs = new long[2];
    private final long[] firstCopies = new long[2];
    private final long[] secondCopies = new long[2];
    private final long[] lagNs = new long[2];
    /** Per line: the highest sequence of the DATA it brought, -1 before its first. */
    private final long[] broughtUpTo = {-1, -1};
    private final long[] missedAlone = new long[2];
    private long gapsBothMissed;
    private final long[] arrivalSequence = new long[ARRIVALS];
    private final long[] arrivalNs = new long[ARRIVALS];
    private final byte[] arrivalLine = new byte[ARRIVALS];
    private long horizon = -1;

    /**
     * @param names the two lines' names, for the events
     * @param lineTimeoutNs how long a line may bring nothing new while the other is ahead before it is down
     * @param listener gets the stream's {@link LineDown} and {@link LineUp} events
     * @param linesDown counts the lines that went down
     */
    LineArbiter(int topicId, int sessionId, String[] names, long lineTimeoutNs, StreamEventListener listener,
        AtomicCounter linesDown) {
        if (names.length != 2) {
            throw new IllegalArgumentException("two lines to arbitrate, not " + names.length);
        }
        if (lineTimeoutNs <= 0) {
            throw new IllegalArgumentException("lineTimeoutNs must be positive: " + lineTimeoutNs);
        }
        this.topicId = topicId;
        this.sessionId = sessionId;
        this.names = names.clone();
        this.lineTimeoutNs = lineTimeoutNs;
        this.listener = Objects.requireNonNull(listener, "listener");
        this.linesDown = Objects.requireNonNull(linesDown, "linesDown");
        this.longestSilenceCountedNs = lineTimeoutNs / 2;
        Arrays.fill(arrivalSequence, -1);
    }

    /**
     * Line {@code line} told that {@code sequence} exists: a DATA it brought (first copy or not), or a
     * HEARTBEAT's highest. A RETRANSMIT tells nothing of a line's progress and is not passed here.
     */
    void onProgress(int line, long sequence, long nowNs) {
        final int other = 1 - line;
        if (behindSinceNs[other] != NEVER) {
            final long silenceNs = nowNs - Math.max(heardNs[line], behindSinceNs[other]);
            outtalkedNs[other] += Math.min(silenceNs, longestSilenceCountedNs);
        }
        heardNs[line] = nowNs;
        if (sequence > progress[line]) {
            progress[line] = sequence;
            behindSinceNs[line] = progress[line] < progress[other] ? nowNs : NEVER;
            outtalkedNs[line] = 0;
            if (down[line]) {
                down[line] = false;
                untold[line] = !untold[line];
            }
        }
        if (progress[line] > progress[other] && behindSinceNs[other] == NEVER) {
            behindSinceNs[other] = nowNs;
            outtalkedNs[other] = 0;
        }
        advanceHorizon();
    }

    /**
     * Line {@code line} brought DATA {@code sequence} (a first copy or not; never a RETRANSMIT).
     *
     * @return the first sequence the line went past without bringing it: the line's gap is [answer,
     *     {@code sequence} - 1], empty when the answer is {@code sequence} (nothing skipped, an older
     *     datagram, or the line's first)
     */
    private long onBrought(int line, long sequence) {
        final long previous = broughtUpTo[line];
        if (sequence <= previous) {
            return sequence;
        }
        broughtUpTo[line] = sequence;
        return previous < 0 ? sequence : previous + 1;
    }

    /** The stream found a gap below the horizon: both lines (or the one up) went past it without it. */
    void onGapBothMissed() {
        gapsBothMissed++;
    }

    /**
     * The first copy of DATA {@code sequence} came on {@code line}. If the other line already went
     * past it without it, that line missed it alone.
     */
    void onFirstCopy(int line, long sequence, long nowNs) {
        firstCopies[line]++;
        if (broughtUpTo[1 - line] > sequence) {
            missedAlone[1 - line]++;
        }
        final int slot = (int) (sequence & (ARRIVALS - 1));
        arrivalSequence[slot] = sequence;
        arrivalNs[slot] = nowNs;
        arrivalLine[slot] = (byte) line;
    }

    /**
     * A copy of DATA {@code sequence} came on {@code line} after the stream already had it; if its
     * first copy is among the recent ones and came on the other line, the line's lag is measured.
     */
    void onSecondCopy(int line, long sequence, long nowNs) {
        secondCopies[line]++;
        final int slot = (int) (sequence & (ARRIVALS - 1));
        if (arrivalSequence[slot] == sequence && arrivalLine[slot] != line) {
            lagNs[line] += (nowNs - arrivalNs[slot] - lagNs[line]) >> LAG_GAIN_SHIFT;
            arrivalSequence[slot] = -1;
        }
    }

    /**
     * Line {@code line} brought DATA {@code sequence} (never a RETRANSMIT) to a stream that holds
     * {@code window} and delivers {@code expected} next. The datagrams the line went past without them
     * that the stream already has (delivered or held), the other line brought (or, rarely, a repair):
     * the line missed them alone. Those the stream does not have yet are counted when the other line's
     * first copy comes ({@link #onFirstCopy}), or are a gap both lines missed. Looks at most a reorder
     * window's worth of sequences, once per jump, never per datagram.
     */
    void onData(int line, long sequence, ReorderWindow window, long expected, long nowNs) {
        onProgress(line, sequence, nowNs);
        final long skippedFrom = onBrought(line, sequence);
        if (skippedFrom >= sequence) {
            return;
        }
        final long skippedTo = sequence - 1;
        long inHand = Math.max(0, Math.min(skippedTo, expected - 1) - skippedFrom + 1);
        final long lastHeld = Math.min(skippedTo, expected + window.capacity() - 1);
        for (long held = Math.max(skippedFrom, expected); held <= lastHeld; held++) {
            if (window.contains(held)) {
                inHand++;
            }
        }
        missedAlone[line] += inHand;
    }

    /**
     * The span of the stream's sequences the NAK horizon newly passed since the last call, up to
     * {@code highestSeen}: [answer, {@link #gapsFoundUpTo()}], empty when the answer is greater. Each
     * sequence is in one answer at most: a gap in it counts as found (and is NAKed) once.
     *
     * @param expected the next datagram the stream delivers; nothing below it is a gap
     */
    long newlyBelowHorizon(long highestSeen, long expected) {
        final long reached = Math.min(highestSeen, horizon);
        if (reached <= gapsFoundUpTo) {
            return Long.MAX_VALUE;
        }
        final long from = Math.max(expected, gapsFoundUpTo + 1);
        gapsFoundUpTo = reached;
        return from;
    }

    /** The end of the span last answered by {@link #newlyBelowHorizon}. */
    long gapsFoundUpTo() {
        return gapsFoundUpTo;
    }

    /**
     * Tells the stream's listener of each line that went down or came up since the last call, and
     * publishes the tallies if {@linkplain #publishTo counters} were given.
     *
     * @return whether a line went down or came up: the horizon may have moved
     */
    boolean poll(long nowNs) {
        boolean changed = false;
        for (int line = pollTransition(); line != NO_TRANSITION; line = pollTransition()) {
            changed = true;
            if (down[line]) {
                linesDown.increment();
                listener.onLineDown(new LineDown(topicId, sessionId, names[line], nowNs - downSinceNs[line]));
            } else {
                listener.onLineUp(new LineUp(topicId, sessionId, names[line], nowNs - downSinceNs[line]));
            }
        }
        if (counters != null) {
            counters.update(this);
        }
        return changed;
    }

    /** Publishes the tallies in {@code lineCounters} on every {@link #poll}; {@link #close()} gives them back. */
    void publishTo(LineCounters lineCounters) {
        counters = lineCounters;
    }

    /** Gives back the counters, if any. */
    void close() {
        if (counters != null) {
            counters.free();
        }
    }

    /**
     * Declares down the line that has brought nothing new while the other, ahead, went on talking for
     * the line timeout (its silences capped), and answers the line whose state changed and is still to be told
     * ({@link #isDown} says which way), one per call, or {@link #NO_TRANSITION}.
     */
    int pollTransition() {
        for (int line = 0; line < 2; line++) {
            if (!down[line] && behindSinceNs[line] != NEVER && outtalkedNs[line] >= lineTimeoutNs) {
                down[line] = true;
                downSinceNs[line] = behindSinceNs[line];
                untold[line] = !untold[line];
                advanceHorizon();
            }
        }
        for (int line = 0; line < 2; line++) {
            if (untold[line]) {
                untold[line] = false;
                return line;
            }
        }
        return NO_TRANSITION;
    }

    /** The highest sequence every line up has told of (the other's, if one is down): gaps up to it are NAKed. */
    long horizon() {
        return horizon;
    }

    boolean isDown(int line) {
        return down[line];
    }

    /** Since when {@code line} (down) has brought nothing new while the other was ahead. */
    long downSinceNs(int line) {
        return downSinceNs[line];
    }

    long progress(int line) {
        return progress[line];
    }

    long firstCopies(int line) {
        return firstCopies[line];
    }

    long secondCopies(int line) {
        return secondCopies[line];
    }

    /** Datagrams {@code line} went past without them while the other line brought them. */
    long missedAlone(int line) {
        return missedAlone[line];
    }

    /** Gaps both lines (or the one up) went past: those the stream NAKed. */
    long gapsBothMissed() {
        return gapsBothMissed;
    }

    /** How long {@code line}'s copies come after the other's, as a moving mean; 0 until measured. */
    long lagNs(int line) {
        return lagNs[line];
    }

    private void advanceHorizon() {
        final long reached;
        if (down[0] == down[1]) {
            reached = Math.min(progress[0], progress[1]);
        } else {
            reached = down[0] ? progress[1] : progress[0];
        }
        horizon = Math.max(horizon, reached);
    }
}
