package org.nakcast.recorder;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.SystemEpochNanoClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.nakcast.config.FlowControlMode;
import org.nakcast.config.LateJoinPolicy;
import org.nakcast.config.NodeConfig;
import org.nakcast.config.TopicConfig;
import org.nakcast.config.TransportConfig;
import org.nakcast.recorder.store.RecordHandler;
import org.nakcast.recorder.store.RecordingDescriptor;
import org.nakcast.recorder.store.RecordingReader;
import org.nakcast.recorder.store.RecordingState;
import org.nakcast.recorder.store.SegmentGeometry;
import org.nakcast.transport.Node;
import org.nakcast.transport.BytePublication;
import org.nakcast.transport.replay.HoleCause;

/**
 * A recorder on loopback, in this test JVM's private network namespace, beside a publisher in
 * another node: every message of a stream recorded once and in order across small segments, the
 * recording ended with its publication; and a recorder restarted mid-stream goes on in the same
 * recording from the publisher's history, with nothing twice and nothing missing.
 */
class RecorderIT {
    private static final int MESSAGES = 20_000;

    @TempDir
    Path dir;

    private static final TestTraffic TRAFFIC = new TestTraffic(200);

    private static NodeConfig config(LateJoinPolicy lateJoin) {
        final TransportConfig lo = new TransportConfig("local", "lo", "239.255.77.21", 40510);
        // A closed publication answers NAKs for 10 s: a recorder starved of the CPU for a while on a
        // busy machine still repairs its tail and sees the end, rather than the publisher falling silent.
        final TopicConfig ticks = new TopicConfig("ticks", 1, "local", "jdk").withFlowControl(FlowControlMode.MAX)
            .withLateJoin(lateJoin).withCloseLinger(Duration.ofSeconds(10));
        return new NodeConfig(null, List.of(lo), List.of(ticks)).conclude();
    }

    private RecorderSettings settings() {
        return RecorderSettings.in(dir).withGeometry(new SegmentGeometry(1 << 20, 1 << 14))
            .withProgressInterval(Duration.ofMillis(5).toNanos()).withReplay(null);
    }

    /** Runs the recorder until {@code done}; fails, naming the recordings, after 30 s. */
    private static void workUntil(Recorder recorder, BooleanSupplier done) {
        TestTraffic.until(done, recorder::doWork, () -> "the recordings: " + recordingsOf(recorder));
    }

