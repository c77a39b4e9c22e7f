package org.nakcast.recorder.store;

import java.io.IOException;
import java.nio.file.Path;

import org.agrona.DirectBuffer;
import org.nakcast.transport.replay.HoleCause;

/**
 * Appends one recording, a publisher stream's messages in order, to its segment files: each
 * message as a MESSAGE frame, each run the recorder does not hold as one HOLE frame, the stream's
 * end as an END frame (see {@link RecordFrame}). Every message index from the first on is
 * accounted for by exactly one frame: a message given out of order is refused, so nothing is
 * ever skipped silently.
 *
 * <p>When a frame does not fit the active segment, the rest of it becomes a PADDING frame and the
 * next segment is made. If the next segment cannot be made (a full disk), appends return false
 * and the writer keeps count of what it could not store; it tries again at most once per
 * {@code retryIntervalNs}, and once a segment is made, it first writes one HOLE frame
 * ({@link HoleCause#NOT_STORED}) for everything it missed, then goes on.
 *
 * <p>Single-threaded: one writer per recording. Readers on other threads may read what it has
 * written (frame lengths are written last, with release order). Appending allocates nothing;
 * changing segments does. Segments are made, and full ones forced and closed, by its
 * {@link SegmentMaker}: ahead of need, off the recording thread, in a recorder.
 */
public final class RecordingWriter implements AutoCloseable {
    private static final long NONE = -1;
    private static final int HOLE_FRAME_LENGTH = RecordFrame.alignedLength(RecordFrame.HOLE_PAYLOAD_LENGTH);

    private final Path dir;
    private final long recordingId;
    private final SegmentGeometry geometry;
    private final SyncPolicy sync;
    private final long retryIntervalNs;
    private final SegmentMaker segments;
    private final RecordFrame frame = new RecordFrame();
    private SegmentFile active;
    private int nextSegmentNumber;
    private int position;
    private int nextEntry;
    private long nextMessageIndex;
    private long unstoredFrom = NONE;
    private long retryAtNs;
    private long nextSyncNs;
    private IOException lastError;
    private boolean ended;
    private long messagesStored;
    private long bytesStored;
    private long holeMessages;
    private long holesStored;
    private long messagesNotStored;
    private long segmentsMade;
    private long segmentsRefused;

    private RecordingWriter(Path dir, long recordingId, SegmentGeometry geometry, SyncPolicy sync,
        long retryIntervalNs, SegmentMaker segments, long nextMessageIndex) {
        this.dir = dir;
        this.recordingId = recordingId;
        this.geometry = geometry;
        this.sync = sync;
        this.retryIntervalNs = retryIntervalNs;
        this.segments = segments;
        this.nextMessageIndex = nextMessageIndex;
    }

    /**
     * Starts a new recording in {@code dir}: makes its first segment.
     *
     * @param firstMessageIndex the index of the first message it will hold
     * @param retryIntervalNs how long to wait before making a segment again after a failure
     * @param segments where its segments are made and its full ones forced and closed
     * @param epochNs now, epoch nanoseconds
     * @throws IOException if the first segment cannot be made (the recording does not start)
     */
    public static RecordingWriter start(Path dir, long recordingId, long firstMessageIndex, SegmentGeometry geometry,
        SyncPolicy sync, long retryIntervalNs, SegmentMaker segments, long epochNs) throws IOException {
        final RecordingWriter writer = new RecordingWriter(dir, recordingId, geometry, sync, retryIntervalNs,
            segments, firstMessageIndex);
        writer.activate(segments.take(dir, recordingId, 0, geometry), geometry.dataOffset(), epochNs);
        writer.segmentsMade++;
        return writer;
    }

    /**
     * Goes on with a recording after {@link RecordingRecovery} found its end: appends after the
     * last intact frame of its last segment.
     *
     * @param end where the recovered recording ends; it must not have ended with an END frame
     * @param segments where its next segments are made and its full ones forced and closed
     * @throws IOException if the last segment cannot be opened for writing
     */
    public static RecordingWriter resume(Path dir, RecordingEnd end, SyncPolicy sync, long retryIntervalNs,
        SegmentMaker segments, long epochNs) throws IOException {
        if (end.ended()) {
            throw new IllegalArgumentException("recording " + end.recordingId() + " ended; it cannot be resumed");
        }
        final SegmentFile last = SegmentFile.open(SegmentFile.pathOf(dir, end.recordingId(), end.segmentNumber()),
            true);
        final RecordingWriter writer = new RecordingWriter(dir, end.recordingId(), last.geometry(), sync,
            retryIntervalNs, segments, end.nextMessageIndex());
        writer.activate(last, end.endOffset(), epochNs);
        segments.prepare(dir, end.recordingId(), last.number() + 1, last.geometry());
        return writer;
    }

