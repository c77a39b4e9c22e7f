package org.nakcast.recorder;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.SystemEpochNanoClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.nakcast.config.ByteSize;
import org.nakcast.config.Endpoint;
import org.nakcast.config.FlowControlMode;
import org.nakcast.config.LateJoinPolicy;
import org.nakcast.config.NodeConfig;
import org.nakcast.config.TopicConfig;
import org.nakcast.config.TransportConfig;
import org.nakcast.recorder.store.SegmentGeometry;
import org.nakcast.transport.LossEvent;
import org.nakcast.transport.MessageHeader;
import org.nakcast.transport.Node;
import org.nakcast.transport.BytePublication;
import org.nakcast.transport.RecoveryStarted;
import org.nakcast.transport.StreamEventListener;
import org.nakcast.transport.StreamPosition;
import org.nakcast.transport.Subscription;
import org.nakcast.transport.status.SystemCounter;

/**
 * A subscriber that joins a session long after its publisher's history wrapped, wanting the whole
 * session ({@code late-join: session-start}), in this test JVM's private network namespace: with a
 * recorder named by its topic it gets every message once and in order, the old ones over TCP from
 * the recorder and then the live ones, with no loss; with none reachable, one exact loss event that
 * names the recorder and what went wrong, then the live messages; and a service restarted with the
 * position it stored goes on from the message after the last it handled.
 */
class RecoveryIT {
    private static final int RECORDED = 20_000;
    private static final int LIVE = 2_000;

    @TempDir
    Path dir;

    private static final TestTraffic TRAFFIC = new TestTraffic(60);

    /** The topic, its history 64 KiB (about 800 of these messages), naming {@code recorders}. */
    private static NodeConfig config(LateJoinPolicy lateJoin, List<Endpoint> recorders) {
        final TransportConfig lo = new TransportConfig("local", "lo", "239.255.77.25", 40530);
        final TopicConfig ticks = new TopicConfig("ticks", 1, "local", "jdk").withFlowControl(FlowControlMode.MAX)
            .withHistory(ByteSize.parse("64k")).withLateJoin(lateJoin).withRecorders(recorders);
        return new NodeConfig(null, List.of(lo), List.of(ticks)).conclude();
    }

    private RecorderSettings settings() {
        return settings(1_000_000);
    }

    private RecorderSettings settings(long requestLimit) {
        return RecorderSettings.in(dir).withGeometry(new SegmentGeometry(1 << 20, 1 << 14))
            .withProgressInterval(Duration.ofMillis(5).toNanos())
            .withReplay(new RecorderSettings.Replay(new InetSocketAddress("127.0.0.1", 0), 4, requestLimit));
    }

