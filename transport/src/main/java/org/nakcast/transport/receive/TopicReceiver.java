package org.nakcast.transport.receive;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import org.agrona.DirectBuffer;
import org.agrona.ErrorHandler;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.concurrent.status.AtomicCounter;
import org.nakcast.transport.LineDown;
import org.nakcast.transport.LineUp;
import org.nakcast.transport.LossEvent;
import org.nakcast.transport.MessageHeader;
import org.nakcast.transport.PublisherGone;
import org.nakcast.transport.StreamEventListener;
import org.nakcast.transport.StreamStarted;
import org.nakcast.transport.media.DatagramSink;
import org.nakcast.transport.media.Line;
import org.nakcast.transport.media.MulticastAddress;
import org.nakcast.transport.status.SystemCounter;
import org.nakcast.transport.status.SystemCounters;

/**
 * Everything a node receives on one topic: the publisher streams heard so far, and the
 * subscriptions their messages and events fan out to. Lives on the receiving thread.
 *
 * <p>Subscriptions do not harm each other. A handler or listener that throws has the error
 * reported and counted; the message counts as delivered to it, and every other subscription, and
 * the rest of the datagram, go on. A stream waits for a queued subscription with no room while its
 * poller takes messages: a slow poller slows its topic (datagrams arriving meanwhile are held, or
 * dropped and asked for again; under flow control {@code min} its publishers slow down too). A poller
 * that takes nothing for the topic's {@code delivery-queue-timeout} has its subscription overrun: it
 * misses what arrives until its queue is half empty again, then first gets one
 * {@link LossEvent.Cause#SUBSCRIPTION_OVERRUN} loss event per stream naming exactly the messages it
 * missed, while the other subscriptions go on after waiting no longer than the timeout.
 */
final class TopicReceiver implements MessageBytesHandler, StreamEventListener, DeliveryGate {
    private static final long NOT_BLOCKED = Long.MIN_VALUE;
    /** The life start of a stream not started yet: nothing it delivers can lie beyond it. */
    private static final long NOT_STARTED = Long.MAX_VALUE;
    /** The life start of a stream resumed after an earlier life delivered: it has delivered, whatever it does now. */
    private static final long DELIVERED_BEFORE = Long.MIN_VALUE;
    private static final int MIN_ENDED_REMEMBERED = 64;

    private final SubscriptionSettings settings;
    /** The addresses of the topic's lines; an equal address heard is adopted, so the next lookup is by identity. */
    private final MulticastAddress[] lines;
    private final DatagramSink nakSink;
    private final MutableDirectBuffer nakBuffer;
    private final ReceiverLog log;
    private final ErrorHandler errorHandler;
    private final AtomicCounter handlerErrors;
    private final AtomicCounter overrunMessages;
    private final Int2ObjectHashMap<InboundStream> streamsBySession = new Int2ObjectHashMap<>();
    /** Per stream, the sequence its present life started at ({@link #DELIVERED_BEFORE}: see there). */
    private final Long2LongHashMap lifeStarts = new Long2LongHashMap(NOT_STARTED);
    private final EndedSessions ended;
    private final long subscribedAtNs;
    private final List<Subscriber> subscribers = new ArrayList<>();
    private int overrunSubscribers;
    /** Whether a new session was refused since the topic last had room: it is logged once per spell. */
    private boolean refusing;

    /**
     * @param settings the topic's settings
     * @param nakSink where the topic's streams send NAKs and STATUS (the transport's control port)
     * @param nakBuffer where they build them; shared by every stream of the transport
     * @param log told of stream ends, losses and refused sessions
     * @param errorHandler told of every exception a subscription's callbacks throw
     * @param counters the node's counters
     * @param nowNs when the topic's first subscription was made: a session begun later is owed from
     *     its first message
     */
    TopicReceiver(SubscriptionSettings settings, DatagramSink nakSink, MutableDirectBuffer nakBuffer, ReceiverLog log,
        ErrorHandler errorHandler, SystemCounters counters, long nowNs) {
        this.settings = settings;
        this.lines = settings.lines().stream().map(Line::address).toArray(MulticastAddress[]::new);
        this.subscribedAtNs = nowNs;
        this.ended = new EndedSessions(Math.max(MIN_ENDED_REMEMBERED, 4 * settings.maxPublishers()));
        this.nakSink = nakSink;
        this.nakBuffer = nakBuffer;
        this.log = log;
        this.errorHandler = errorHandler;
        this.handlerErrors = counters.get(SystemCounter.HANDLER_ERRORS);
        this.overrunMessages = counters.get(SystemCounter.SUBSCRIPTION_OVERRUN_MESSAGES);
    }

    /** When the topic's first subscription was made. */
    long subscribedAtNs() {
        return subscribedAtNs;
    }

