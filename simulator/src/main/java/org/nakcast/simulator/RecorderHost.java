package org.nakcast.simulator;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import org.agrona.DirectBuffer;
import org.agrona.IoUtil;
import org.nakcast.codecs.CodecException;
import org.nakcast.recorder.Recorder;
import org.nakcast.recorder.RecorderSettings;
import org.nakcast.recorder.store.RecordHandler;
import org.nakcast.recorder.store.RecordingDescriptor;
import org.nakcast.recorder.store.RecordingReader;
import org.nakcast.recorder.store.RecordingState;
import org.nakcast.recorder.store.Retention;
import org.nakcast.recorder.store.SegmentGeometry;
import org.nakcast.recorder.store.SegmentMaker;
import org.nakcast.recorder.store.SyncPolicy;
import org.nakcast.transport.LineDown;
import org.nakcast.transport.LineUp;
import org.nakcast.transport.LossEvent;
import org.nakcast.transport.MessageHeader;
import org.nakcast.transport.PublisherGone;
import org.nakcast.transport.StreamEventListener;
import org.nakcast.transport.StreamStarted;
import org.nakcast.transport.replay.HoleCause;

/**
 * A simulated recorder process: a real {@link Recorder} on the process's real node, recording every
 * topic of the seed (each as {@link Recorder#asRecorded} has it) into a directory of its own, its
 * duty cycle run in each round after the node's agents, on the simulation's clock. To the
 * publishers it is one more receiver, checked as every subscriber's node is (its streams, losses,
 * NAKs). A crash abandons it as a killed process leaves its files ({@link Recorder#abandon}); a
 * start recovers the directory and goes on. Segments are small (64 KiB) so that recordings span
 * several, and made on the recording thread (the simulation runs no thread of its own), on a disk
 * that may be full for a while (every segment refused meanwhile, tried again every 20 ms) and slow
 * (making a segment may stall the recorder's duty cycle while its node goes on receiving):
 * {@link Scenario.Disk}.
 *
 * <p>At the end of the run its recordings are read back ({@link #checkRecordings}): guarantee 18.
 */
final class RecorderHost extends SubscriberHost {
    private static final SegmentGeometry SEGMENTS = new SegmentGeometry(64 * 1024, 4096);
    /** How long a recording waits to make a segment again after its disk refused one. */
    private static final long SEGMENT_RETRY_NS = 20_000_000;

    private final Path dir;
    private final List<String> topicNames;
    private final Map<Integer, PublishedSession> sessions;
    private Recorder recorder;
    /** Per session, the message ranges its node gave up ({from, end}), over its incarnations. */
    private final Map<Integer, List<long[]>> givenUp = new HashMap<>();
    private final Scenario.Disk disk;
    private final SplittableRandom diskDraws;
    /** Until when making a segment stalls the duty cycle. */
    private long stalledUntilNs;
    /**
     * Per recording whose first segment its full disk refused in this incarnation, with none made
     * since: when the disk first refused it.
     */
    private final Map<Long, Long> unsegmentedSinceNs = new HashMap<>();
    /** When its recorder last did its duty cycle's work. */
    private long recorderWorkedNs = Long.MIN_VALUE;
    /** Segments its full disk refused, and stalls of its slow disk, over its incarnations. */
    long segmentsRefused;
    long stalls;
    /** Recordings read back at the end of the run, and the messages and hole messages in them. */
    long recordingsChecked;
    long messagesChecked;
    long holeMessagesChecked;

    RecorderHost(Scheduler scheduler, List<SimNetwork> lines, String name, Scenario scenario,
        Scenario.SubscriberPlan plan, Map<Integer, PublishedSession> sessions, WireWatch wire, Violations violations,
        SubscriptionProbe.Tally tally, SplittableRandom random, String traced, Path dir, Scenario.Disk disk) {
        super(scheduler, lines, name, scenario, plan, sessions, wire, violations, tally, random, traced,
            Recorder::asRecorded);
        this.dir = dir;
        this.disk = disk;
        this.diskDraws = new SplittableRandom(disk.seed());
        this.sessions = sessions;
        this.topicNames = scenario.config().topics().stream().map(topic -> topic.name()).toList();
    }

