package org.nakcast.transport;

import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.agrona.ErrorHandler;
import org.agrona.concurrent.NanoClock;
import org.nakcast.config.MediaType;
import org.nakcast.config.TopicConfig;
import org.nakcast.transport.media.DatagramSource;
import org.nakcast.transport.media.MediaChoice;
import org.nakcast.transport.receive.ReceiverLog;
import org.nakcast.transport.receive.SubscriptionSettings;
import org.nakcast.transport.status.SystemCounter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a node writes to its log about the streams it publishes and receives: every publisher
 * gone, every receiver dropped or outrun, loss events at most {@value #LOSS_LINES_PER_SECOND} a
 * second (the rest are counted), sessions refused for a full topic, codecs whose module is
 * missing, and a media asked for that the node cannot have. Logs under {@link Node}'s logger,
 * where operators look for a node's lines.
 */
final class NodeEventLog {
    private static final Logger LOG = LoggerFactory.getLogger(Node.class);
    private static final int LOSS_LINES_PER_SECOND = 10;

    private NodeEventLog() {
    }

    /** A node that asked for a media it cannot have: which it runs on instead, and why. */
    static void mediaFallback(String nodeName, MediaType asked, MediaChoice choice) {
        if (choice.fellBack()) {
            LOG.warn("node {}: media {} is not available here: {}; running on {} (node.media)", nodeName,
                asked.name().toLowerCase(Locale.ROOT), choice.fallbackReason(), choice.media().name());
        }
    }

    /**
     * The receiving side's events, to the log of node {@code nodeName}, then to the application's
     * node-wide listener ({@link NodeContext#receiverEvents}); what that listener throws goes to
     * {@code errors}, never into the stream that raised the event.
     */
    static ReceiverLog receiverEvents(String nodeName, NanoClock clock, StreamEventListener events,
        ErrorHandler errors) {
        final LogThrottle lossLines = new LogThrottle(LOSS_LINES_PER_SECOND);
        return new ReceiverLog() {
            /** Tells the application's listener; what it throws is an error of the node, never the stream's. */
            private void tell(Runnable call) {
                try {
                    call.run();
                } catch (RuntimeException ex) {
                    errors.onError(ex);
                }
            }

            @Override
            public void onStreamStarted(SubscriptionSettings topic, StreamStarted event) {
                tell(() -> events.onStreamStarted(event));
            }

            @Override
            public void onPublisherGone(SubscriptionSettings topic, PublisherGone event) {
                LOG.info("node {}: {}", nodeName, event.describe());
                tell(() -> events.onPublisherGone(event));
            }

            @Override
            public void onLoss(SubscriptionSettings topic, LossEvent event) {
                final long leftOut = lossLines.admit(clock.nanoTime());
                if (leftOut > 0) {
                    LOG.warn("node {}: {} ({} more loss events since the last logged, not logged: see the counters)",
                        nodeName, event.describe(), leftOut);
                } else if (leftOut == 0) {
                    LOG.warn("node {}: {}", nodeName, event.describe());
                }
                tell(() -> events.onLoss(event));
            }

            @Override
            public void onLineDown(SubscriptionSettings topic, LineDown event) {
                LOG.warn("node {}: {}", nodeName, event.describe());
                tell(() -> events.onLineDown(event));
            }

            @Override
            public void onLineUp(SubscriptionSettings topic, LineUp event) {
                LOG.info("node {}: {}", nodeName, event.describe());
                tell(() -> events.onLineUp(event));
            }

            @Override
            public void onRecoveryStarted(SubscriptionSettings topic, RecoveryStarted event) {
                LOG.info("node {}: {}", nodeName, event.describe());
                tell(() -> events.onRecoveryStarted(event));
            }

            @Override
            public void onStreamRefused(SubscriptionSettings topic, StreamRefused event) {
                tell(() -> events.onStreamRefused(event));
            }

            @Override
            public void onSessionsRefused(SubscriptionSettings topic, int streams, int sessionId) {
                LOG.warn("node {}: topic '{}' (id {}) keeps {} publisher streams, its max-publishers: datagrams of"
                        + " session {} and any other new session are dropped (counted as '{}') until a stream ends",
                    nodeName, topic.topicName(), topic.topicId(), streams, sessionId,
                    SystemCounter.PUBLISHER_STREAMS_REFUSED.label());
            }

            @Override
            public void onSourceShareReached(SubscriptionSettings topic, DatagramSource source, int streams,
                int sessionId) {
                LOG.warn("node {}: topic '{}' (id {}) keeps {} publisher streams from the host of {}, the most one"
                        + " host may hold on a line (half its max-publishers, over its lines): datagrams of its new"
                        + " session {} and any other are dropped (counted as '{}') until a stream ends; is that host"
                        + " making sessions up?",
                    nodeName, topic.topicName(), topic.topicId(), streams, source, sessionId,
                    SystemCounter.PUBLISHER_STREAMS_REFUSED.label());
            }
        };
    }

    /** The application's publisher events, each logged first to the log of node {@code nodeName}. */
    static PublisherEventListener publisherEvents(String nodeName, PublisherEventListener events) {
        return new PublisherEventListener() {
            @Override
            public void onReceiverDropped(ReceiverDropped event) {
                LOG.warn("node {}: {}", nodeName, event.describe());
                events.onReceiverDropped(event);
            }

            @Override
            public void onReceiverOutrun(ReceiverOutrun event) {
                LOG.warn("node {}: {}", nodeName, event.describe());
                events.onReceiverOutrun(event);
            }
        };
    }

    /**
     * Warns of every topic whose codec comes with a module not on the class path.
     *
     * @param missing the module each codec name not on the class path comes with
     */
    static void codecModulesMissing(String nodeName, List<TopicConfig> topics, Map<String, String> missing) {
        for (TopicConfig topic : topics) {
            if (missing.containsKey(topic.codec())) {
                LOG.warn("node {}: topic '{}' uses codec '{}', which comes with {}, not on the class path: publishing"
                    + " or subscribing to it fails until that dependency is added", nodeName, topic.name(),
                    topic.codec(), missing.get(topic.codec()));
            }
        }
    }
}