    /**
     * Appends one message.
     *
     * @param messageIndex its index: the next one this recording expects ({@link #nextMessageIndex()})
     * @param epochNs now, epoch nanoseconds: stored with the frame
     * @return true if stored; false if no segment could take it (see {@link #lastError()}): it will be
     *     part of a hole
     * @throws IllegalArgumentException if the index is not the next one, or the message is longer
     *     than a segment holds
     * @throws IllegalStateException if the recording has ended
     */
    public boolean appendMessage(DirectBuffer message, int offset, int length, long messageIndex, long epochNs) {
        checkNext(messageIndex, 1);
        if (length > geometry.maxMessageLength()) {
            throw new IllegalArgumentException("a message of " + length + " bytes does not fit a segment of "
                + geometry.segmentLength() + " bytes (at most " + geometry.maxMessageLength() + ")");
        }
        if (!makeRoom(RecordFrame.alignedLength(length), epochNs)) {
            return notStored(messageIndex, 1);
        }
        openFrame(messageIndex);
        active.buffer().putBytes(frame.payloadOffset(), message, offset, length);
        frame.commit(RecordFrame.MESSAGE, messageIndex, epochNs, length);
        closeFrame(RecordFrame.alignedLength(length));
        messagesStored++;
        nextMessageIndex++;
        return true;
    }

    /**
     * Appends a hole: {@code count} messages from {@code firstMessage} that the recorder does not have.
     *
     * @param firstMessage the next index this recording expects
     * @return true if stored; false if no segment could take it: the run becomes part of a
     *     {@link HoleCause#NOT_STORED} hole
     */
    public boolean appendHole(long firstMessage, long count, HoleCause cause, long epochNs) {
        checkNext(firstMessage, count);
        if (!makeRoom(HOLE_FRAME_LENGTH, epochNs)) {
            return notStored(firstMessage, count);
        }
        writeHole(firstMessage, count, cause, epochNs);
        nextMessageIndex += count;
        return true;
    }

    /**
     * Ends the recording: its publisher ended the stream. Writes an END frame (after a pending
     * hole, if any) and forces the segment unless the policy is {@link SyncPolicy#NONE}.
     *
     * @return true if the END frame was stored; false if no segment could take it (the recording
     *     then stops as if its recorder had stopped)
     */
    public boolean end(long epochNs) {
        if (ended) {
            return true;
        }
        if (!makeRoom(RecordFrame.HEADER_LENGTH, epochNs)) {
            return false;
        }
        openFrame(nextMessageIndex);
        frame.commit(RecordFrame.END, nextMessageIndex, epochNs, 0);
        closeFrame(RecordFrame.HEADER_LENGTH);
        ended = true;
        if (sync.forcesClosedSegments()) {
            active.force();
        }
        return true;
    }

    /**
     * Forces the active segment if the policy is periodic and its interval has passed. Called from
     * the recorder's duty cycle.
     *
     * @return 1 if it forced, else 0
     */
    public int sync(long epochNs) {
        if (sync.mode() != SyncPolicy.Mode.PERIODIC || active == null || epochNs < nextSyncNs) {
            return 0;
        }
        active.force();
        nextSyncNs = epochNs + sync.intervalNs();
        return 1;
    }

    /** The index the next message (or hole) must have. */
    public long nextMessageIndex() {
        return nextMessageIndex;
    }

    /** Why the last append that returned false was not stored; null if none failed. */
    public IOException lastError() {
        return lastError;
    }

    /** Whether messages were refused and are not yet written down as a hole. */
    public boolean isRefusing() {
        return unstoredFrom != NONE;
    }

    /** The recording's id. */
    public long recordingId() {
        return recordingId;
    }

    /** Messages stored by this writer. */
    public long messagesStored() {
        return messagesStored;
    }

    /** Frame bytes written by this writer, headers and alignment included. */
    public long bytesStored() {
        return bytesStored;
    }

    /** Messages this writer wrote down as holes, whatever the cause. */
    public long holeMessages() {
        return holeMessages;
    }

