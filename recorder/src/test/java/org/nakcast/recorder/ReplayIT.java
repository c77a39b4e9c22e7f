package org.nakcast.recorder;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.SystemEpochNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.nakcast.config.FlowControlMode;
import org.nakcast.config.NodeConfig;
import org.nakcast.config.TopicConfig;
import org.nakcast.config.TransportConfig;
import org.nakcast.recorder.store.Catalog;
import org.nakcast.recorder.store.RecordHandler;
import org.nakcast.recorder.store.RecordingDescriptor;
import org.nakcast.recorder.store.RecordingReader;
import org.nakcast.recorder.store.SegmentGeometry;
import org.nakcast.recorder.store.SegmentMaker;
import org.nakcast.transport.BytePublication;
import org.nakcast.transport.Node;
import org.nakcast.transport.replay.HoleCause;
import org.nakcast.transport.replay.ReplayClient;
import org.nakcast.transport.replay.ReplayFrame;
import org.nakcast.transport.replay.ReplayHandler;
import org.nakcast.transport.replay.ReplayRefusal;
import org.nakcast.transport.status.SystemCounter;

/**
 * Replays over TCP from a recorder, in this test JVM's private network namespace: exactly the
 * messages and holes asked for, in order, from a recording with a hole; and each refusal, with the
 * figures that explain it.
 */
class ReplayIT {
    private static final int TOPIC = 1;
    private static final int SESSION = 9;

    @TempDir
    Path dir;

    private final UnsafeBuffer message = new UnsafeBuffer(new byte[64]);

    /** Session 9 of topic 1: messages 100..149, a hole of 150..159, messages 160..(end - 1), then its end. */
    private void recordSession(long end) throws IOException {
        recordSession(end, true);
    }

    /** The same, ended by its publisher, or stopped there (its recorder stopped, or gave the session up). */
    private void recordSession(long end, boolean ended) throws IOException {
        try (Catalog catalog = Catalog.openForRecording(dir);
             Node node = Node.launch(config())) {
            final RecorderSettings settings = settings(16, 1_000_000);
            final SessionRecording recording = SessionRecording.begin(catalog, settings, SegmentMaker.inline(),
                new RecorderCounters(node.counters()), TOPIC, "orders", SESSION, 100, 0);
            messages(recording, 100, 150);
            recording.lost(150, 10, 0);
            messages(recording, 160, end);
            if (ended) {
                recording.end(0);
            } else {
                recording.stop(0);
            }
        }
    }

    private void messages(SessionRecording recording, long from, long to) {
        for (long index = from; index < to; index++) {
            message.putLong(0, index);
            recording.message(message, 0, 8 + (int) (index % 50), index, index * 1_000);
        }
    }

    private static NodeConfig config() {
        return new NodeConfig(null, List.of(new TransportConfig("local", "lo", "239.255.77.23", 40520)),
            List.of(new TopicConfig("orders", TOPIC, "local", "flyweight"))).conclude();
    }

    private RecorderSettings settings(int clients, long requestLimit) {
        return RecorderSettings.in(dir).withGeometry(new SegmentGeometry(64 * 1024, 4096))
            .withReplay(new RecorderSettings.Replay(new InetSocketAddress("127.0.0.1", 0), clients, requestLimit));
    }

