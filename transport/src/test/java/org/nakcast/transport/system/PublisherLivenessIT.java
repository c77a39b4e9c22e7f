package org.nakcast.transport.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.agrona.DirectBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.nakcast.config.NodeConfig;
import org.nakcast.config.TopicConfig;
import org.nakcast.transport.Delivery;
import org.nakcast.transport.MessageHandler;
import org.nakcast.transport.MessageHeader;
import org.nakcast.transport.Node;
import org.nakcast.transport.NodeContext;
import org.nakcast.transport.PublisherGone;
import org.nakcast.transport.BytePublication;
import org.nakcast.transport.StreamEventListener;
import org.nakcast.transport.StreamStarted;
import org.nakcast.transport.node.NodeHarness;
import org.nakcast.transport.lossinjection.LossGenerator;

/**
 * Receivers learn publishers from their traffic and heartbeats: a publisher that falls silent
 * without ending its streams (it crashed, or its traffic no longer arrives: here a loss generator
 * drops everything it sends from a point on) is declared gone after the topic's publisher timeout;
 * one that comes back under the same name is a restart, its old stream closed and its new one
 * delivered from its first message.
 */
class PublisherLivenessIT {
    private static final Duration HEARTBEAT = Duration.ofMillis(20);

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void aPublisherThatFallsSilentIsDeclaredGoneAfterTheTimeout() throws InterruptedException {
        final Recorder recorder = new Recorder();
        final Silencer silencer = new Silencer();
        try (Node subscriberNode = Node.launch(config("subscriber", Duration.ofMillis(200)))) {
            subscriberNode.newByteSubscription("prices", recorder, recorder, Delivery.ON_RECEIVING_THREAD);
            final int sessionId;
            try (Node publisherNode = Node.launch(new NodeContext().config(config("pricer", Duration.ofMillis(200))),
                new NodeHarness().sendLoss(silencer))) {
                final BytePublication publication = publisherNode.newBytePublication("prices");
                sessionId = publication.sessionId();
                NumberedMessages.publish(publication, 1_000, 70);
                recorder.checker.awaitCount(1_000, System.currentTimeMillis() + 10_000);
                Thread.sleep(300);
                assertThat(recorder.gone).as("a publisher that heartbeats is alive, busy or idle").isEmpty();
                silencer.silent = true;
            }
            awaitGone(recorder, 1);

            assertThat(recorder.gone).singleElement().satisfies(event -> {
                assertThat(event.sessionId()).isEqualTo(sessionId);
                assertThat(event.cause()).isEqualTo(PublisherGone.Cause.SILENT);
                assertThat(event.silentNs()).isGreaterThan(Duration.ofMillis(200).toNanos());
            });
            assertThat(recorder.checker.count()).isEqualTo(1_000);
        }
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void aPublisherBackUnderTheSameNameIsARestart() throws InterruptedException {
        final Recorder recorder = new Recorder();
        final NodeConfig publisherConfig = config("pricer", Duration.ofSeconds(20));
        final Silencer crash = new Silencer();
        try (Node subscriberNode = Node.launch(config("subscriber", Duration.ofSeconds(20)))) {
            subscriberNode.newByteSubscription("prices", recorder, recorder, Delivery.ON_RECEIVING_THREAD);
            final int firstSession;
            try (Node first = Node.launch(new NodeContext().config(publisherConfig),
                new NodeHarness().sendLoss(crash))) {
                final BytePublication publication = first.newBytePublication("prices");
                firstSession = publication.sessionId();
                NumberedMessages.publish(publication, 500, 70);
                recorder.checker.awaitCount(500, System.currentTimeMillis() + 10_000);
                crash.silent = true;
            }
            // a process takes a while to come back: the receiver has read the last it heard of the
            // old session before the new one begins, even on a loaded host
            Thread.sleep(HEARTBEAT.multipliedBy(5).toMillis());
            final SequenceChecker afterRestart = new SequenceChecker();
            recorder.delegate = afterRestart;
            final int secondSession;
            try (Node second = Node.launch(publisherConfig)) {
                final BytePublication publication = second.newBytePublication("prices");
                secondSession = publication.sessionId();
                NumberedMessages.publish(publication, 500, 70);
                afterRestart.awaitCount(500, System.currentTimeMillis() + 10_000);
                awaitGone(recorder, 1);
            }

            awaitGone(recorder, 2);
            assertThat(recorder.gone).as("the crashed session restarted, then the new one closed").hasSize(2);
            assertThat(recorder.gone.get(0)).satisfies(event -> {
                assertThat(event.sessionId()).isEqualTo(firstSession);
                assertThat(event.cause()).isEqualTo(PublisherGone.Cause.RESTARTED);
                assertThat(event.newSessionId()).isEqualTo(secondSession);
            });
            assertThat(recorder.gone.get(1)).satisfies(event -> {
                assertThat(event.sessionId()).isEqualTo(secondSession);
                assertThat(event.cause()).isEqualTo(PublisherGone.Cause.ENDED);
            });
            assertThat(afterRestart.errors()).isEmpty();
            assertThat(afterRestart.count()).as("the new session delivered from its first message").isEqualTo(500);
        }
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void twoPublicationsOfOneTopicInOneNodeAreTwoPublishersNotARestart() throws InterruptedException {
        final Recorder recorder = new Recorder();
        try (Node subscriberNode = Node.launch(config("subscriber", Duration.ofSeconds(20)));
            Node publisherNode = Node.launch(config("pricer", Duration.ofSeconds(20)))) {
            subscriberNode.newByteSubscription("prices", (message, header) -> { }, recorder,
                Delivery.ON_RECEIVING_THREAD);
            publisherNode.newBytePublication("prices");
            publisherNode.newBytePublication("prices");

            Thread.sleep(HEARTBEAT.multipliedBy(10).toMillis());

            assertThat(recorder.gone).isEmpty();
            assertThat(recorder.started).hasSize(2);
        }
    }

    private static void awaitGone(Recorder recorder, int count) throws InterruptedException {
        final long deadlineMs = System.currentTimeMillis() + 10_000;
        while (recorder.gone.size() < count && System.currentTimeMillis() < deadlineMs) {
            Thread.sleep(5);
        }
    }

    private static NodeConfig config(String nodeName, Duration publisherTimeout) {
        final NodeConfig base = NodeConfig.embeddedDefault();
        final List<TopicConfig> topics = base.topics().stream()
            .map(topic -> topic.withHeartbeat(HEARTBEAT).withPublisherTimeout(publisherTimeout))
            .toList();
        return new NodeConfig(base.node().withName(nodeName), base.transports(), topics).conclude();
    }

    /** Drops everything a node sends once set: the node looks crashed, its end never heard. */
    private static final class Silencer implements LossGenerator {
        private volatile boolean silent;

        @Override
        public boolean shouldDrop(DirectBuffer buffer, int offset, int length) {
            return silent;
        }
    }

    /** Checks messages of the current publisher and records stream events. */
    private static final class Recorder implements MessageHandler<DirectBuffer>, StreamEventListener {
        private final SequenceChecker checker = new SequenceChecker();
        private final List<PublisherGone> gone = new CopyOnWriteArrayList<>();
        private final List<Integer> started = new CopyOnWriteArrayList<>();
        private volatile SequenceChecker delegate = checker;

        @Override
        public void onMessage(DirectBuffer message, MessageHeader header) {
            delegate.onMessage(message, header);
        }

        @Override
        public void onStreamStarted(StreamStarted event) {
            started.add(event.sessionId());
        }

        @Override
        public void onPublisherGone(PublisherGone event) {
            gone.add(event);
        }
    }
}