    /** A directory of its own for one run's recorder, under {@code /dev/shm} where there is one. */
    static Path newDirectory() throws IOException {
        final Path shared = Path.of("/dev/shm");
        return Files.isDirectory(shared) && Files.isWritable(shared)
            ? Files.createTempDirectory(shared, "nakcast-sim-recorder-")
            : Files.createTempDirectory("nakcast-sim-recorder-");
    }

    /** Whether its recorder runs and answers now: started, and neither crashed nor stopped. */
    boolean isServing() {
        return recorder != null && isRunning();
    }

    /**
     * Whether its disk holds the recorder's duty cycle now (a slow segment): the recorder neither
     * records nor answers a replay meanwhile, as both run on that one thread.
     */
    boolean isStalled(long nowNs) {
        return nowNs < stalledUntilNs;
    }

    /** When the stall its disk holds the recorder's duty cycle in ends (or ended). */
    long stalledUntilNs() {
        return stalledUntilNs;
    }

    /** Its recording directory. */
    Path directory() {
        return dir;
    }

    /** What its catalog holds now. */
    List<RecordingDescriptor> recordings() throws IOException {
        return recorder.recordings();
    }

    /** Whether its node turns that session away, as the recorder was told. */
    boolean turnsAway(int topicId, int sessionId) {
        return recorder.turnsAway(topicId, sessionId);
    }

    /**
     * Whether its recording of a session holds every message from {@code first} to {@code last} now
     * (none of them in a hole): a recovery of them should get them all while it answers.
     */
    boolean holdsAll(int topicId, int sessionId, long first, long last) {
        if (recorder == null) {
            return false;
        }
        try {
            final RecordingDescriptor recording = RecordingDescriptor.find(recorder.recordings(), topicId, sessionId,
                first);
            if (recording == null) {
                return false;
            }
            final long[] next = {first};
            try (RecordingReader reader = RecordingReader.openAt(dir, recording.recordingId(), first)) {
                if (reader == null) {
                    return false;
                }
                final RecordHandler count = new RecordHandler() {
                    @Override
                    public void onMessage(long index, DirectBuffer buffer, int offset, int length, long atNs) {
                        if (index == next[0]) {
                            next[0]++;
                        }
                    }

                    @Override
                    public void onHole(long firstMessage, long holeCount, HoleCause cause) {
                        next[0] = Long.MIN_VALUE;
                    }
                };
                while (next[0] >= 0 && next[0] <= last && reader.poll(count, 256) > 0) {
                    // read on to the last message asked
                }
            }
            return next[0] > last;
        } catch (IOException e) {
            return false;
        }
    }

    /** The node's decisions, checked as every subscriber's are; its losses noted to judge the recorded holes by. */
    @Override
    StreamEventListener decisions() {
        final StreamEventListener checked = super.decisions();
        return new StreamEventListener() {
            @Override
            public void onStreamStarted(StreamStarted event) {
                checked.onStreamStarted(event);
            }

            @Override
            public void onPublisherGone(PublisherGone event) {
                checked.onPublisherGone(event);
            }

            @Override
            public void onLoss(LossEvent event) {
                givenUp.computeIfAbsent(event.sessionId(), session -> new ArrayList<>())
                    .add(new long[] {event.firstMessage(), event.firstMessage() + event.lostMessages()});
                checked.onLoss(event);
            }

            @Override
            public void onLineDown(LineDown event) {
                checked.onLineDown(event);
            }

            @Override
            public void onLineUp(LineUp event) {
                checked.onLineUp(event);
            }

            @Override
            public void onUndecodable(MessageHeader header, CodecException error) {
                checked.onUndecodable(header, error);
            }
        };
    }

    @Override
    void started(long nowNs) {
        super.started(nowNs);
        final RecorderSettings settings = new RecorderSettings(dir, SEGMENTS, SyncPolicy.NONE, SEGMENT_RETRY_NS,
            RecorderSettings.DEFAULT_PROGRESS_INTERVAL_NS, RecorderSettings.DEFAULT_POLL_LIMIT, Retention.FOREVER,
            null, () -> SegmentMaker.inline(this::reserve));
        try {
            recorder = Recorder.start(node, settings, topicNames, scheduler::nowNs);
        } catch (IOException e) {
            violations.add(nowNs, Invariant.ERRORS, name + "'s recorder could not start: " + e);
        }
    }

