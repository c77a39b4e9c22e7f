package org.nakcast.transport.publish;

import org.nakcast.transport.PublisherEventListener;
import org.nakcast.transport.ReceiverOutrun;

/**
 * Raises a stream's {@link ReceiverOutrun} events, at most one per interval: the first request
 * for datagrams gone at once, the ones that follow within the interval folded into one event
 * raised when it ends (the latest request, with how many were folded). A receiver that keeps
 * asking, or a stranger's flood of NAKs, costs one event (and one log line) per interval, and no
 * allocation per request.
 *
 * <pre>
 *   t=0     request A  -> event A, suppressed 0
 *   t=0.2s  request B  -> held
 *   t=0.7s  request C  -> held
 *   t=1s    poll       -> event C, suppressed 1 (B)
 * </pre>
 *
 * <p>Time is passed in; not thread-safe (the sending thread owns it).
 */
final class OutrunReports {
    private final int topicId;
    private final int sessionId;
    private final long intervalNs;
    private final PublisherEventListener events;

    private boolean reportedBefore;
    private long lastReportNs;
    private long held;
    private int receiverId;
    private long fromSequence;
    private long toSequence;
    private long oldestHeld;
    private long newestSent;

    /**
     * @param intervalNs the least time between two events
     * @param events where the events go
     */
    OutrunReports(int topicId, int sessionId, long intervalNs, PublisherEventListener events) {
        this.topicId = topicId;
        this.sessionId = sessionId;
        this.intervalNs = intervalNs;
        this.events = events;
    }

    /** A receiver asked for datagrams {@code fromSequence..toSequence}, gone from history. */
    void onOutrun(int receiverId, long fromSequence, long toSequence, long oldestHeld, long newestSent, long nowNs) {
        this.receiverId = receiverId;
        this.fromSequence = fromSequence;
        this.toSequence = toSequence;
        this.oldestHeld = oldestHeld;
        this.newestSent = newestSent;
        held++;
        poll(nowNs);
    }

    /** Raises the event for what is held once the interval since the last one has passed. */
    void poll(long nowNs) {
        if (held > 0 && (!reportedBefore || nowNs - lastReportNs >= intervalNs)) {
            events.onReceiverOutrun(new ReceiverOutrun(topicId, sessionId, receiverId, fromSequence, toSequence,
                oldestHeld, newestSent, held - 1));
            held = 0;
            reportedBefore = true;
            lastReportNs = nowNs;
        }
    }
}