    /** With a request limit of 3,000 the subscriber's first request (up to a million) is refused as too long. */
    @ParameterizedTest(name = "replay request limit {0}")
    @ValueSource(longs = {1_000_000, 3_000})
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void aLateJoinerFromTheSessionStartGetsEveryMessageOnceInOrderThroughTheRecorderThenLive(long requestLimit)
        throws IOException {
        try (Node publisherNode = Node.launch(config(LateJoinPolicy.NOW, List.of()));
             Node recorderNode = Node.launch(config(LateJoinPolicy.OLDEST, List.of()));
             Recorder recorder = Recorder.start(recorderNode, settings(requestLimit), List.of("ticks"),
                 new SystemEpochNanoClock())) {
            final BytePublication publication = publisherNode.newBytePublication("ticks");
            TRAFFIC.publish(publication, 0, RECORDED, recorder::doWork);
            TestTraffic.until(() -> recorded(recorder) >= RECORDED, recorder::doWork, () -> "recording");

            final Endpoint endpoint = new Endpoint(recorder.replayEndpoint().getAddress(),
                recorder.replayEndpoint().getPort());
            final Received received = new Received();
            try (Node subscriberNode = Node.launch(config(LateJoinPolicy.SESSION_START, List.of(endpoint)));
                 Subscription subscription = subscriberNode.newByteSubscription("ticks", received, received)) {
                final Runnable work = () -> {
                    recorder.doWork();
                    subscription.poll(256);
                };
                TestTraffic.until(() -> received.started, work, () -> "the subscriber's start");
                TRAFFIC.publish(publication, RECORDED, RECORDED + LIVE, work);
                TestTraffic.until(() -> received.indexes.size() >= RECORDED + LIVE || !received.problems.isEmpty(),
                    work, () -> received);

                assertThat(received.problems).isEmpty();
                assertThat(received.losses).isEmpty();
                assertThat(received.indexes).hasSize(RECORDED + LIVE);
                assertThat(received.recoveries).isNotEmpty().allSatisfy(event -> assertThat(event.sessionId())
                    .isEqualTo(received.sessionId));
                assertThat(received.recoveries.get(0).firstMessage()).isZero();
                assertThat(subscriberNode.counters().get(SystemCounter.RECOVERED_MESSAGES).get())
                    .as("the messages the publisher no longer held").isGreaterThanOrEqualTo(RECORDED - 1_000);
                assertThat(subscriberNode.counters().get(SystemCounter.LOST_MESSAGES).get()).isZero();
                assertThat(recorderNode.counters().get(SystemCounter.REPLAYED_MESSAGES).get())
                    .isGreaterThanOrEqualTo(RECORDED - 1_000);
            }
        }
    }

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void aServiceRestartedWithThePositionItStoredGoesOnFromThereThroughTheRecorder() throws IOException {
        try (Node publisherNode = Node.launch(config(LateJoinPolicy.NOW, List.of()));
             Node recorderNode = Node.launch(config(LateJoinPolicy.OLDEST, List.of()));
             Recorder recorder = Recorder.start(recorderNode, settings(), List.of("ticks"),
                 new SystemEpochNanoClock())) {
            final Endpoint endpoint = new Endpoint(recorder.replayEndpoint().getAddress(),
                recorder.replayEndpoint().getPort());
            final BytePublication publication = publisherNode.newBytePublication("ticks");
            final Received before = new Received();
            final StreamPosition stored;
            try (Node first = Node.launch(config(LateJoinPolicy.NOW, List.of(endpoint)));
                 Subscription subscription = first.newByteSubscription("ticks", before, before)) {
                final Runnable work = () -> {
                    recorder.doWork();
                    subscription.poll(256);
                };
                TRAFFIC.publish(publication, 0, 1, work);
                TestTraffic.until(() -> before.started, work, () -> "the first subscriber's start");
                TRAFFIC.publish(publication, 1, RECORDED / 2, work);
                TestTraffic.until(() -> before.next >= RECORDED / 2, work, () -> before);
                stored = new StreamPosition(before.sessionId, before.next);
            }
            TRAFFIC.publish(publication, RECORDED / 2, RECORDED, recorder::doWork);
            TestTraffic.until(() -> recorded(recorder) >= RECORDED, recorder::doWork, () -> "recording");

            final Received after = new Received();
            after.next = stored.nextMessageIndex();
            try (Node restarted = Node.launch(config(LateJoinPolicy.NOW, List.of(endpoint)))) {
                restarted.resumeAt("ticks", stored);
                try (Subscription subscription = restarted.newByteSubscription("ticks", after, after)) {
                    final Runnable work = () -> {
                        recorder.doWork();
                        subscription.poll(256);
                    };
                    TestTraffic.until(() -> after.started, work, () -> "the restarted subscriber's start");
                    TRAFFIC.publish(publication, RECORDED, RECORDED + LIVE, work);
                    TestTraffic.until(() -> after.next >= RECORDED + LIVE || !after.problems.isEmpty(), work,
                        () -> after);
                }
            }
            assertThat(before.problems).isEmpty();
            assertThat(after.problems).isEmpty();
            assertThat(after.losses).isEmpty();
            assertThat(after.indexes.get(0)).as("the message after the last one handled")
                .isEqualTo(stored.nextMessageIndex());
            assertThat(after.indexes).hasSize((int) (RECORDED + LIVE - stored.nextMessageIndex()));
            assertThat(after.recoveries).isNotEmpty();
        }
    }

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void withNoRecorderToReachTheLateJoinerGetsOneExactLossNamingItThenTheLiveMessages() throws IOException {
        final Endpoint nobody = Endpoint.parse("127.0.0.1:9");
        try (Node publisherNode = Node.launch(config(LateJoinPolicy.NOW, List.of()))) {
            final BytePublication publication = publisherNode.newBytePublication("ticks");
            TRAFFIC.publish(publication, 0, RECORDED, Thread::onSpinWait);
            final Received received = new Received();
            try (Node subscriberNode = Node.launch(config(LateJoinPolicy.SESSION_START, List.of(nobody)));
                 Subscription subscription = subscriberNode.newByteSubscription("ticks", received, received)) {
                final Runnable work = () -> subscription.poll(256);
                TestTraffic.until(() -> received.started, work, () -> "the subscriber's start");
                TRAFFIC.publish(publication, RECORDED, RECORDED + LIVE, work);
                TestTraffic.until(() -> !received.losses.isEmpty() && received.next >= RECORDED + LIVE
                    || !received.problems.isEmpty(), work, () -> received);

                assertThat(received.problems).isEmpty();
                assertThat(received.losses).singleElement().satisfies(loss -> {
                    assertThat(loss.firstMessage()).isZero();
                    assertThat(loss.recordersAsked()).singleElement().asString()
                        .startsWith("127.0.0.1:9: the recorder could not be reached");
                    assertThat(loss.describe()).contains("nor did a recorder");
                });
                assertThat(received.indexes.get(0)).isEqualTo(received.losses.get(0).lostMessages());
            }
        }
    }

