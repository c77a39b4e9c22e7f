package org.nakcast.cli;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.agrona.DirectBuffer;
import org.nakcast.config.Durations;
import org.nakcast.config.FlowControlMode;
import org.nakcast.config.LateJoinPolicy;
import org.nakcast.config.TopicConfig;
import org.nakcast.transport.LineDown;
import org.nakcast.transport.LineUp;
import org.nakcast.transport.LossEvent;
import org.nakcast.transport.MessageHandler;
import org.nakcast.transport.MessageHeader;
import org.nakcast.transport.PublisherGone;
import org.nakcast.transport.RecoveryStarted;
import org.nakcast.transport.StreamStarted;
import org.nakcast.transport.StreamEventListener;

/**
 * What {@code sub} checks: the messages of one publisher, numbered 0..expected-1 in their first 8
 * bytes (little-endian), must each arrive once and in order. Every message is sorted into exactly
 * one of: received (new and in range), duplicate, numbered outside the range, too short to carry a
 * number, or from another publisher session (the first message's session is the one checked). A
 * received message whose number is below one already received is also out of order.
 *
 * <p>Every publisher stream that ends ({@link PublisherGone}: silent past the topic's
 * {@code publisher-timeout}, restarted, or ended by its publisher) is kept and reported. When the
 * checked session restarted or ended, nothing more will come, so the wait ends and, if messages
 * are missing, that is the reason. When it fell silent, it may be heard again (a publisher paused
 * past the timeout, by a long collection say): the transport resumes it where it left off, which is
 * counted ({@link #resumes()}), and the wait goes on until the caller's timeout of silence; if it
 * never comes back, the silence is the reason.
 *
 * <p>On a topic of two lines, every {@link LineDown} and {@link LineUp} is kept and reported: a line
 * that went down costs no message, so it is a figure, not a problem.
 *
 * <p>Messages the publisher no longer held ({@link LossEvent.Cause#UNRECOVERABLE}) are laid at the
 * door of the topic's flow control, which decides whether a publisher may outrun a receiver: the
 * verdict says which policy let it happen and what to change.
 *
 * <p>Fed on the node's receiving thread; the counts are volatile (one writer) so that the thread
 * printing progress and waiting for the end can read them.
 */
final class StreamCheck implements MessageHandler<DirectBuffer>, StreamEventListener {
    /** Length of the sequence number at the start of every message. */
    static final int NUMBER_LENGTH = Long.BYTES;

    private final long expected;
    private final TopicConfig topic;
    private final BitSet seen;
    private final List<String> lossDescriptions = new ArrayList<>();
    private final List<PublisherGone> publishersGone = new ArrayList<>();
    private final List<Map<String, Object>> lineEvents = new ArrayList<>();
    private final List<String> lineEventDescriptions = new ArrayList<>();
    private int sessionId;
    private boolean sessionKnown;
    private long nextNumber;
    private volatile long received;
    private volatile long duplicates;
    private volatile long outOfOrder;
    private volatile long outOfRange;
    private volatile long tooShort;
    private volatile long otherSessions;
    private volatile long lowestNumber = Long.MAX_VALUE;
    private volatile long lost;
    private volatile long unrecoverable;
    private volatile long gaps;
    private volatile boolean dropped;
    /** The checked session's end for good: restarted, or ended by its publisher; null while it may go on. */
    private volatile PublisherGone checkedPublisherGone;
    /** The checked session's silence past the publisher timeout, while it has not been heard again. */
    private volatile PublisherGone checkedPublisherSilent;
    private volatile long resumes;
    private volatile long recovered;
    private volatile long recoveries;
    private volatile long lastRecoveredNs;
    private volatile long firstNs;
    private volatile long lastNs;

    /**
     * @param expected how many messages, numbered from 0, at most {@link Integer#MAX_VALUE}
     * @param topic the checked topic's config, whose flow control a loss is explained by
     */
    StreamCheck(long expected, TopicConfig topic) {
        if (expected < 0 || expected > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("expected must be in 0.." + Integer.MAX_VALUE + ", was " + expected);
        }
        this.expected = expected;
        this.topic = topic;
        this.seen = new BitSet((int) expected);
    }

    @Override
    public void onMessage(DirectBuffer message, MessageHeader header) {
        final long nowNs = System.nanoTime();
        if (!sessionKnown) {
            sessionKnown = true;
            sessionId = header.sessionId();
            firstNs = nowNs;
        } else if (header.sessionId() != sessionId) {
            otherSessions++;
            return;
        }
        if (message.capacity() < NUMBER_LENGTH) {
            tooShort++;
            return;
        }
        final long number = message.getLong(0, ByteOrder.LITTLE_ENDIAN);
        if (number < 0 || number >= expected) {
            outOfRange++;
            return;
        }
        if (seen.get((int) number)) {
            duplicates++;
            return;
        }
        seen.set((int) number);
        if (number < nextNumber) {
            outOfOrder++;
        } else {
            nextNumber = number + 1;
        }
        if (number < lowestNumber) {
            lowestNumber = number;
        }
        if (header.sequence() == MessageHeader.RECOVERED) {
            recovered++;
            lastRecoveredNs = nowNs;
        }
        lastNs = nowNs;
        received++;
    }