    @Override
    int work(long nowNs) {
        final int work = super.work(nowNs);
        if (recorder == null || nowNs < stalledUntilNs) {
            return work;
        }
        recorderWorkedNs = nowNs;
        return work + recorder.doWork();
    }

    /**
     * Its disk, asked before each segment is made: a full one refuses it as the file system would;
     * a slow one may make the recording thread wait.
     */
    private void reserve(Path segment, int length) throws IOException {
        final long nowNs = scheduler.nowNs();
        final String file = segment.getFileName().toString();
        final long recordingId = Long.parseLong(file.substring(0, file.indexOf('-')));
        if (disk.isFull(nowNs)) {
            segmentsRefused++;
            if (file.startsWith(recordingId + "-0.")) {
                unsegmentedSinceNs.putIfAbsent(recordingId, nowNs);
            }
            throw new IOException("No space left on device (" + name + "'s simulated disk, for " + segment + ")");
        }
        unsegmentedSinceNs.remove(recordingId);
        if (diskDraws.nextInt(100) < disk.slowPercent()) {
            stalls++;
            stalledUntilNs = nowNs + diskDraws.nextLong(1, disk.slowMaxNs() + 1);
        }
    }

    /**
     * Guarantee 18, as its recorder answers that a recording does not hold a message yet
     * ({@code NOT_HELD}): a recording it is recording whose full disk refused its first segment
     * holds nothing, and once its progress is written (by the first duty cycle a progress interval
     * after the refusal) it says that its disk refuses, which an asker takes at once; one told "not
     * yet" waits a patience at each gap.
     */
    void checkNotHeld(RecordingDescriptor recording, long nowNs) {
        final Long sinceNs = unsegmentedSinceNs.get(recording.recordingId());
        if (sinceNs != null && recording.state() == RecordingState.RECORDING
            && recorderWorkedNs >= sinceNs + RecorderSettings.DEFAULT_PROGRESS_INTERVAL_NS) {
            violations.add(nowNs, Invariant.RECORDING, ("%s answered that its recording %d does not hold a message"
                + " yet, though its disk refused the recording's first segment %.3f ms ago and none was made since:"
                + " it must say that its disk refuses").formatted(name, recording.recordingId(),
                (nowNs - sinceNs) / 1e6));
        }
    }

    @Override
    void onCrash(long nowNs) {
        stalledUntilNs = 0;
        unsegmentedSinceNs.clear();
        if (recorder != null) {
            try {
                recorder.abandon();
            } catch (IOException e) {
                violations.add(nowNs, Invariant.ERRORS, name + "'s recorder could not be abandoned: " + e);
            }
            recorder = null;
        }
        super.onCrash(nowNs);
    }

    /**
     * Guarantee 18, at the end of the run: each recording of a published session, read back from its
     * first message, holds every index once and in order, each message with its published bytes,
     * nothing past what was published, and an end only if its publication was closed; one whose
     * full disk never let it make a segment holds nothing and says so. Recordings of sessions nobody
     * published (a stranger's) are not judged.
     */
    void checkRecordings(long nowNs) {
        if (recorder == null) {
            return;
        }
        try {
            for (RecordingDescriptor recording : recorder.recordings()) {
                final PublishedSession session = sessions.get(recording.sessionId());
                if (session != null) {
                    check(recording, session, nowNs);
                }
            }
        } catch (IOException e) {
            violations.add(nowNs, Invariant.RECORDING, name + "'s recordings could not be read back: " + e);
        }
    }

    private void check(RecordingDescriptor recording, PublishedSession session, long nowNs) throws IOException {
        recordingsChecked++;
        final ReadBack read = new ReadBack(recording, session, givenUp.getOrDefault(session.sessionId, List.of()),
            incarnation > 1, segmentsRefused > 0);
        // a recording whose disk refused its first segment has none: it holds nothing, and says so
        final boolean neverStored = segmentsRefused > 0 && recording.bytes() == 0
            && recording.nextMessageIndex() == recording.firstMessageIndex();
        try (RecordingReader reader = RecordingReader.openAt(dir, recording.recordingId(),
            recording.firstMessageIndex())) {
            if (reader == null && !neverStored) {
                read.wrong("could not be opened at its first message " + recording.firstMessageIndex());
            } else if (reader != null) {
                while (read.problem == null && reader.poll(read, 256) > 0) {
                    // read to what is written
                }
                if (read.problem == null && reader.isEnded() && !session.isClosed()) {
                    read.wrong("ends at " + read.next + " though its publication was never closed");
                }
            }
        }
        if (read.problem == null && read.next > session.published) {
            read.wrong("reaches message " + (read.next - 1) + " though " + session.published + " were published");
        }
        if (read.problem != null) {
            violations.add(nowNs, Invariant.RECORDING, "%s's recording %d of session %d %s".formatted(name,
                recording.recordingId(), session.sessionId, read.problem));
        }
        messagesChecked += read.messages;
        holeMessagesChecked += read.holeMessages;
    }