    private static long recorded(Recorder recorder) {
        try {
            return recorder.recordings().isEmpty() ? 0 : recorder.recordings().get(0).nextMessageIndex();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    /** What the subscriber got: each message checked to be the next with its bytes, and the events. */
    private static final class Received implements org.nakcast.transport.MessageHandler<DirectBuffer>,
        StreamEventListener {
        final List<Long> indexes = new ArrayList<>();
        final List<LossEvent> losses = new ArrayList<>();
        final List<RecoveryStarted> recoveries = new ArrayList<>();
        final List<String> problems = new ArrayList<>();
        volatile boolean started;
        int sessionId;
        long next;

        @Override
        public void onMessage(DirectBuffer message, MessageHeader header) {
            final long index = header.messageIndex();
            if (index != next || message.getLong(0) != index || message.capacity() != TRAFFIC.lengthOf(index)) {
                problems.add("message " + index + " (" + message.getLong(0) + ", " + message.capacity()
                    + " bytes) where " + next + " was next");
            }
            for (int i = 8; i < message.capacity(); i++) {
                if (message.getByte(i) != (byte) (index + i)) {
                    problems.add("message " + index + " has a wrong byte at " + i);
                    break;
                }
            }
            indexes.add(index);
            next = index + 1;
        }

        @Override
        public void onStreamStarted(org.nakcast.transport.StreamStarted event) {
            sessionId = event.sessionId();
            started = true;
        }

        @Override
        public void onLoss(LossEvent event) {
            losses.add(event);
            next = event.firstMessage() + event.lostMessages();
        }

        @Override
        public void onRecoveryStarted(RecoveryStarted event) {
            recoveries.add(event);
        }

        @Override
        public String toString() {
            return indexes.size() + " messages, next " + next + ", losses " + losses + ", recoveries " + recoveries
                + ", problems " + problems;
        }
    }
}
