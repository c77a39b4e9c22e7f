package org.nakcast.transport.receive;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import org.agrona.DirectBuffer;
import org.agrona.collections.Int2ObjectHashMap;
import org.nakcast.transport.LossEvent;
import org.nakcast.transport.MessageHandler;
import org.nakcast.transport.MessageHeader;
import org.nakcast.transport.PublisherGone;
import org.nakcast.transport.StreamEventListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Everything a node receives on one topic: the publisher streams heard so far, and the
 * subscriptions their messages and events fan out to. Lives on the receiving thread.
 */
final class TopicReceiver implements MessageHandler, StreamEventListener, DeliveryGate {
    private static final Logger LOG = LoggerFactory.getLogger(TopicReceiver.class);

    private final SubscriptionSettings settings;
    private final ReceiverAgent.ReceivingTransport transport;
    private final Int2ObjectHashMap<InboundStream> streamsBySession = new Int2ObjectHashMap<>();
    private final List<Subscriber> subscribers = new ArrayList<>();

    TopicReceiver(SubscriptionSettings settings, ReceiverAgent.ReceivingTransport transport) {
        this.settings = settings;
        this.transport = transport;
    }

    /** The sockets of the topic's transport. */
    ReceiverAgent.ReceivingTransport transport() {
        return transport;
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
        LOG.info("{}", event.describe());
        for (int i = 0, size = subscribers.size(); i < size; i++) {
            subscribers.get(i).listener.onPublisherGone(event);
        }
    }

    @Override
    public void onLoss(LossEvent event) {
        LOG.warn("{}", event.describe());
        for (int i = 0, size = subscribers.size(); i < size; i++) {
            subscribers.get(i).listener.onLoss(event);
        }
    }

    /** One subscription's callbacks. */
    private record Subscriber(MessageHandler handler, StreamEventListener listener, DeliveryGate gate) {
    }
}