    /** Deletes the recorder's directory: the run is over. */
    void deleteDirectory() {
        try {
            IoUtil.delete(dir.toFile(), false);
        } catch (RuntimeException e) {
            violations.add(scheduler.nowNs(), Invariant.ERRORS, name + "'s directory " + dir
                + " could not be deleted: " + e);
        }
    }

    /** One recording read back: the index it must hold next, and the first thing found wrong. */
    private static final class ReadBack implements RecordHandler {
        private final PublishedSession session;
        private final List<long[]> givenUp;
        private final boolean restarted;
        private final boolean refused;
        long next;
        long messages;
        long holeMessages;
        String problem;

        /**
         * @param givenUp the message ranges the recorder's node gave up of the session: where a hole
         *     lost in transport may lie
         * @param restarted whether the recorder was ever killed: only then may a hole be one of what
         *     came while it was down
         * @param refused whether its disk ever refused a segment: only then may a hole be one of
         *     what it could not store
         */
        ReadBack(RecordingDescriptor recording, PublishedSession session, List<long[]> givenUp, boolean restarted,
            boolean refused) {
            this.session = session;
            this.givenUp = givenUp;
            this.restarted = restarted;
            this.refused = refused;
            this.next = recording.firstMessageIndex();
        }

        @Override
        public void onMessage(long messageIndex, DirectBuffer buffer, int offset, int length, long recordedAtNs) {
            if (problem != null) {
                return;
            }
            if (messageIndex != next) {
                wrong("holds message %d where %d was next".formatted(messageIndex, next));
            } else if (length != session.messageLength(messageIndex) || !MessageContent.intact(buffer, offset, length)
                || MessageContent.sessionIdOf(buffer, offset) != session.sessionId
                || MessageContent.indexOf(buffer, offset) != messageIndex) {
                wrong("holds message %d of %d bytes that are not the ones published".formatted(messageIndex, length));
            } else {
                next++;
                messages++;
            }
        }

        @Override
        public void onHole(long firstMessage, long count, HoleCause cause) {
            if (problem != null) {
                return;
            }
            if (firstMessage != next || count < 1) {
                wrong("holds a hole of %d at %d where %d was next".formatted(count, firstMessage, next));
            } else if (cause == HoleCause.LOST_IN_TRANSPORT && !covered(firstMessage, firstMessage + count)) {
                wrong("holds messages %d..%d as lost in transport, though its node gave up no such message"
                    .formatted(firstMessage, firstMessage + count - 1));
            } else if (cause == HoleCause.RECORDER_DOWN && !restarted) {
                wrong("holds messages %d..%d as sent while the recorder was down, though it never was"
                    .formatted(firstMessage, firstMessage + count - 1));
            } else if (cause == HoleCause.NOT_STORED && !refused) {
                wrong("holds messages %d..%d as not stored, though its disk never refused a segment"
                    .formatted(firstMessage, firstMessage + count - 1));
            } else if (cause != HoleCause.LOST_IN_TRANSPORT && cause != HoleCause.RECORDER_DOWN
                && cause != HoleCause.NOT_STORED) {
                wrong("holds messages %d..%d as a hole of cause %s, which nothing here brings about"
                    .formatted(firstMessage, firstMessage + count - 1, cause));
            } else {
                next += count;
                holeMessages += count;
            }
        }

        /** Whether the node's losses cover every message of [from, end). */
        private boolean covered(long from, long end) {
            long at = from;
            boolean moved = true;
            while (at < end && moved) {
                moved = false;
                for (long[] range : givenUp) {
                    if (range[0] <= at && at < range[1]) {
                        at = range[1];
                        moved = true;
                    }
                }
            }
            return at >= end;
        }

        void wrong(String what) {
            if (problem == null) {
                problem = what;
            }
        }
    }
}