    /** Holes (runs of messages the recorder does not have) written by this writer. */
    public long holesStored() {
        return holesStored;
    }

    /** Segment files this writer made, its first one included. */
    public long segmentsMade() {
        return segmentsMade;
    }

    /** Times this writer could not make a segment file (the disk full, or refusing). */
    public long segmentsRefused() {
        return segmentsRefused;
    }

    /** Messages that came while no segment could take them. */
    public long messagesNotStored() {
        return messagesNotStored;
    }

    /**
     * Closes the active segment, forcing it first unless the policy is {@link SyncPolicy#NONE}, and
     * lets go of the segment made ahead for it.
     */
    @Override
    public void close() throws IOException {
        segments.release(recordingId);
        if (active != null) {
            if (sync.forcesClosedSegments()) {
                active.force();
            }
            active.close();
            active = null;
        }
    }

    private void checkNext(long messageIndex, long count) {
        if (ended) {
            throw new IllegalStateException("recording " + recordingId + " has ended");
        }
        if (messageIndex != nextMessageIndex) {
            throw new IllegalArgumentException("recording " + recordingId + " expects message " + nextMessageIndex
                + " next, not " + messageIndex + ": a gap is written down as a hole, never skipped");
        }
        if (count < 1) {
            throw new IllegalArgumentException("a hole of " + count + " messages");
        }
    }

    private boolean notStored(long messageIndex, long count) {
        if (unstoredFrom == NONE) {
            unstoredFrom = messageIndex;
        }
        nextMessageIndex += count;
        messagesNotStored += count;
        return false;
    }

    /** Room for a frame of {@code frameLength}, with the hole of what was refused written first. */
    private boolean makeRoom(int frameLength, long epochNs) {
        if (unstoredFrom != NONE) {
            if (!room(HOLE_FRAME_LENGTH, epochNs)) {
                return false;
            }
            writeHole(unstoredFrom, nextMessageIndex - unstoredFrom, HoleCause.NOT_STORED, epochNs);
            unstoredFrom = NONE;
        }
        return room(frameLength, epochNs);
    }

    private boolean room(int frameLength, long epochNs) {
        if (active != null && position + frameLength <= active.dataLimit()) {
            return true;
        }
        if (active == null && epochNs < retryAtNs) {
            return false;
        }
        if (active != null) {
            closeFull(epochNs);
        }
        try {
            activate(segments.take(dir, recordingId, nextSegmentNumber, geometry), geometry.dataOffset(), epochNs);
            segmentsMade++;
            return true;
        } catch (IOException e) {
            segmentsRefused++;
            lastError = e;
            retryAtNs = epochNs + retryIntervalNs;
            return false;
        }
    }

    private void closeFull(long epochNs) {
        final int rest = active.dataLimit() - position;
        if (rest >= RecordFrame.HEADER_LENGTH) {
            final long padIndex = unstoredFrom != NONE ? unstoredFrom : nextMessageIndex;
            openFrame(padIndex);
            frame.commit(RecordFrame.PADDING, padIndex, epochNs, RecordFrame.payloadLength(rest));
            bytesStored += rest;
        }
        segments.retire(active, sync.forcesClosedSegments());
        active = null;
    }

    private void activate(SegmentFile segment, int startOffset, long epochNs) {
        active = segment;
        frame.segment(segment.buffer(), segment.newView());
        position = startOffset;
        nextEntry = segment.writtenEntries();
        nextSegmentNumber = segment.number() + 1;
        nextSyncNs = epochNs + sync.intervalNs();
    }

    private void writeHole(long firstMessage, long count, HoleCause cause, long epochNs) {
        openFrame(firstMessage);
        frame.holePayload(count, cause);
        frame.commit(RecordFrame.HOLE, firstMessage, epochNs, RecordFrame.HOLE_PAYLOAD_LENGTH);
        closeFrame(HOLE_FRAME_LENGTH);
        holeMessages += count;
        holesStored++;
    }

    /** Points the frame at the write position and writes the index entries up to it. */
    private void openFrame(long messageIndex) {
        frame.at(position);
        final int entry = active.entryFor(position);
        while (nextEntry <= entry) {
            active.putEntry(nextEntry++, messageIndex, position);
        }
    }

    private void closeFrame(int alignedLength) {
        position += alignedLength;
        bytesStored += alignedLength;
    }
}