    @Override
    public void onLoss(LossEvent event) {
        synchronized (lossDescriptions) {
            lossDescriptions.add(event.describe());
        }
        lost += event.lostMessages();
        if (event.cause() == LossEvent.Cause.UNRECOVERABLE) {
            unrecoverable += event.lostMessages();
        }
        gaps++;
        if (event.streamDropped()) {
            dropped = true;
        }
    }

    @Override
    public void onPublisherGone(PublisherGone event) {
        synchronized (publishersGone) {
            publishersGone.add(event);
        }
        if (sessionKnown && event.sessionId() == sessionId) {
            if (event.cause() == PublisherGone.Cause.SILENT) {
                checkedPublisherSilent = event;
            } else {
                checkedPublisherGone = event;
            }
        }
    }

    @Override
    public void onStreamStarted(StreamStarted event) {
        if (sessionKnown && event.sessionId() == sessionId && checkedPublisherSilent != null) {
            checkedPublisherSilent = null;
            resumes++;
        }
    }

    /** Times the checked session was heard again after it had fallen silent past the publisher timeout. */
    long resumes() {
        return resumes;
    }

    /** A run of the checked session its publisher no longer held is fetched from the topic's recorders. */
    @Override
    public void onRecoveryStarted(RecoveryStarted event) {
        if (!sessionKnown || event.sessionId() == sessionId) {
            recoveries++;
        }
    }

    /** Messages of the checked session that came from the topic's recorders, and the recoveries that fetched them. */
    long recovered() {
        return recovered;
    }

    long recoveries() {
        return recoveries;
    }

    @Override
    public void onLineDown(LineDown event) {
        lineEvent(event.line(), "down", event.behindNs(), event.describe());
    }

    @Override
    public void onLineUp(LineUp event) {
        lineEvent(event.line(), "up", event.downNs(), event.describe());
    }

    /** A line event: the line, down or up, and how long it had been behind (down) or down (up). */
    private void lineEvent(String line, String state, long forNs, String description) {
        final Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("line", line);
        fields.put("state", state);
        fields.put("forMs", forNs / 1_000_000);
        synchronized (lineEvents) {
            lineEvents.add(fields);
            lineEventDescriptions.add(description);
        }
    }

    /** Whether every expected message has been received. */
    boolean complete() {
        return received == expected;
    }

    /**
     * Whether nothing more will come of the checked stream: the topic's loss policy dropped it, or
     * its publisher restarted or ended it (a silent one may come back).
     */
    boolean ended() {
        return dropped || checkedPublisherGone != null;
    }

    /** When the last new message came ({@link System#nanoTime()}), or 0 if none came. */
    long lastNs() {
        return lastNs;
    }

    /** New messages numbered in range, so far. */
    long received() {
        return received;
    }

    /** Messages the loss events counted. */
    long lost() {
        return lost;
    }

    /** Messages received again. */
    long duplicates() {
        return duplicates;
    }

    /** Messages received after one of a higher number. */
    long outOfOrder() {
        return outOfOrder;
    }

    /** Loss events: gaps the transport declared unrecoverable. */
    long gaps() {
        return gaps;
    }

    /**
     * Whether the check passed: every message once and in order, nothing else.
     *
     * @param timedOut whether the waiting ended without every message
     */
    boolean passed(boolean timedOut) {
        return problems(timedOut, 0).isEmpty();
    }

    /**
     * What went wrong, in words; empty if nothing did.
     *
     * @param timedOut whether the waiting ended without every message
     * @param timeoutSeconds how long it waited without a (first) message, for the words
     */
    List<String> problems(boolean timedOut, double timeoutSeconds) {
        final List<String> problems = new ArrayList<>();
        final long missing = expected - received;
        if (missing > 0) {
            problems.add("missing " + missing + " of " + expected + " messages");
        }
        if (lost > 0 || gaps > 0) {
            problems.add(lost + " messages lost in " + gaps + " loss events");
        }
        if (unrecoverable > 0) {
            problems.add(flowControlVerdict());
        }
        if (dropped) {
            problems.add("the stream was dropped (loss policy drop)");
        }
        final PublisherGone gone = checkedPublisherGone;
        final PublisherGone silent = checkedPublisherSilent;
        if (gone != null && missing > 0) {
            problems.add("publisher gone before the last message: " + describe(gone));
        } else if (silent != null && missing > 0) {
            problems.add("publisher gone before the last message and not heard again: " + describe(silent));
        }
        if (timedOut) {
            problems.add(received == 0
                ? "no message at all in " + timeoutSeconds + " s: is pub running, with the same config and topic?"
                : "no new message for " + timeoutSeconds + " s");
        }
        addIfAny(problems, duplicates, "duplicates");
        addIfAny(problems, outOfOrder, "out of order");
        addIfAny(problems, outOfRange, "numbered outside 0.." + (expected - 1));
        addIfAny(problems, tooShort, "shorter than " + NUMBER_LENGTH + " bytes");
        addIfAny(problems, otherSessions, "from another publisher session (one publisher at a time)");
        if (missing > 0 && lowestNumber != Long.MAX_VALUE && lowestNumber > 0) {
            problems.add("the first message received was number " + lowestNumber + (topic.lateJoin()
                == LateJoinPolicy.SESSION_START
                ? ", though sub wanted the session from its start (--from-start): what came before it was given"
                + " up, by the publisher and by every recorder the topic names (see the loss events)"
                : ": was sub started after pub? A subscriber starts at the live edge (--from-start: the whole"
                + " session, through the topic's recorders)"));
        }
        return problems;
    }

