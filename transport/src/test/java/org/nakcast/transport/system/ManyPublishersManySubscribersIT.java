package org.nakcast.transport.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.nakcast.config.NodeConfig;
import org.nakcast.config.ThreadingMode;
import org.nakcast.transport.Delivery;
import org.nakcast.transport.LossEvent;
import org.nakcast.transport.Node;
import org.nakcast.transport.NodeContext;
import org.nakcast.transport.BytePublication;
import org.nakcast.transport.StreamEventListener;
import org.nakcast.transport.StreamStarted;
import org.nakcast.transport.node.NodeHarness;
import org.nakcast.transport.lossinjection.RandomLossGenerator;
import org.nakcast.transport.protocol.FrameType;
import org.nakcast.transport.status.SystemCounter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Three publisher nodes and three subscriber nodes in one JVM (shared threading: one thread per
 * node), two topics on one transport. Every publisher publishes numbered messages on both topics,
 * every subscriber subscribes to both and loses its own seeded 5% of DATA and RETRANSMIT
 * datagrams. Each subscriber must get every message of each of the six (publisher session, topic)
 * streams exactly once and in order, repaired through one another's NAKs and retransmits, with
 * no loss event.
 *
 * <p>Messages flow once every subscriber has heard every stream start at its first sequence:
 * a receiver starts a stream where it first hears it ("late join = now"), so one that lost a
 * stream's first datagrams before hearing anything of it, say to a socket overflowing while its
 * thread waits for a core, would rightly start later.
 */
class ManyPublishersManySubscribersIT {
    private static final Logger LOG = LoggerFactory.getLogger(ManyPublishersManySubscribersIT.class);
    private static final List<String> TOPICS = List.of("prices", "orders");
    private static final int PUBLISHERS = 3;
    private static final int SUBSCRIBERS = 3;
    private static final int MESSAGES = 50_000;
    private static final int MESSAGE_LENGTH = 70;
    private static final double LOSS_RATE = 0.05;

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void everySubscriberGetsEveryStreamWholeThroughItsOwnLoss() throws Exception {
        final NodeConfig paced = TestConfigs.paced("8m");
        final NodeConfig config = new NodeConfig(
            paced.node().withThreading(ThreadingMode.SHARED), paced.transports(), paced.topics()).conclude();
        final List<Node> nodes = new ArrayList<>();
        try {
            final List<Node> subscribers = new ArrayList<>();
            final List<List<Received>> received = new ArrayList<>();
            for (int s = 0; s < SUBSCRIBERS; s++) {
                final Node subscriber = Node.launch(new NodeContext().config(config),
                    new NodeHarness().seed(7_000 + s)
                    .receiveLoss(new RandomLossGenerator(70 + s, LOSS_RATE,
                        EnumSet.of(FrameType.DATA, FrameType.RETRANSMIT))));
                nodes.add(subscriber);
                subscribers.add(subscriber);
                final List<Received> byTopic = new ArrayList<>();
                for (String topic : TOPICS) {
                    final Received topicReceived = new Received();
                    subscriber.newByteSubscription(topic, topicReceived.checkers, topicReceived,
                        Delivery.ON_RECEIVING_THREAD);
                    byTopic.add(topicReceived);
                }
                received.add(byTopic);
            }
            final List<Node> publishers = new ArrayList<>();
            final List<List<Integer>> sessions = new ArrayList<>();
            TOPICS.forEach(topic -> sessions.add(new ArrayList<>()));
            final List<BytePublication> publications = new ArrayList<>();
            for (int p = 0; p < PUBLISHERS; p++) {
                final Node publisher = Node.launch(config);
                nodes.add(publisher);
                publishers.add(publisher);
                for (int t = 0; t < TOPICS.size(); t++) {
                    final BytePublication publication = publisher.newBytePublication(TOPICS.get(t));
                    sessions.get(t).add(publication.sessionId());
                    publications.add(publication);
                }
            }
            for (List<Received> byTopic : received) {
                for (int t = 0; t < TOPICS.size(); t++) {
                    byTopic.get(t).awaitStartedAtZero(sessions.get(t));
                }
            }

            final List<CompletableFuture<Void>> publishing = new ArrayList<>();
            for (BytePublication publication : publications) {
                publishing.add(CompletableFuture.runAsync(
                    () -> NumberedMessages.publish(publication, MESSAGES, MESSAGE_LENGTH),
                    runnable -> new Thread(runnable, "publisher-" + publication.sessionId()).start()));
            }
            CompletableFuture.allOf(publishing.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
            final long deadlineMs = System.currentTimeMillis() + 60_000;
            for (List<Received> byTopic : received) {
                for (int t = 0; t < TOPICS.size(); t++) {
                    byTopic.get(t).checkers.awaitCount(sessions.get(t), MESSAGES, deadlineMs);
                }
            }

            final StringBuilder counters = new StringBuilder();
            publishers.forEach(node -> counters.append("\npublisher: ").append(node.counters().describeNonZero()));
            subscribers.forEach(node -> counters.append("\nsubscriber: ").append(node.counters().describeNonZero()));
            LOG.info("many publishers, many subscribers:{}", counters);
            for (int s = 0; s < SUBSCRIBERS; s++) {
                for (int t = 0; t < TOPICS.size(); t++) {
                    final Received topicReceived = received.get(s).get(t);
                    final String stream = "subscriber " + s + ", topic " + TOPICS.get(t);
                    assertThat(topicReceived.checkers.sessions()).as(stream + counters)
                        .containsExactlyInAnyOrderElementsOf(sessions.get(t));
                    for (int session : sessions.get(t)) {
                        final SequenceChecker checker = topicReceived.checkers.session(session);
                        final String of = stream + ", session " + session + counters;
                        assertThat(checker.errors()).as(of).isEmpty();
                        assertThat(checker.skippedRanges()).as(of).isEmpty();
                        assertThat(checker.count()).as(of).isEqualTo(MESSAGES);
                    }
                    assertThat(topicReceived.losses).as(stream + counters).isEmpty();
                }
            }
            for (Node subscriber : subscribers) {
                assertThat(subscriber.counters().get(SystemCounter.LOSS_INJECTED).get()).as(counters.toString())
                    .isPositive();
                assertThat(subscriber.counters().get(SystemCounter.NAKS_SENT).get()).as(counters.toString())
                    .isPositive();
            }
            for (Node publisher : publishers) {
                assertThat(publisher.counters().get(SystemCounter.RETRANSMITS_SENT).get()).as(counters.toString())
                    .isPositive();
            }
        } finally {
            nodes.forEach(Node::close);
        }
    }

    /** What one subscriber got on one topic: messages per session, stream starts, loss events. */
    private static final class Received implements StreamEventListener {
        final SessionSequenceCheckers checkers = new SessionSequenceCheckers();
        final Map<Integer, Long> firstSequences = new ConcurrentHashMap<>();
        final List<LossEvent> losses = new CopyOnWriteArrayList<>();

        @Override
        public void onStreamStarted(StreamStarted event) {
            firstSequences.put(event.sessionId(), event.firstSequence());
        }

        @Override
        public void onLoss(LossEvent event) {
            losses.add(event);
        }

        void awaitStartedAtZero(List<Integer> sessions) throws InterruptedException {
            final long deadlineMs = System.currentTimeMillis() + 10_000;
            while (!firstSequences.keySet().containsAll(sessions) && System.currentTimeMillis() < deadlineMs) {
                Thread.sleep(1);
            }
            for (int session : sessions) {
                assertThat(firstSequences.get(session)).as("first sequence of session %d", session).isZero();
            }
        }
    }
}
