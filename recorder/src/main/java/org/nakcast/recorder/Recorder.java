package org.nakcast.recorder;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.agrona.DirectBuffer;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.concurrent.EpochNanoClock;
import org.nakcast.config.LateJoinPolicy;
import org.nakcast.config.LossPolicy;
import org.nakcast.config.TopicConfig;
import org.nakcast.recorder.store.Catalog;
import org.nakcast.recorder.store.RecordingDescriptor;
import org.nakcast.recorder.store.RecordingEnd;
import org.nakcast.recorder.store.RecordingRecovery;
import org.nakcast.recorder.store.RecordingState;
import org.nakcast.recorder.store.Retention;
import org.nakcast.recorder.store.SegmentCensus;
import org.nakcast.recorder.store.SegmentMaker;
import org.nakcast.transport.Delivery;
import org.nakcast.transport.LossEvent;
import org.nakcast.transport.MessageHandler;
import org.nakcast.transport.MessageHeader;
import org.nakcast.transport.Node;
import org.nakcast.transport.PublisherGone;
import org.nakcast.transport.StreamEventListener;
import org.nakcast.transport.StreamRefused;
import org.nakcast.transport.StreamStarted;
import org.nakcast.transport.Subscription;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records topics to a directory: an ordinary subscriber of each, through a node the application
 * runs, that appends every publisher stream, in order and repaired, to a recording of its own
 * (see {@link org.nakcast.recorder.store}). What the transport gives up is a hole; what the disk
 * refuses is a hole; a stream heard again, after a silence or a restart of the recorder, goes on
 * in the recording it had. Its publisher's end ends the recording.
 *
 * <p>Give the node its topics as {@link #asRecorded} has them: a stream met mid-way is then recorded
 * from the oldest datagram its publisher still holds, and a loss is a hole the recording goes on
 * after (a topic's {@code loss-policy: drop} would end the recorder's subscription at its first
 * loss, and with it the recording of every later message); it recovers from no recorder (a
 * recorder's holes are its own, never another's copy). Call {@link #doWork} from one thread: it
 * polls the subscriptions, writes each recording's progress to the catalog, and answers replay
 * requests at its endpoint ({@link ReplayServer}).
 *
 * <pre>
 *   Node --(messages, losses, ends per stream)--&gt; Recorder --&gt; SessionRecording --&gt; RecordingWriter
 *                                                    |                                  |
 *                                                    +------&gt; Catalog &lt;--- progress ----+
 *                                                                 |                        |
 *   ReplayClient &lt;--(TCP: ACCEPTED, MESSAGE, HOLE, DONE)-- ReplayServer --&gt; RecordingReader
 * </pre>
 */
public final class Recorder implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Recorder.class);
    /**
     * The least time a recorder's topics wait for its recording thread: that thread waits for its
     * disk (a segment still being made, a full one forced) far longer than a service's poller stops,
     * and meanwhile the topic holds its datagrams (slowing a {@code min} publisher) where a shorter
     * wait would overrun the subscription and record a hole for every message that came. A thread
     * stopped this long is taken for stuck: the subscription is overrun, and the recording says what
     * it missed.
     */
    public static final Duration RECORDING_QUEUE_TIMEOUT = Duration.ofSeconds(10);

    private final RecorderSettings settings;
    private final Catalog catalog;
    private final EpochNanoClock clock;
    private final RecorderCounters counters;
    /** Makes segments ahead of need, and forces and closes full ones, off the recording thread (unless told not to). */
    private final SegmentMaker segments;
    private final List<TopicRecorder> topics = new ArrayList<>();
    /** What retention learned of the directory's segments: a full one is read once. */
    private final SegmentCensus census = new SegmentCensus();
    /** The sessions its node turns away, which its replays are refused for as such. */
    private final TurnedAwaySessions turnedAway = new TurnedAwaySessions();
    private ReplayServer replay;
    private long epochNs;
    private long nextDutyNs;
    private long nextRetentionNs;

    private Recorder(RecorderSettings settings, Catalog catalog, EpochNanoClock clock, RecorderCounters counters) {
        this.settings = settings;
        this.segments = settings.segmentMaker().get();
        this.catalog = catalog;
        this.clock = clock;
        this.counters = counters;
    }

    /**
     * A topic as a recorder's node subscribes to it, whatever the file says: {@code late-join: oldest},
     * {@code loss-policy: continue}, no {@code recorders}, and a {@code delivery-queue-timeout} of at
     * least {@link #RECORDING_QUEUE_TIMEOUT}.
     */
    public static TopicConfig asRecorded(TopicConfig topic) {
        final Duration queueTimeout = topic.deliveryQueueTimeout().compareTo(RECORDING_QUEUE_TIMEOUT) < 0
            ? RECORDING_QUEUE_TIMEOUT : topic.deliveryQueueTimeout();
        return topic.withLateJoin(LateJoinPolicy.OLDEST).withLossPolicy(LossPolicy.CONTINUE).withRecorders(List.of())
            .withDeliveryQueue(topic.deliveryQueue(), queueTimeout);
    }

    /**
     * Opens the recording directory (making it if need be), cleans up after a recorder that died in
     * it, and subscribes to each topic on {@code node}.
     *
     * @throws IOException if the directory cannot be made or held, or its catalog read
     */
    public static Recorder start(Node node, RecorderSettings settings, List<String> topicNames, EpochNanoClock clock)
        throws IOException {
        Files.createDirectories(settings.dir());
        final Catalog catalog = Catalog.openForRecording(settings.dir());
        final Recorder recorder = new Recorder(settings, catalog, clock, new RecorderCounters(node.counters()));
        try {
            recorder.epochNs = clock.nanoTime();
            SegmentMaker.deleteLeftovers(settings.dir());
            recorder.recoverInterrupted();
            if (settings.replay() != null) {
                final RecorderSettings.Replay replay = settings.replay();
                recorder.replay = ReplayServer.open(replay.endpoint(), settings.dir(), catalog, recorder.turnedAway,
                    replay.maxClients(), replay.requestLimit(), recorder.counters);
            }
            for (String topicName : topicNames) {
                recorder.topics.add(recorder.new TopicRecorder(node, topicName));
            }
            return recorder;
        } catch (IOException | RuntimeException e) {
            recorder.close();
            throw e;
        }
    }

    /**
     * Takes what came on each topic and writes it down; writes the progress of every open recording
     * to the catalog once per progress interval.
     *
     * @return work done: messages and events taken, recordings brought up to date
     */
    public int doWork() {
        epochNs = clock.nanoTime();
        int work = 0;
        for (int i = 0; i < topics.size(); i++) {
            work += topics.get(i).subscription.poll(settings.pollLimit());
        }
        if (epochNs >= nextDutyNs) {
            nextDutyNs = epochNs + settings.progressIntervalNs();
            for (int i = 0; i < topics.size(); i++) {
                work += topics.get(i).duty();
            }
        }
        if (replay != null) {
            work += replay.doWork();
        }
        if (epochNs >= nextRetentionNs && settings.retention() != Retention.FOREVER) {
            nextRetentionNs = epochNs + RecorderSettings.RETENTION_INTERVAL_NS;
            work += applyRetention();
        }
        return work;
    }

    private int applyRetention() {
        try {
            final List<Path> removed = settings.retention().apply(settings.dir(), catalog, epochNs, census);
            if (!removed.isEmpty()) {
                LOG.info("retention removed {} segment files, the oldest {}", removed.size(), removed.get(0));
            }
            return removed.size();
        } catch (IOException e) {
            LOG.error("retention could not be applied to {}", settings.dir(), e);
            return 0;
        }
    }

    /** Where this recorder answers replay requests (its port as bound); null if it does not. */
    public InetSocketAddress replayEndpoint() {
        return replay == null ? null : replay.endpoint();
    }

    /** The recordings in the directory, as the catalog says now. */
    public List<RecordingDescriptor> recordings() throws IOException {
        return catalog.list();
    }

    /**
     * Whether its node turns {@code sessionId} of {@code topicId} away for want of room, as its
     * subscription was last told ({@link StreamRefused}): such a session has no recording here, or
     * none of what came since, and its replays are refused {@code SESSION_REFUSED}.
     */
    public boolean turnsAway(int topicId, int sessionId) {
        return turnedAway.isTurnedAway(topicId, sessionId);
    }

    /**
     * Lets go of the directory as a killed process does: nothing more is written or forced, no
     * recording is stopped; the replay endpoint closes and the directory's lock is released, so that
     * a recorder started after it finds the directory as a crash leaves it (and recovers it). For a
     * supervisor whose recording thread died, and for the simulation's crashes.
     */
    public void abandon() throws IOException {
        try {
            if (replay != null) {
                replay.close();
            }
        } finally {
            segments.close();
            catalog.close();
        }
    }

    /** Stops recording: every open recording is stopped (it may be resumed), the directory let go. */
    @Override
    public void close() throws IOException {
        epochNs = clock.nanoTime();
        try {
            if (replay != null) {
                replay.close();
            }
            for (TopicRecorder topic : topics) {
                topic.close();
            }
        } finally {
            segments.close();
            catalog.close();
        }
    }

    /** Recordings a recorder was appending to when it died: their torn tails cut, they stand stopped. */
    private void recoverInterrupted() throws IOException {
        for (RecordingDescriptor recording : catalog.list()) {
            if (recording.state() != RecordingState.RECORDING) {
                continue;
            }
            final RecordingEnd end = RecordingRecovery.recover(settings.dir(), recording.recordingId(),
                recording.firstMessageIndex());
            catalog.progress(recording.recordingId(), end.nextMessageIndex(), recording.bytes(),
                recording.holeMessages(), recording.refusing());
            catalog.stop(recording.recordingId(), end.ended() ? RecordingState.ENDED : RecordingState.STOPPED,
                epochNs / 1_000_000);
            LOG.info("recording {} (topic {}, session {}) was being appended to when its recorder stopped: it holds"
                + " messages {}..{}{}", recording.recordingId(), recording.topicName(), recording.sessionId(),
                recording.firstMessageIndex(), end.nextMessageIndex() - 1,
                end.cutBytes() > 0 ? "; a torn frame of " + end.cutBytes() + " bytes after them was cut" : "");
        }
    }

    /** The latest stopped recording of a stream, or null. */
    private RecordingDescriptor stoppedRecordingOf(int topicId, int sessionId) throws IOException {
        RecordingDescriptor latest = null;
        for (RecordingDescriptor recording : catalog.list()) {
            if (recording.topicId() == topicId && recording.sessionId() == sessionId
                && recording.state() == RecordingState.STOPPED) {
                latest = recording;
            }
        }
        return latest;
    }

    /** One recorded topic: its subscription, and the open recording of each of its streams. */
    private final class TopicRecorder implements MessageHandler<DirectBuffer>, StreamEventListener {
        private static final long NOT_REFUSED = Long.MIN_VALUE;

        private final Subscription subscription;
        private final String topicName;
        private final Int2ObjectHashMap<SessionRecording> open = new Int2ObjectHashMap<>();
        /** Per stream no recording could be had for: the first message not recorded, and when to try again. */
        private final Long2LongHashMap unrecordedSince = new Long2LongHashMap(NOT_REFUSED);
        private final Long2LongHashMap retryAtNs = new Long2LongHashMap(NOT_REFUSED);

        TopicRecorder(Node node, String topicName) {
            this.topicName = topicName;
            this.subscription = node.newByteSubscription(topicName, this, this, Delivery.ON_POLL);
        }

        @Override
        public void onMessage(DirectBuffer message, MessageHeader header) {
            final SessionRecording recording = recordingOf(header.sessionId(), header.messageIndex());
            if (recording != null) {
                recording.message(message, 0, message.capacity(), header.messageIndex(), epochNs);
            }
        }

        @Override
        public void onLoss(LossEvent event) {
            if (event.lostMessages() == 0) {
                // datagrams given up before the stream knew a message index (a late start from the
                // oldest held, overtaken): no message to record as lost; the recording begins with
                // the first message that comes
                return;
            }
            final SessionRecording recording = recordingOf(event.sessionId(), event.firstMessage());
            if (recording != null) {
                recording.lost(event.firstMessage(), event.lostMessages(), epochNs);
            }
        }

        @Override
        public void onStreamStarted(StreamStarted event) {
            turnedAway.taken(event.topicId(), event.sessionId());
        }

        @Override
        public void onStreamRefused(StreamRefused event) {
            turnedAway.refused(event.topicId(), event.sessionId());
        }

        @Override
        public void onPublisherGone(PublisherGone event) {
            final SessionRecording recording = open.remove(event.sessionId());
            if (recording == null) {
                return;
            }
            try {
                if (event.cause() == PublisherGone.Cause.ENDED) {
                    recording.end(epochNs);
                } else {
                    recording.stop(epochNs);
                }
            } catch (IOException e) {
                LOG.error("recording {} could not be closed", recording.recordingId(), e);
            }
        }

        int duty() {
            for (SessionRecording recording : open.values()) {
                recording.duty(epochNs);
            }
            return open.size();
        }

        /** The stream's stopped recording resumed, or, if there is none or it cannot be, a new one. */
        private SessionRecording resumeOrBegin(int sessionId, long firstMessageIndex) throws IOException {
            final RecordingDescriptor stopped = stoppedRecordingOf(subscription.topicId(), sessionId);
            if (stopped != null) {
                try {
                    return SessionRecording.resume(catalog, settings, segments, counters, stopped, epochNs);
                } catch (IOException e) {
                    LOG.warn("topic {}, session {}: recording {} cannot be resumed ({}); it stays as it is, and a new"
                        + " recording begins at message {}", topicName, sessionId, stopped.recordingId(), e.toString(),
                        firstMessageIndex);
                }
            }
            return SessionRecording.begin(catalog, settings, segments, counters, subscription.topicId(), topicName,
                sessionId, firstMessageIndex, epochNs);
        }

        void close() throws IOException {
            subscription.close();
            for (SessionRecording recording : open.values()) {
                recording.stop(epochNs);
            }
            open.clear();
        }

        /**
         * The open recording of a stream: the one it had if it was recorded before (or a new one if
         * that cannot be resumed), else a new one. When none can be had (the catalog cannot grow),
         * the stream's messages go unrecorded, said once with the first of them, and a recording is
         * tried again every retry interval; the one that then begins starts where it begins.
         */
        private SessionRecording recordingOf(int sessionId, long firstMessageIndex) {
            SessionRecording recording = open.get(sessionId);
            if (recording != null) {
                return recording;
            }
            final long unrecordedFrom = unrecordedSince.get(sessionId);
            if (unrecordedFrom != NOT_REFUSED && epochNs < retryAtNs.get(sessionId)) {
                return null;
            }
            try {
                recording = resumeOrBegin(sessionId, firstMessageIndex);
            } catch (IOException | RuntimeException e) {
                retryAtNs.put(sessionId, epochNs + settings.retryIntervalNs());
                if (unrecordedFrom == NOT_REFUSED) {
                    unrecordedSince.put(sessionId, firstMessageIndex);
                    LOG.error("topic {}, session {}: no recording can be started ({}); its messages from {} on are not"
                        + " recorded until one can, tried every {} ms", topicName, sessionId, e.toString(),
                        firstMessageIndex, settings.retryIntervalNs() / 1_000_000, e);
                }
                return null;
            }
            if (unrecordedFrom != NOT_REFUSED) {
                unrecordedSince.remove(sessionId);
                retryAtNs.remove(sessionId);
                LOG.info("topic {}, session {}: recording {} starts at message {}; messages {}..{} were not recorded",
                    topicName, sessionId, recording.recordingId(), firstMessageIndex, unrecordedFrom,
                    firstMessageIndex - 1);
            }
            open.put(sessionId, recording);
            return recording;
        }
    }
}