    /** Which flow control let the publisher move past messages this receiver still needed, and what to change. */
    private String flowControlVerdict() {
        final String lostHere = "lost under flow-control " + topic.flowControl().name().toLowerCase(Locale.ROOT)
            + " (" + unrecoverable + " messages the publisher no longer held): ";
        if (topic.flowControl() == FlowControlMode.MAX) {
            return lostHere + "the publisher does not wait for receivers and outran this one by more than its "
                + "history (" + topic.history() + "); use flow-control min (the default) to hold it to its receivers, "
                + "or pace it (send-rate)";
        }
        return lostHere + "the publisher waits only for live receivers and stopped waiting for this one (silent "
            + "past flow-control-timeout " + Durations.format(topic.flowControlTimeout()) + ": a paused or starved "
            + "process), or the publisher's config has flow-control max for topic '" + topic.name() + "'";
    }

    private static void addIfAny(List<String> problems, long count, String what) {
        if (count > 0) {
            problems.add(count + " " + what);
        }
    }

    /** The loss events in words. */
    List<String> lossDescriptions() {
        synchronized (lossDescriptions) {
            return List.copyOf(lossDescriptions);
        }
    }

    /** Every publisher stream that ended, in words, in the order they ended. */
    List<String> publisherGoneDescriptions() {
        synchronized (publishersGone) {
            return publishersGone.stream().map(StreamCheck::describe).toList();
        }
    }

    /** Every line that went down or came up again, in words, in order. */
    List<String> lineEventDescriptions() {
        synchronized (lineEvents) {
            return List.copyOf(lineEventDescriptions);
        }
    }

    /** A publisher stream that ended, in words: its session, why, and how long it had been silent. */
    private static String describe(PublisherGone gone) {
        final long silentMs = gone.silentNs() / 1_000_000;
        return switch (gone.cause()) {
            case ENDED -> "session " + gone.sessionId() + " ended by its publisher";
            case SILENT -> "session " + gone.sessionId() + " silent for " + silentMs + " ms (publisher-timeout)";
            case RESTARTED -> "session " + gone.sessionId() + " restarted as session " + gone.newSessionId()
                + " (silent for " + silentMs + " ms)";
        };
    }

    /** The figures, as the JSON result carries them. */
    void putFigures(JsonResult result) {
        final long count = received;
        result.put("expected", expected)
            .put("received", count)
            .put("missing", expected - count)
            .put("lost", lost)
            .put("gaps", gaps)
            .put("duplicates", duplicates)
            .put("outOfOrder", outOfOrder)
            .put("outOfRange", outOfRange)
            .put("tooShort", tooShort)
            .put("otherSessions", otherSessions)
            .put("streamDropped", dropped)
            .put("publishersGone", publishersGoneFigures())
            .put("resumes", resumes)
            .put("recoveries", recoveries)
            .put("recovered", recovered)
            .put("recoverySeconds", recovered == 0 ? 0 : JsonResult.seconds(lastRecoveredNs - firstNs))
            .put("lineEvents", lineEventFigures())
            .put("seconds", JsonResult.seconds(lastNs - firstNs))
            .put("msgsPerSecond", JsonResult.perSecond(count, lastNs - firstNs));
    }

    /** Each line event: line, state (down or up), forMs (how long behind before down, how long down before up). */
    private List<Map<String, Object>> lineEventFigures() {
        synchronized (lineEvents) {
            return lineEvents.stream().<Map<String, Object>>map(LinkedHashMap::new).toList();
        }
    }

    /** Each publisher stream that ended: session, cause, how long silent, the new session of a restart (else 0). */
    private List<Map<String, Object>> publishersGoneFigures() {
        final List<Map<String, Object>> figures = new ArrayList<>();
        synchronized (publishersGone) {
            for (PublisherGone gone : publishersGone) {
                final Map<String, Object> fields = new LinkedHashMap<>();
                fields.put("session", gone.sessionId());
                fields.put("cause", gone.cause().name());
                fields.put("silentMs", gone.silentNs() / 1_000_000);
                fields.put("newSession", gone.newSessionId());
                figures.add(fields);
            }
        }
        return figures;
    }
}