    private Recorder serve(Node node, int clients, long requestLimit) throws IOException {
        return Recorder.start(node, settings(clients, requestLimit), List.of(), new SystemEpochNanoClock());
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aReplayBringsExactlyTheRangeAskedForWithItsHoleInOrder() throws IOException {
        recordSession(200);
        try (Node node = Node.launch(config());
             Recorder recorder = serve(node, 16, 1_000_000);
             ReplayClient client = ReplayClient.connect(recorder.replayEndpoint(), 2_000)) {
            final Answers whole = ask(recorder, client, 100, ReplayFrame.TO_WHAT_IS_HELD);
            assertThat(whole.events).first().isEqualTo("accepted 100..199");
            assertThat(whole.events).last().isEqualTo("done 200");
            assertThat(whole.messages).hasSize(90).isSorted().doesNotContainAnyElementsOf(range(150, 160));
            assertThat(whole.events).contains("hole 150+10 LOST_IN_TRANSPORT");

            final Answers middle = ask(recorder, client, 145, 155);
            assertThat(middle.events).containsExactly("accepted 145..155", "message 145", "message 146",
                "message 147", "message 148", "message 149", "hole 150+6 LOST_IN_TRANSPORT", "done 156");

            final Answers past = ask(recorder, client, 190, 1_000);
            assertThat(past.events).as("the range ends where the recording does").first()
                .isEqualTo("accepted 190..199");
            assertThat(past.messages).isEqualTo(range(190, 200));
            assertThat(node.counters().get(SystemCounter.REPLAYS_SERVED).get()).isEqualTo(3);
            assertThat(node.counters().get(SystemCounter.REPLAYED_MESSAGES).get()).isEqualTo(90 + 5 + 10);
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void whatTheRecorderDoesNotHoldOrWillNotServeIsRefusedWithTheFigures() throws IOException {
        recordSession(200);
        try (Node node = Node.launch(config());
             Recorder recorder = serve(node, 16, 50);
             ReplayClient client = ReplayClient.connect(recorder.replayEndpoint(), 2_000)) {
            assertThat(ask(recorder, client, 100, 120).events).as("within the limit").last().isEqualTo("done 121");
            assertThat(refusal(recorder, client, SESSION + 1, 100, 120)).isEqualTo("NO_RECORDING topic 1, session 10,"
                + " messages 100..120: this recorder has no recording of that session");
            assertThat(refusal(recorder, client, SESSION, 200, ReplayFrame.TO_WHAT_IS_HELD)).startsWith("NOT_HELD");
            assertThat(refusal(recorder, client, SESSION, 100, ReplayFrame.TO_WHAT_IS_HELD)).isEqualTo("TOO_LONG topic"
                + " 1, session 9, messages 100..(what is held): 100 messages, and one request may ask for 50 at most:"
                + " ask in parts");
            assertThat(refusal(recorder, client, SESSION, 120, 110)).endsWith("the range ends before it begins");
            assertThat(node.counters().get(SystemCounter.REPLAY_REQUESTS_REFUSED).get()).isEqualTo(4);
        }
    }

    /**
     * Seed 1650153: a recording stopped and not being recorded will not come to hold what lies past
     * its end, and says so (a failure of the recorder, which a recovering subscriber does not wait
     * for at every gap), where one being recorded may only be behind.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void whatLiesPastTheEndOfAStoppedRecordingIsRefusedAsNotRecorded() throws IOException {
        recordSession(200, false);
        try (Node node = Node.launch(config());
             Recorder recorder = serve(node, 16, 50);
             ReplayClient client = ReplayClient.connect(recorder.replayEndpoint(), 2_000)) {
            assertThat(ask(recorder, client, 190, 199).events).last().isEqualTo("done 200");
            assertThat(refusal(recorder, client, SESSION, 200, 210)).isEqualTo("NOT_RECORDING topic 1, session 9,"
                + " messages 200..210: its recording stopped, holding messages 100..199, and this recorder has heard"
                + " nothing of the session to go on with since");
        }
    }

    /**
     * Session 9: messages 100..4999 reach a recording whose disk takes its first segment and refuses
     * the next; session 10: messages 0..99 reach one whose disk refuses even its first. Both stop
     * so, as when their publishers closed.
     *
     * @return the first message of session 9 the disk refused
     */
    private long recordOnADiskThatFills() throws IOException {
        final int[] made = {0};
        final SegmentMaker disk = SegmentMaker.inline((segment, length) -> {
            if (++made[0] > 1) {
                throw new IOException("No space left on device");
            }
        });
        try (Catalog catalog = Catalog.openForRecording(dir);
             Node node = Node.launch(config())) {
            final RecorderCounters counters = new RecorderCounters(node.counters());
            final SessionRecording filling = SessionRecording.begin(catalog, settings(16, 1_000_000), disk, counters,
                TOPIC, "orders", SESSION, 100, 0);
            messages(filling, 100, 5_000);
            filling.stop(0);
            final SessionRecording refused = SessionRecording.begin(catalog, settings(16, 1_000_000), disk, counters,
                TOPIC, "orders", SESSION + 1, 0, 0);
            messages(refused, 0, 100);
            refused.stop(0);
            assertThat(catalog.list()).allMatch(RecordingDescriptor::refusing);
        }
        final long[] next = {100};
        try (RecordingReader reader = RecordingReader.openAt(dir, 0, 100)) {
            final RecordHandler stored = new RecordHandler() {
                @Override
                public void onMessage(long index, DirectBuffer buffer, int offset, int length, long recordedAtNs) {
                    next[0] = index + 1;
                }

                @Override
                public void onHole(long firstMessage, long count, HoleCause cause) {
                    throw new AssertionError("no hole stored: " + firstMessage + "+" + count + " " + cause);
                }
            };
            while (reader.poll(stored, 100) > 0) {
                // to what the first segment holds
            }
        }
        assertThat(next[0]).as("the first segment holds some of them, not all").isBetween(101L, 4_999L);
        return next[0];
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void whatARecordingsDiskRefusedIsRefusedAsNotStoringAndAReplayReachingItEndsThere() throws IOException {
        final long firstRefused = recordOnADiskThatFills();
        try (Node node = Node.launch(config());
             Recorder recorder = serve(node, 16, 1_000_000);
             ReplayClient client = ReplayClient.connect(recorder.replayEndpoint(), 2_000)) {
            assertThat(refusal(recorder, client, SESSION, 5_000, ReplayFrame.TO_WHAT_IS_HELD)).isEqualTo("NOT_STORING"
                + " topic 1, session 9, messages 5000..(what is held): its disk refuses what comes; of messages"
                + " 100..4999, the recording stored what the disk took");
            assertThat(refusal(recorder, client, SESSION + 1, 0, 50)).isEqualTo("NOT_STORING topic 1, session 10,"
                + " messages 0..50: its disk refuses what comes, and the recording holds nothing");

            final Answers reaching = ask(recorder, client, firstRefused - 2, 4_999);
            assertThat(reaching.events).hasSize(4).startsWith("accepted " + (firstRefused - 2) + "..4999",
                "message " + (firstRefused - 2), "message " + (firstRefused - 1));
            assertThat(reaching.refusal).isEqualTo(ReplayRefusal.NOT_STORING);
            assertThat(reaching.sentences).containsExactly("the disk refused message " + firstRefused + " and what"
                + " follows, and refuses what comes; the messages before " + firstRefused + " were sent");
            assertThat(node.counters().get(SystemCounter.REPLAY_REQUESTS_REFUSED).get()).isEqualTo(3);
        }
    }

    /**
     * Seed 1490126: a recorder whose node kept one publisher of a topic with {@code max-publishers: 1}
     * answered "no recording" for the other, which a subscriber keeping that one waited a whole
     * patience for at each of its gaps. It now says its node turns the session away.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aSessionTheRecordersNodeTurnsAwayIsRefusedAsSuch() throws IOException {
        final NodeConfig onePublisher = new NodeConfig(null, config().transports(), List.of(
            new TopicConfig("orders", TOPIC, "local", "flyweight").withFlowControl(FlowControlMode.MAX)
                .withMaxPublishers(1))).conclude();
        try (Node kept = Node.launch(onePublisher);
             Node turnedAway = Node.launch(onePublisher);
             Node node = Node.launch(onePublisher);
             Recorder recorder = Recorder.start(node, settings(16, 1_000), List.of("orders"),
                 new SystemEpochNanoClock());
             ReplayClient client = ReplayClient.connect(recorder.replayEndpoint(), 2_000)) {
            final BytePublication first = kept.newBytePublication("orders");
            final TestTraffic traffic = new TestTraffic(8);
            traffic.publish(first, 0, 10, recorder::doWork);
            TestTraffic.until(() -> recorded(recorder) == 10, recorder::doWork, () -> "recorded " + recorded(recorder));
            final BytePublication second = turnedAway.newBytePublication("orders");
            traffic.publish(second, 0, 10, recorder::doWork);
            TestTraffic.until(() -> recorder.turnsAway(TOPIC, second.sessionId()), recorder::doWork,
                () -> "refused datagrams " + node.counters().get(SystemCounter.PUBLISHER_STREAMS_REFUSED).get());

            assertThat(refusal(recorder, client, second.sessionId(), 0, 9)).isEqualTo("SESSION_REFUSED topic 1,"
                + " session " + second.sessionId() + ", messages 0..9: this recorder's node turns that session away"
                + " (the topic has no room for it: max-publishers), so it has no recording of it");
            assertThat(recorder.turnsAway(TOPIC, first.sessionId())).isFalse();
        }
    }

    private static long recorded(Recorder recorder) {
        try {
            return recorder.recordings().stream().mapToLong(RecordingDescriptor::nextMessageIndex).sum();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void whatWasSentBeforeTheRecordingBeganIsAHoleWithThatCauseAndTheRestIsServed() throws IOException {
        recordSession(200);
        try (Node node = Node.launch(config());
             Recorder recorder = serve(node, 16, 1_000);
             ReplayClient client = ReplayClient.connect(recorder.replayEndpoint(), 2_000)) {
            final Answers across = ask(recorder, client, 50, 102);
            assertThat(across.events).containsExactly("accepted 50..102", "hole 50+50 BEFORE_RECORDING",
                "message 100", "message 101", "message 102", "done 103");

            final Answers before = ask(recorder, client, 10, 20);
            assertThat(before.events).containsExactly("accepted 10..20", "hole 10+11 BEFORE_RECORDING", "done 21");
            assertThat(node.counters().get(SystemCounter.REPLAY_REQUESTS_REFUSED).get()).isZero();
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aSecondRequestWhileTheFirstIsAnsweredIsRefusedAndTheFirstGoesOn() throws Exception {
        recordSession(5_000);
        try (Node node = Node.launch(config());
             Recorder recorder = serve(node, 16, 1_000_000);
             ReplayClient client = ReplayClient.connect(recorder.replayEndpoint(), 2_000)) {
            final Answers answers = new Answers();
            client.request(TOPIC, SESSION, 100, ReplayFrame.TO_WHAT_IS_HELD);
            final long second = client.request(TOPIC, SESSION, 100, 110);
            Thread.sleep(50);
            untilDone(recorder, client, answers, 1_000);
            assertThat(answers.events).contains("refused " + second + " BUSY");
            assertThat(answers.messages).hasSize(4_890).isSorted();
            assertThat(answers.events).last().isEqualTo("done 5000");
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aClientOverTheLimitIsToldWhyAndTheOthersAreServed() throws IOException {
        recordSession(200);
        try (Node node = Node.launch(config());
             Recorder recorder = serve(node, 1, 1_000_000);
             ReplayClient first = ReplayClient.connect(recorder.replayEndpoint(), 2_000)) {
            recorder.doWork();
            try (ReplayClient second = ReplayClient.connect(recorder.replayEndpoint(), 2_000)) {
                recorder.doWork();
                final Answers turnedAway = new Answers();
                assertThat(untilClosed(second, turnedAway)).isTrue();
                assertThat(turnedAway.events).containsExactly("refused 0 TOO_MANY_CLIENTS");
                assertThat(turnedAway.sentences).singleElement().asString()
                    .contains("serves 1 replay clients at once (recorder.replay-clients)");
            }
            assertThat(ask(recorder, first, 190, 199).messages).isEqualTo(range(190, 200));
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aClientThatSendsWhatIsNoRequestIsCutOffAndTheOthersGoOn() throws IOException {
        recordSession(200);
        try (Node node = Node.launch(config());
             Recorder recorder = serve(node, 16, 1_000_000);
             ReplayClient good = ReplayClient.connect(recorder.replayEndpoint(), 2_000);
             SocketChannel bad = SocketChannel.open(recorder.replayEndpoint())) {
            final ByteBuffer garbage = ByteBuffer.allocate(16).order(ReplayFrame.BYTE_ORDER).putInt(16).put((byte) 99)
                .put((byte) ReplayFrame.VERSION).position(16).flip();
            bad.write(garbage);
            bad.configureBlocking(false);
            final ByteBuffer read = ByteBuffer.allocate(256);
            int got = 0;
            for (int i = 0; i < 100_000 && got >= 0; i++) {
                recorder.doWork();
                got = bad.read(read);
            }
            assertThat(got).as("the recorder closed the connection").isEqualTo(-1);
            final ReplayFrame told = new ReplayFrame().wrap(new UnsafeBuffer(read.flip()), 0);
            assertThat(told.refusal()).isEqualTo(ReplayRefusal.BAD_REQUEST);
            assertThat(told.sentence()).isEqualTo("not a replay request: a frame of unknown type 99");
            assertThat(ask(recorder, good, 100, 101).messages).containsExactly(100L, 101L);
        }
    }

    private static List<Long> range(long from, long to) {
        final List<Long> indexes = new ArrayList<>();
        for (long index = from; index < to; index++) {
            indexes.add(index);
        }
        return indexes;
    }

    private static Answers ask(Recorder recorder, ReplayClient client, long from, long to) throws IOException {
        return ask(recorder, client, SESSION, from, to);
    }

    private static Answers ask(Recorder recorder, ReplayClient client, int session, long from, long to)
        throws IOException {
        final Answers answers = new Answers();
        client.request(TOPIC, session, from, to);
        untilDone(recorder, client, answers, 256);
        return answers;
    }

    /** Serves and reads answers until the replay is done or refused; fails after 30 s rather than hang. */
    private static void untilDone(Recorder recorder, ReplayClient client, Answers answers, int limit)
        throws IOException {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!answers.done) {
            assertThat(System.nanoTime()).as("answers so far: %s", answers.events).isLessThan(deadline);
            recorder.doWork();
            client.poll(answers, limit);
        }
    }

    private static String refusal(Recorder recorder, ReplayClient client, int session, long from, long to)
        throws IOException {
        final Answers answers = ask(recorder, client, session, from, to);
        assertThat(answers.sentences).hasSize(1);
        return answers.refusal + " " + answers.sentences.get(0);
    }

    /** Polls until the recorder closes the connection; false if it did not within a few seconds. */
    private static boolean untilClosed(ReplayClient client, Answers answers) throws IOException {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (System.nanoTime() < deadline) {
            try {
                client.poll(answers, 16);
            } catch (EOFException closed) {
                return true;
            }
        }
        return false;
    }

    /** Every answer, in words, and the indexes of the messages, each checked against its bytes. */
    private static final class Answers implements ReplayHandler {
        final List<String> events = new ArrayList<>();
        final List<Long> messages = new ArrayList<>();
        final List<String> sentences = new ArrayList<>();
        ReplayRefusal refusal;
        boolean done;

        @Override
        public void onAccepted(long requestId, long first, long last) {
            events.add("accepted " + first + ".." + last);
        }

        @Override
        public void onMessage(long messageIndex, DirectBuffer buffer, int offset, int length, long recordedAtNs) {
            assertThat(buffer.getLong(offset)).isEqualTo(messageIndex);
            assertThat(length).isEqualTo(8 + (int) (messageIndex % 50));
            assertThat(recordedAtNs).isEqualTo(messageIndex * 1_000);
            events.add("message " + messageIndex);
            messages.add(messageIndex);
        }

        @Override
        public void onHole(long firstMessage, long count, HoleCause cause) {
            events.add("hole " + firstMessage + "+" + count + " " + cause);
        }

        @Override
        public void onDone(long requestId, long nextMessageIndex) {
            events.add("done " + nextMessageIndex);
            done = true;
        }

        @Override
        public void onRefused(long requestId, ReplayRefusal why, String sentence) {
            events.add("refused " + requestId + " " + why);
            sentences.add(sentence);
            refusal = why;
            done = requestId != 0 && !why.equals(ReplayRefusal.BUSY);
        }
    }
}
