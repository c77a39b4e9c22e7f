package org.nakcast.transport.receive;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;

import org.agrona.DirectBuffer;
import org.agrona.ErrorHandler;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.concurrent.status.AtomicCounter;
import org.nakcast.transport.LineDown;
import org.nakcast.transport.LineUp;
import org.nakcast.transport.LossEvent;
import org.nakcast.transport.RecoveryStarted;
import org.nakcast.transport.MessageHeader;
import org.nakcast.transport.PublisherGone;
import org.nakcast.transport.StreamEventListener;
import org.nakcast.transport.StreamRefused;
import org.nakcast.transport.StreamStarted;
import org.nakcast.transport.media.DatagramSource;
import org.nakcast.transport.status.SystemCounter;
import org.nakcast.transport.status.SystemCounters;

/**
 * The subscriptions of one topic, and how its streams' messages and events fan out to them and
 * wait for them ({@link DeliveryGate}); the streams themselves live in {@link TopicStreams}. Lives
 * on the receiving thread.
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

    private final SubscriptionSettings settings;
    private final ReceiverLog log;
    private final ErrorHandler errorHandler;
    private final AtomicCounter handlerErrors;
    private final AtomicCounter overrunMessages;
    /** Per stream, the sequence its present life started at ({@link #DELIVERED_BEFORE}: see there). */
    private final Long2LongHashMap lifeStarts = new Long2LongHashMap(NOT_STARTED);
    private final List<Subscriber> subscribers = new ArrayList<>();
    private int overrunSubscribers;

    /**
     * @param settings the topic's settings
     * @param log told of stream ends, losses and refused sessions
     * @param errorHandler told of every exception a subscription's callbacks throw
     * @param counters the node's counters
     */
    TopicReceiver(SubscriptionSettings settings, ReceiverLog log, ErrorHandler errorHandler, SystemCounters counters) {
        this.settings = settings;
        this.log = log;
        this.errorHandler = errorHandler;
        this.handlerErrors = counters.get(SystemCounter.HANDLER_ERRORS);
        this.overrunMessages = counters.get(SystemCounter.SUBSCRIPTION_OVERRUN_MESSAGES);
    }

    SubscriptionSettings settings() {
        return settings;
    }

    /**
     * Forgets an ended stream's life, and tells whether it delivered a message or gave one up, in
     * this life or, resumed, in an earlier one: whether forgetting the stream for good could have it
     * deliver something twice.
     */
    boolean forget(InboundStream stream) {
        final boolean delivered = stream.expectedSequence() > lifeStarts.get(stream.sessionId());
        lifeStarts.remove(stream.sessionId());
        return delivered;
    }

    /** The stream of {@code sessionId} resumes after an earlier life that delivered. */
    void deliveredBefore(int sessionId) {
        lifeStarts.put(sessionId, DELIVERED_BEFORE);
    }

    /** Logs that the topic, keeping {@code streams} streams, turned away the new session {@code sessionId}. */
    void onSessionsRefused(int streams, int sessionId) {
        log.onSessionsRefused(settings, streams, sessionId);
    }

    void onSourceShareReached(DatagramSource source, int streams, int sessionId) {
        log.onSourceShareReached(settings, source, streams, sessionId);
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
                onCallbackError(subscriber.target, ex);
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
        tellEach(event, DeliveryTarget::onStreamStarted);
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
                onCallbackError(subscriber.target, ex);
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
                onCallbackError(subscriber.target, ex);
            }
        }
    }

    @Override
    public void onLineDown(LineDown event) {
        log.onLineDown(settings, event);
        tellEach(event, DeliveryTarget::onLineDown);
    }

    @Override
    public void onStreamRefused(StreamRefused event) {
        log.onStreamRefused(settings, event);
        tellEach(event, DeliveryTarget::onStreamRefused);
    }

    @Override
    public void onRecoveryStarted(RecoveryStarted event) {
        log.onRecoveryStarted(settings, event);
        tellEach(event, DeliveryTarget::onRecoveryStarted);
    }

    @Override
    public void onLineUp(LineUp event) {
        log.onLineUp(settings, event);
        tellEach(event, DeliveryTarget::onLineUp);
    }

    /** Tells each subscription of {@code event}; what one throws is reported and the others are told. */
    private <E> void tellEach(E event, BiConsumer<DeliveryTarget, E> call) {
        for (int i = 0, size = subscribers.size(); i < size; i++) {
            final DeliveryTarget target = subscribers.get(i).target;
            try {
                call.accept(target, event);
            } catch (RuntimeException ex) {
                onCallbackError(target, ex);
            }
        }
    }

    private void onCallbackError(DeliveryTarget target, RuntimeException ex) {
        handlerErrors.increment();
        target.handlerThrew();
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
            onCallbackError(subscriber.target, ex);
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
