package org.nakcast.transport.receive;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Int2ObjectHashMap;
import org.nakcast.transport.LossEvent;
import org.nakcast.transport.MessageHandler;
import org.nakcast.transport.MessageHeader;
import org.nakcast.transport.PublisherGone;
import org.nakcast.transport.StreamEventListener;
import org.nakcast.transport.media.DatagramSink;

/**
 * Everything a node receives on one topic: the publisher streams heard so far, and the
 * subscriptions their messages and events fan out to. Lives on the receiving thread.
 */
final class TopicReceiver implements MessageHandler, StreamEventListener, DeliveryGate {
    private final SubscriptionSettings settings;
    private final DatagramSink nakSink;
    private final MutableDirectBuffer nakBuffer;
    private final ReceiverLog log;
    private final Int2ObjectHashMap<InboundStream> streamsBySession = new Int2ObjectHashMap<>();
    private final List<Subscriber> subscribers = new ArrayList<>();
    /** Whether a new session was refused since the topic last had room: it is logged once per spell. */
    private boolean refusing;

    /**
     * @param settings the topic's settings
     * @param nakSink where the topic's streams send NAKs and STATUS (the transport's control port)
     * @param nakBuffer where they build them; shared by every stream of the transport
     * @param log told of stream ends, losses and refused sessions
     */
    TopicReceiver(SubscriptionSettings settings, DatagramSink nakSink, MutableDirectBuffer nakBuffer, ReceiverLog log) {
        this.settings = settings;
        this.nakSink = nakSink;
        this.nakBuffer = nakBuffer;
        this.log = log;
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
        refusing = false;
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

    void add(MessageHandler handler, StreamEventListener listener, DeliveryGate gate) {
        subscribers.add(new Subscriber(handler, listener, gate));
    }

    /** Open when every subscription can take the datagram's messages. */
    @Override
    public boolean canTake(int datagramLength) {
        for (int i = 0, size = subscribers.size(); i < size; i++) {
            if (!subscribers.get(i).gate.canTake(datagramLength)) {
                return false;
            }
        }
        return true;
    }

    /** Removes one subscription; returns true if no subscription is left. */
    boolean remove(MessageHandler handler) {
        subscribers.removeIf(subscriber -> subscriber.handler == handler);
        return subscribers.isEmpty();
    }

    @Override
    public void onMessage(DirectBuffer buffer, int offset, int length, MessageHeader header) {
        for (int i = 0, size = subscribers.size(); i < size; i++) {
            subscribers.get(i).handler.onMessage(buffer, offset, length, header);
        }
    }

    @Override
    public void onStreamStarted(int topicId, int sessionId, long firstSequence) {
        for (int i = 0, size = subscribers.size(); i < size; i++) {
            subscribers.get(i).listener.onStreamStarted(topicId, sessionId, firstSequence);
        }
    }

    @Override
    public void onPublisherGone(PublisherGone event) {
        log.onPublisherGone(settings, event);
        for (int i = 0, size = subscribers.size(); i < size; i++) {
            subscribers.get(i).listener.onPublisherGone(event);
        }
    }

    @Override
    public void onLoss(LossEvent event) {
        log.onLoss(settings, event);
        for (int i = 0, size = subscribers.size(); i < size; i++) {
            subscribers.get(i).listener.onLoss(event);
        }
    }

    /** One subscription's callbacks. */
    private record Subscriber(MessageHandler handler, StreamEventListener listener, DeliveryGate gate) {
    }
}