    /** The streams this topic ended. */
    EndedSessions ended() {
        return ended;
    }

    /** Where the topic's streams send NAKs and STATUS. */
    DatagramSink nakSink() {
        return nakSink;
    }

    /** Where the topic's streams build NAKs. */
    MutableDirectBuffer nakBuffer() {
        return nakBuffer;
    }

    SubscriptionSettings settings() {
        return settings;
    }

    /** The names of the topic's lines, in order. */
    String[] lineNames() {
        return settings.lines().stream().map(Line::name).toArray(String[]::new);
    }

    /** Which of the topic's lines {@code address} is (0 for the first), or -1 for none of them. */
    int lineOf(MulticastAddress address) {
        for (int i = 0; i < lines.length; i++) {
            if (lines[i] == address) {
                return i;
            }
        }
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].equals(address)) {
                lines[i] = address;
                return i;
            }
        }
        return -1;
    }

    /** The stream of {@code sessionId}, or null if none was heard yet. */
    InboundStream stream(int sessionId) {
        return streamsBySession.get(sessionId);
    }

    /** Every stream heard on this topic. */
    Collection<InboundStream> streams() {
        return streamsBySession.values();
    }

    void addStream(int sessionId, InboundStream stream) {
        streamsBySession.put(sessionId, stream);
    }

    void removeStream(int sessionId) {
        streamsBySession.remove(sessionId);
        lifeStarts.remove(sessionId);
        refusing = false;
    }

    /**
     * Whether {@code stream} has delivered a message or given one up, in this life or, resumed, in an
     * earlier one: whether forgetting it once it ends could have it deliver something twice.
     */
    boolean hasDelivered(InboundStream stream) {
        return stream.expectedSequence() > lifeStarts.get(stream.sessionId());
    }

    /** The stream of {@code sessionId} resumes after an earlier life that delivered. */
    void deliveredBefore(int sessionId) {
        lifeStarts.put(sessionId, DELIVERED_BEFORE);
    }

    /** Whether the topic keeps as many streams as it may: a new session must wait for one to end. */
    boolean isFull() {
        return streamsBySession.size() >= settings.maxPublishers();
    }

    /** Logs, once until a stream ends, that a new session was turned away. */
    void onSessionRefused(int sessionId) {
        if (!refusing) {
            refusing = true;
            log.onSessionsRefused(settings, streamsBySession.size(), sessionId);
        }
    }

    void add(DeliveryTarget target) {
        subscribers.add(new Subscriber(target));
    }

    /** Removes one subscription; returns true if no subscription is left. */
    boolean remove(DeliveryTarget target) {
        subscribers.removeIf(subscriber -> subscriber.target == target);
        return subscribers.isEmpty();
    }

    /**
     * Open when every subscription can take the datagram's messages, or has had no room for longer
     * than the topic's delivery-queue timeout (it is then overrun, and waited for no more).
     */
    @Override
    public boolean canTake(int datagramLength, int assembledLength, long nowNs) {
        boolean open = true;
        for (int i = 0, size = subscribers.size(); i < size; i++) {
            final Subscriber subscriber = subscribers.get(i);
            if (subscriber.overrun) {
                if (subscriber.target.hasCaughtUp()) {
                    endOverrun(subscriber);
                }
            } else if (subscriber.target.hasRoomFor(datagramLength, assembledLength)) {
                subscriber.blockedSinceNs = NOT_BLOCKED;
            } else {
                final long consumed = subscriber.target.consumed();
                if (subscriber.blockedSinceNs == NOT_BLOCKED || consumed != subscriber.consumedWhenBlocked) {
                    subscriber.blockedSinceNs = nowNs;
                    subscriber.consumedWhenBlocked = consumed;
                }
                if (nowNs - subscriber.blockedSinceNs >= settings.deliveryQueueTimeoutNs()) {
                    beginOverrun(subscriber);
                } else {
                    open = false;
                }
            }
        }
        return open;
    }

    @Override
    public void onMessage(DirectBuffer buffer, int offset, int length, MessageHeader header) {
        for (int i = 0, size = subscribers.size(); i < size; i++) {
            final Subscriber subscriber = subscribers.get(i);
            if (subscriber.overrun) {
                miss(subscriber, header);
                continue;
            }
            try {
                if (!subscriber.target.offer(buffer, offset, length, header)) {
                    beginOverrun(subscriber);
                    miss(subscriber, header);
                }
            } catch (RuntimeException ex) {
                onCallbackError(ex);
            }
        }
    }

    @Override
    public void onStreamStarted(StreamStarted event) {
        final int sessionId = event.sessionId();
        if (lifeStarts.get(sessionId) != DELIVERED_BEFORE) {
            lifeStarts.put(sessionId, event.firstSequence());
        }
        log.onStreamStarted(settings, event);
        for (int i = 0, size = subscribers.size(); i < size; i++) {
            final Subscriber subscriber = subscribers.get(i);
            try {
                subscriber.target.onStreamStarted(event);
            } catch (RuntimeException ex) {
                onCallbackError(ex);
            }
        }
    }

    @Override
    public void onPublisherGone(PublisherGone event) {
        log.onPublisherGone(settings, event);
        for (int i = 0, size = subscribers.size(); i < size; i++) {
            final Subscriber subscriber = subscribers.get(i);
            reportMissed(subscriber, event.sessionId());
            try {
                subscriber.target.onPublisherGone(event);
            } catch (RuntimeException ex) {
                onCallbackError(ex);
            }
        }
    }

    @Override
    public void onLoss(LossEvent event) {
        log.onLoss(settings, event);
        for (int i = 0, size = subscribers.size(); i < size; i++) {
            final Subscriber subscriber = subscribers.get(i);
            reportMissed(subscriber, event.sessionId());
            try {
                subscriber.target.onLoss(event);
            } catch (RuntimeException ex) {
                onCallbackError(ex);
            }
        }
    }

    @Override
    public void onLineDown(LineDown event) {
        log.onLineDown(settings, event);
        for (int i = 0, size = subscribers.size(); i < size; i++) {
            try {
                subscribers.get(i).target.onLineDown(event);
            } catch (RuntimeException ex) {
                onCallbackError(ex);
            }
        }
    }

    @Override
    public void onLineUp(LineUp event) {
        log.onLineUp(settings, event);
        for (int i = 0, size = subscribers.size(); i < size; i++) {
            try {
                subscribers.get(i).target.onLineUp(event);
            } catch (RuntimeException ex) {
                onCallbackError(ex);
            }
        }
    }

    private void onCallbackError(RuntimeException ex) {
        handlerErrors.increment();
        errorHandler.onError(ex);
    }

    /** An overrun subscription misses one message: noted for its loss event. */
    private void miss(Subscriber subscriber, MessageHeader header) {
        overrunMessages.increment();
        Missed missed = subscriber.missed.get(header.sessionId());
        if (missed == null) {
            missed = new Missed(header.messageIndex(), header.sequence());
            subscriber.missed.put(header.sessionId(), missed);
        }
        missed.count++;
        missed.toSequence = header.sequence();
    }

    /**
     * Ends the overruns of subscriptions that have room again while no datagram arrives: each is told
     * what it missed without waiting for the next datagram.
     */
    void poll() {
        if (overrunSubscribers == 0) {
            return;
        }
        for (int i = 0, size = subscribers.size(); i < size; i++) {
            final Subscriber subscriber = subscribers.get(i);
            if (subscriber.overrun && subscriber.target.hasCaughtUp()) {
                endOverrun(subscriber);
            }
        }
    }

    private void beginOverrun(Subscriber subscriber) {
        subscriber.overrun = true;
        overrunSubscribers++;
    }

    /** An overrun subscription has room again: it is told what it missed, stream by stream, then goes on. */
    private void endOverrun(Subscriber subscriber) {
        subscriber.overrun = false;
        subscriber.blockedSinceNs = NOT_BLOCKED;
        overrunSubscribers--;
        while (!subscriber.missed.isEmpty()) {
            reportMissed(subscriber, subscriber.missed.keySet().iterator().next());
        }
    }

    /** Tells the subscription what it missed of one stream, if anything, before that stream's next event. */
    private void reportMissed(Subscriber subscriber, int sessionId) {
        final Missed missed = subscriber.missed.remove(sessionId);
        if (missed == null) {
            return;
        }
        final LossEvent event = new LossEvent(settings.topicId(), sessionId, missed.fromSequence, missed.toSequence,
            missed.firstMessage, missed.count, LossEvent.Cause.SUBSCRIPTION_OVERRUN, false);
        log.onLoss(settings, event);
        try {
            subscriber.target.onLoss(event);
        } catch (RuntimeException ex) {
            onCallbackError(ex);
        }
    }

    /** One subscription, as the topic serves it. */
    private static final class Subscriber {
        private final DeliveryTarget target;
        private final Int2ObjectHashMap<Missed> missed = new Int2ObjectHashMap<>();
        private long blockedSinceNs = NOT_BLOCKED;
        private long consumedWhenBlocked;
        private boolean overrun;

        Subscriber(DeliveryTarget target) {
            this.target = target;
        }
    }

    /** The run of one stream's messages an overrun subscription missed. */
    private static final class Missed {
        private final long firstMessage;
        private final long fromSequence;
        private long toSequence;
        private long count;

        Missed(long firstMessage, long fromSequence) {
            this.firstMessage = firstMessage;
            this.fromSequence = fromSequence;
        }
    }
}
