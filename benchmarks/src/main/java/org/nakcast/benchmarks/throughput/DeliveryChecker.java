package org.nakcast.benchmarks.throughput;

import java.util.concurrent.atomic.AtomicLong;

import org.nakcast.transport.LossEvent;
import org.nakcast.transport.MessageHeader;
import org.nakcast.transport.StreamEventListener;
import org.nakcast.transport.StreamStarted;

/**
 * The subscriber's check: the one publisher's messages arrive exactly once and in order, each
 * carrying its number (0, 1, 2, ...), and are counted. The run's {@link Payload} reads the number
 * out of each message (raw bytes or a decoded price update) and hands it here with whether the
 * rest of the message is intact.
 *
 * <p>A message is a sequence error if it is not the next one, unless the jump is covered by
 * messages a {@link LossEvent} reported lost before it (loss is reported, never an error here);
 * if its stream index differs from its number; if it is not intact (raw bytes of another length, a
 * price update whose other fields are not the sample's); or if it comes from a second publisher
 * session. The first message must be number 0: the subscriber
 * listens before the publisher starts, so a later start would be a silent skip.
 *
 * <p>A peer system has no stream index, session or loss event: {@link #onPeerMessage} checks the
 * number alone. A jump forward there is messages the peer skipped without telling
 * ({@link #skipped()}); a number at or below one already delivered is a sequence error.
 *
 * <p>Runs on the node's (or the peer's) receiving thread; other threads read the figures through
 * {@link #delivered()} (published with an ordered store per message) or after the node closed.
 * {@link #onMessage} and {@link #onPeerMessage} allocate nothing.
 */
public final class DeliveryChecker implements StreamEventListener {
    private static final int NO_SESSION = 0;

    private final AtomicLong deliveredPublished = new AtomicLong();
    private volatile long firstMessageNs;
    private volatile long lost;
    private volatile long lossEvents;
    private volatile long sequenceErrors;
    private volatile long streamsStarted;
    private volatile long skipped;
    private long delivered;
    private long expected;
    private long lossNotYetSeen;
    private int sessionId = NO_SESSION;

    /**
     * Checks and counts one delivered message.
     *
     * @param number the number the message carries
     * @param intact whether the rest of the message is as the publisher wrote it
     * @param header where it came from
     */
    void onMessage(long number, boolean intact, MessageHeader header) {
        if (delivered == 0) {
            sessionId = header.sessionId();
        }
        if (number != expected && !skipCoveredByLoss(number)) {
            sequenceErrors++;
        } else if (header.messageIndex() != number || !intact || header.sessionId() != sessionId) {
            sequenceErrors++;
        }
        count(number);
    }

    /**
     * Checks and counts one message a peer delivered: the next number, or a later one (the
     * messages between were skipped), and intact.
     *
     * @param number the number the message carries
     * @param intact whether the rest of the message is as the publisher wrote it
     */
    public void onPeerMessage(long number, boolean intact) {
        if (number > expected) {
            skipped += number - expected;
        } else if (number < expected || !intact) {
            sequenceErrors++;
        }
        count(number);
    }

    private void count(long number) {
        if (delivered == 0) {
            firstMessageNs = System.nanoTime();
        }
        expected = Math.max(expected, number + 1);
        delivered++;
        deliveredPublished.lazySet(delivered);
    }

    private boolean skipCoveredByLoss(long number) {
        final long skipped = number - expected;
        if (skipped > 0 && skipped <= lossNotYetSeen) {
            lossNotYetSeen -= skipped;
            return true;
        }
        return false;
    }

    @Override
    public void onStreamStarted(StreamStarted event) {
        streamsStarted++;
    }

    @Override
    public void onLoss(LossEvent event) {
        lossEvents++;
        lost += event.lostMessages();
        lossNotYetSeen += event.lostMessages();
    }

    /** Messages delivered so far; any thread. */
    long delivered() {
        return deliveredPublished.get();
    }

    /** When the first message arrived ({@link System#nanoTime()}), or 0 before. */
    long firstMessageNs() {
        return firstMessageNs;
    }

    /** Messages a peer skipped without telling: the jumps forward {@link #onPeerMessage} saw. */
    long skipped() {
        return skipped;
    }

    /** Messages reported lost by loss events. */
    long lost() {
        return lost;
    }

    /** Loss events received. */
    long lossEvents() {
        return lossEvents;
    }

    /** Messages that broke the order, see the class description. */
    long sequenceErrors() {
        return sequenceErrors;
    }

    /** Publisher streams heard; 1 in a sound run. */
    long streamsStarted() {
        return streamsStarted;
    }
}
