package org.nakcast.rtt;

import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.nakcast.config.MediaType;
import org.nakcast.config.NodeConfig;
import org.nakcast.config.ThreadingMode;
import org.nakcast.transport.Delivery;
import org.nakcast.transport.MessageHandler;
import org.nakcast.transport.Node;
import org.nakcast.transport.OfferResult;
import org.nakcast.transport.BytePublication;
import org.nakcast.transport.StreamEventListener;
import org.nakcast.transport.Subscription;
import org.nakcast.transport.status.SystemCounter;

/**
 * The measured path: a nakcast node in threading mode {@code invoker}, so the side's own thread
 * runs the node's send and receive work in {@link #poll()}; a byte publication out and a byte
 * subscription in. The node runs on the media asked for or not at all: one that fell back to
 * {@code nio} would have {@code nio}'s round trips reported under the other media's name.
 */
final class NakcastLink implements RttLink {
    private final Node node;
    private final BytePublication publication;
    private final Subscription subscription;

    /**
     * Launches the node, opens the publication and subscribes.
     *
     * @param config the concluded config; its node section's threading is replaced by {@code invoker}
     * @param media the node's media, in place of the config's {@code node.media}
     * @param nodeName the node's name (logs, counters file)
     * @param sendTopic the topic this side publishes
     * @param receiveTopic the topic this side subscribes to
     * @param receiver gets the messages of {@code receiveTopic}
     * @throws IllegalArgumentException if the node cannot have {@code media} (it would run on
     *     {@code nio}): the message says why
     */
    NakcastLink(NodeConfig config, MediaType media, String nodeName, String sendTopic, String receiveTopic,
        Receiver receiver) {
        final NodeConfig invoked = new NodeConfig(config.node().withThreading(ThreadingMode.INVOKER)
            .withMedia(media).withName(nodeName).withCountersFile(null), config.transports(), config.topics())
            .conclude();
        final MessageHandler<DirectBuffer> handler = (message, header) -> receiver.onMessage(message, 0,
            message.capacity());
        Node launched = null;
        try {
            launched = Node.launch(invoked);
            final String fallback = launched.mediaFallback();
            if (fallback != null) {
                throw new IllegalArgumentException("node " + nodeName + " asked for media "
                    + NakcastPath.mediaName(media) + " and got nio instead: " + fallback);
            }
            this.publication = launched.newBytePublication(sendTopic);
            this.subscription = launched.newByteSubscription(receiveTopic, handler, StreamEventListener.NONE,
                Delivery.ON_RECEIVING_THREAD);
            this.node = launched;
        } catch (RuntimeException ex) {
            CloseHelper.quietClose(launched);
            throw ex;
        }
    }

    @Override
    public boolean send(DirectBuffer buffer, int length) {
        final long result = publication.offer(buffer, 0, length);
        if (OfferResult.isTaken(result)) {
            return true;
        }
        if (result == OfferResult.BACK_PRESSURED || result == OfferResult.NOT_CONNECTED) {
            return false;
        }
        throw new IllegalStateException("topic '" + publication.topicName() + "' refused a message of " + length
            + " bytes: " + (result == OfferResult.CLOSED ? "closed" : "too large (code " + result + ")"));
    }

    @Override
    public int poll() {
        return node.doWork();
    }

    /** The node's non-zero counters, e.g. {@code datagrams sent=161053, heartbeats sent=4271, NAKs sent=1}. */
    @Override
    public String wireCounts() {
        return node.counters().describeNonZero();
    }

    @Override
    public long naksSent() {
        return node.counters().get(SystemCounter.NAKS_SENT).get();
    }

    /** Closes the subscription; the publication and the node stay until {@link #close()}. */
    @Override
    public void stopReceiving() {
        subscription.close();
    }

    @Override
    public void close() {
        CloseHelper.closeAll(subscription, publication, node);
    }
}
