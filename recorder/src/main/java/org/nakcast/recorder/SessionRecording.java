package org.nakcast.recorder;

import java.io.IOException;

import org.agrona.DirectBuffer;
import org.nakcast.recorder.store.Catalog;
import org.nakcast.transport.replay.HoleCause;
import org.nakcast.recorder.store.RecordingDescriptor;
import org.nakcast.recorder.store.RecordingEnd;
import org.nakcast.recorder.store.RecordingRecovery;
import org.nakcast.recorder.store.RecordingState;
import org.nakcast.recorder.store.RecordingWriter;
import org.nakcast.recorder.store.SegmentMaker;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The recording of one publisher stream as its messages and losses come: every message index from
 * the first the recorder heard is written down once, as a message or in a hole. A stream the
 * recorder recorded before it stopped goes on in the same recording: what it already holds is not
 * written again, and what was sent while it was down and can no longer be had is a hole
 * ({@link HoleCause#RECORDER_DOWN}). If the disk refuses even the first segment, what comes is
 * written down as a hole ({@link HoleCause#NOT_STORED}) once a segment can be made, in this
 * recording or, if it is stopped first (holding nothing, no segment), when it is resumed.
 */
final class SessionRecording {
    private static final Logger LOG = LoggerFactory.getLogger(SessionRecording.class);

    private final long recordingId;
    private final RecorderSettings settings;
    private final SegmentMaker segments;
    private final Catalog catalog;
    private final long firstMessageIndex;
    private final RecorderCounters counters;
    private final RecorderCounters.Report report;
    private RecordingWriter writer;
    private long retryAtNs;
    private long bytesBefore;
    private long holesBefore;
    /**
     * What reached the recording below this index and is not in its segments, the disk refused: the
     * hole the writer next catches up over is NOT_STORED up to here, RECORDER_DOWN after.
     */
    private long refusedUpTo = Long.MIN_VALUE;
    private boolean refusingReported;
    private long skipped;

    private SessionRecording(long recordingId, RecorderSettings settings, SegmentMaker segments, Catalog catalog,
        long firstMessageIndex, RecorderCounters counters, RecordingWriter writer) {
        this.recordingId = recordingId;
        this.settings = settings;
        this.segments = segments;
        this.catalog = catalog;
        this.firstMessageIndex = firstMessageIndex;
        this.counters = counters;
        this.report = counters.new Report();
        this.writer = writer;
    }

    /** A new recording of a stream whose first message heard is {@code firstMessageIndex}. */
    static SessionRecording begin(Catalog catalog, RecorderSettings settings, SegmentMaker segments,
        RecorderCounters counters, int topicId, String topicName, int sessionId, long firstMessageIndex, long epochNs)
        throws IOException {
        final long id = catalog.add(topicId, topicName, sessionId, 0, firstMessageIndex, epochNs / 1_000_000,
            settings.geometry());
        final SessionRecording recording = new SessionRecording(id, settings, segments, catalog, firstMessageIndex,
            counters, null);
        recording.openWriter(epochNs);
        return recording;
    }

    /** Goes on with a recording its recorder stopped: from where it ends. */
    static SessionRecording resume(Catalog catalog, RecorderSettings settings, SegmentMaker segments,
        RecorderCounters counters, RecordingDescriptor stopped, long epochNs) throws IOException {
        final RecordingEnd end = RecordingRecovery.recover(settings.dir(), stopped.recordingId(),
            stopped.firstMessageIndex());
        final RecordingWriter writer = end.segmentNumber() < 0
            ? RecordingWriter.start(settings.dir(), stopped.recordingId(), end.nextMessageIndex(), stopped.geometry(),
                settings.sync(), settings.retryIntervalNs(), segments, epochNs)
            : RecordingWriter.resume(settings.dir(), end, settings.sync(), settings.retryIntervalNs(), segments,
                epochNs);
        catalog.resume(stopped.recordingId());
        final SessionRecording recording = new SessionRecording(stopped.recordingId(), settings, segments, catalog,
            stopped.firstMessageIndex(), counters, writer);
        recording.bytesBefore = stopped.bytes();
        recording.holesBefore = stopped.holeMessages();
        // What reached it before it stopped (the catalog's progress counts it) and its segments lack,
        // the disk refused; one stopped before its disk let it make a first segment stored nothing,
        // and what it was owed up to where it goes on is what the disk refused.
        recording.refusedUpTo = end.segmentNumber() < 0 && stopped.bytes() == 0 ? Long.MAX_VALUE
            : stopped.nextMessageIndex();
        return recording;
    }

    /** A message of the stream. */
    void message(DirectBuffer buffer, int offset, int length, long messageIndex, long epochNs) {
        if (!catchUp(messageIndex, epochNs)) {
            return;
        }
        if (!writer.appendMessage(buffer, offset, length, messageIndex, epochNs)) {
            reportRefusal();
        } else if (refusingReported) {
            refusingReported = false;
            LOG.info("recording {}: segments can be made again; what the disk refused is a hole before message {}",
                recordingId, messageIndex);
        }
    }

    /** Messages the transport gave up: a hole. */
    void lost(long firstMessage, long count, long epochNs) {
        final long end = firstMessage + count;
        final long from = writer == null ? firstMessage : Math.max(firstMessage, writer.nextMessageIndex());
        if (from >= end || !catchUp(from, epochNs)) {
            return;
        }
        if (!writer.appendHole(from, end - from, HoleCause.LOST_IN_TRANSPORT, epochNs)) {
            reportRefusal();
        }
    }

    /** The publisher ended the stream: the recording ends, and is closed. */
    void end(long epochNs) throws IOException {
        if (writer != null && writer.end(epochNs)) {
            progress();
            catalog.stop(recordingId, RecordingState.ENDED, epochNs / 1_000_000);
        } else {
            stop(epochNs);
        }
        close();
    }

    /** The recorder stops recording the stream before its end: it may be resumed. */
    void stop(long epochNs) throws IOException {
        progress();
        catalog.stop(recordingId, RecordingState.STOPPED, epochNs / 1_000_000);
        close();
    }

    /** Writes the recording's progress to the catalog, and forces the segment if the policy says so. */
    void duty(long epochNs) {
        if (writer != null) {
            writer.sync(epochNs);
        }
        progress();
    }

    /** Messages already held that came again after a resume, and were not written twice. */
    long skipped() {
        return skipped;
    }

    /** The recording's id in the catalog. */
    long recordingId() {
        return recordingId;
    }

    /**
     * Saves the recording's progress in the catalog and adds what its writer did to the counters.
     * Without a writer (the disk refused its first segment), it holds nothing, and says its disk
     * refuses: a replay asking what came since is told so.
     */
    private void progress() {
        if (writer != null) {
            report.of(writer);
            catalog.progress(recordingId, writer.nextMessageIndex(), bytesBefore + writer.bytesStored(),
                holesBefore + writer.holeMessages(), writer.isRefusing());
        } else {
            catalog.progress(recordingId, firstMessageIndex, bytesBefore, holesBefore, true);
        }
    }

    private void close() throws IOException {
        if (writer != null) {
            writer.close();
            writer = null;
        }
    }

    /**
     * Brings the writer to {@code messageIndex}: opens it if it is not yet, skips what it already
     * holds, writes a hole for what it missed.
     *
     * @return whether {@code messageIndex} is to be written now
     */
    private boolean catchUp(long messageIndex, long epochNs) {
        if (writer == null && !openWriter(epochNs)) {
            refusedUpTo = Long.MAX_VALUE;
            return false;
        }
        final long next = writer.nextMessageIndex();
        if (messageIndex < next) {
            skipped++;
            return false;
        }
        if (messageIndex > next) {
            final long refusedEnd = Math.min(messageIndex, Math.max(next, refusedUpTo));
            refusedUpTo = Long.MIN_VALUE;
            // a hole the disk refuses is counted as not stored, and so is the message after it
            boolean stored = refusedEnd == next
                || writer.appendHole(next, refusedEnd - next, HoleCause.NOT_STORED, epochNs);
            if (messageIndex > refusedEnd) {
                stored &= writer.appendHole(refusedEnd, messageIndex - refusedEnd, HoleCause.RECORDER_DOWN, epochNs);
            }
            if (!stored) {
                reportRefusal();
            }
        }
        return true;
    }

    private boolean openWriter(long epochNs) {
        if (epochNs < retryAtNs) {
            return false;
        }
        try {
            writer = RecordingWriter.start(settings.dir(), recordingId, firstMessageIndex, settings.geometry(),
                settings.sync(), settings.retryIntervalNs(), segments, epochNs);
            return true;
        } catch (IOException e) {
            counters.segmentRefused();
            retryAtNs = epochNs + settings.retryIntervalNs();
            if (!refusingReported) {
                refusingReported = true;
                LOG.warn("recording {}: its first segment cannot be made ({}); what comes is written down as a hole"
                    + " once one can", recordingId, e.toString());
            }
            return false;
        }
    }

    private void reportRefusal() {
        if (!refusingReported) {
            refusingReported = true;
            LOG.warn("recording {}: the disk refuses a new segment ({}); what comes is written down as a hole once"
                + " one can be made", recordingId, String.valueOf(writer.lastError()));
        }
    }
}