    private static List<RecordingDescriptor> recordingsOf(Recorder recorder) {
        try {
            return recorder.recordings();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private static RecordingDescriptor only(Recorder recorder) {
        final List<RecordingDescriptor> recordings = recordingsOf(recorder);
        return recordings.isEmpty() ? null : recordings.get(recordings.size() - 1);
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void everyMessageIsRecordedOnceInOrderAndTheRecordingEndsWithItsPublication() throws IOException {
        try (Node publisherNode = Node.launch(config(LateJoinPolicy.NOW));
             Node recorderNode = Node.launch(config(LateJoinPolicy.OLDEST));
             Recorder recorder = Recorder.start(recorderNode, settings(), List.of("ticks"),
                 new SystemEpochNanoClock())) {
            final BytePublication publication = publisherNode.newBytePublication("ticks");
            TRAFFIC.publish(publication, 0, MESSAGES, recorder::doWork);
            publication.close();
            workUntil(recorder, () -> only(recorder) != null && only(recorder).state() == RecordingState.ENDED);

            final RecordingDescriptor recording = only(recorder);
            assertThat(recorder.recordings()).hasSize(1);
            assertThat(recording.firstMessageIndex()).isZero();
            assertThat(recording.nextMessageIndex()).isEqualTo(MESSAGES);
            assertThat(recording.holeMessages()).isZero();
            assertThat(recording.topicName()).isEqualTo("ticks");
        }
        final Replayed replayed = replay(0);
        assertThat(replayed.indexes).hasSize(MESSAGES);
        assertThat(replayed.holes).isZero();
        assertThat(replayed.ended).isTrue();
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aRecorderRestartedMidStreamGoesOnInTheSameRecordingFromThePublishersHistory() throws IOException {
        try (Node publisherNode = Node.launch(config(LateJoinPolicy.NOW));
             Node recorderNode = Node.launch(config(LateJoinPolicy.OLDEST))) {
            final BytePublication publication = firstHalfByAFirstRecorder(publisherNode, recorderNode);
            try (Recorder second = Recorder.start(recorderNode, settings(), List.of("ticks"),
                new SystemEpochNanoClock())) {
                TRAFFIC.publish(publication, MESSAGES / 2, MESSAGES, second::doWork);
                publication.close();
                workUntil(second, () -> only(second).state() == RecordingState.ENDED);
                assertThat(second.recordings()).as("one recording, resumed").hasSize(1);
                assertThat(only(second).nextMessageIndex()).isEqualTo(MESSAGES);
            }
        }
        final Replayed replayed = replay(0);
        assertThat(replayed.indexes).hasSize(MESSAGES);
        assertThat(replayed.holes).as("the history still held what the recorder missed").isZero();
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aStoppedRecordingThatCannotBeResumedStaysAndANewOneTakesTheStream() throws IOException {
        try (Node publisherNode = Node.launch(config(LateJoinPolicy.NOW));
             Node recorderNode = Node.launch(config(LateJoinPolicy.OLDEST))) {
            final BytePublication publication = firstHalfByAFirstRecorder(publisherNode, recorderNode);
            try (var segments = Files.list(dir)) {
                for (Path segment : segments.filter(path -> path.getFileName().toString().startsWith("0-")).toList()) {
                    // a damaged header (not a zeroed magic, which is a segment whose making was cut short)
                    try (FileChannel channel = FileChannel.open(segment, StandardOpenOption.WRITE)) {
                        channel.write(ByteBuffer.wrap(new byte[] {-1, -1, -1, -1}), 8);
                    }
                }
            }
            try (Recorder second = Recorder.start(recorderNode, settings(), List.of("ticks"),
                new SystemEpochNanoClock())) {
                TRAFFIC.publish(publication, MESSAGES / 2, MESSAGES, second::doWork);
                publication.close();
                workUntil(second,
                    () -> only(second).recordingId() == 1 && only(second).state() == RecordingState.ENDED);
                final List<RecordingDescriptor> recordings = second.recordings();
                assertThat(recordings).hasSize(2);
                assertThat(recordings.get(0).state()).as("the damaged one, left as it was").isEqualTo(
                    RecordingState.STOPPED);
                assertThat(recordings.get(1).firstMessageIndex()).as("from the first message the node delivered again")
                    .isLessThanOrEqualTo(MESSAGES / 2);
                assertThat(recordings.get(1).nextMessageIndex()).isEqualTo(MESSAGES);
                assertThat(recordings.get(1).holeMessages()).isZero();
            }
        }
    }

    /**
     * A publication of its first half of the messages, of which a first recorder recorded at least a
     * quarter before it stopped; the publication stays open.
     */
    private BytePublication firstHalfByAFirstRecorder(Node publisherNode, Node recorderNode) throws IOException {
        try (Recorder first = Recorder.start(recorderNode, settings(), List.of("ticks"), new SystemEpochNanoClock())) {
            final BytePublication publication = publisherNode.newBytePublication("ticks");
            TRAFFIC.publish(publication, 0, MESSAGES / 2, first::doWork);
            workUntil(first, () -> only(first) != null && only(first).nextMessageIndex() >= MESSAGES / 4);
            return publication;
        }
    }

    private Replayed replay(long from) throws IOException {
        final Replayed replayed = new Replayed();
        try (RecordingReader reader = RecordingReader.openAt(dir, 0, from)) {
            while (reader.poll(replayed, 100) > 0) {
                // to the end
            }
            replayed.ended = reader.isEnded();
        }
        return replayed;
    }

    /** What a replay handed out; each message checked against what was published. */
    private static final class Replayed implements RecordHandler {
        final List<Long> indexes = new ArrayList<>();
        long holes;
        boolean ended;

        @Override
        public void onMessage(long messageIndex, DirectBuffer buffer, int offset, int length, long recordedAtNs) {
            assertThat(buffer.getLong(offset)).isEqualTo(messageIndex);
            assertThat(length).isEqualTo(TRAFFIC.lengthOf(messageIndex));
            if (!indexes.isEmpty()) {
                assertThat(messageIndex).isEqualTo(indexes.get(indexes.size() - 1) + 1);
            }
            indexes.add(messageIndex);
        }

        @Override
        public void onHole(long firstMessage, long count, HoleCause cause) {
            holes += count;
        }
    }
}
