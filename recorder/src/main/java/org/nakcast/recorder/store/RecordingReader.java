package org.nakcast.recorder.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads a recording from a message index on: its messages in order and its holes, from stored
 * segments and from the one its writer is still appending to (a read that reaches what is not yet
 * written returns 0 and can be polled again). A frame is handed out only when it is intact:
 * damage is reported as a {@link CorruptSegmentException}, never served.
 *
 * <p>One thread per reader; many readers may read one recording. A segment removed by retention
 * while a reader was still before it ends that reader: {@link #poll} throws
 * {@link SegmentsRemovedException} when it reaches the gap, never waits at it.
 */
public final class RecordingReader implements AutoCloseable {
    private final Path dir;
    private final long recordingId;
    private final RecordFrame frame = new RecordFrame();
    private SegmentFile segment;
    private int position;
    private long skipBelow;
    private boolean ended;

    private RecordingReader(Path dir, long recordingId) {
        this.dir = dir;
        this.recordingId = recordingId;
    }

    /**
     * Opens a reader at the frame that holds {@code messageIndex} (a message, or a hole that
     * covers it).
     *
     * @return the reader; null if the recording does not hold that index: it is before its first
     *     segment still stored, past its end, or more than one past what is written so far (the
     *     next index to be written is held: the reader waits there)
     */
    public static RecordingReader openAt(Path dir, long recordingId, long messageIndex) throws IOException {
        final RecordingReader reader = new RecordingReader(dir, recordingId);
        if (reader.seek(messageIndex)) {
            return reader;
        }
        reader.close();
        return null;
    }

    /**
     * Reads up to {@code limit} messages and holes into {@code handler}.
     *
     * @return how many were handed out; 0 at the end of what is written so far, or after the END frame
     * @throws CorruptSegmentException if a frame or segment is damaged
     * @throws SegmentsRemovedException if retention removed the next segment while this one was read
     */
    public int poll(RecordHandler handler, int limit) throws IOException {
        int handed = 0;
        while (handed < limit && !ended) {
            if (segment.dataLimit() - position < RecordFrame.HEADER_LENGTH) {
                if (!nextSegment()) {
                    break;
                }
                continue;
            }
            final int length = frameAtPosition();
            if (length == 0) {
                break;
            }
            handed += handOut(handler);
            if (frame.type() == RecordFrame.PADDING) {
                if (!nextSegment()) {
                    break;
                }
                continue;
            }
            position += RecordFrame.alignedLength(RecordFrame.payloadLength(length));
        }
        return handed;
    }

    /** Whether the reader has read the recording's END frame: nothing more will come. */
    public boolean isEnded() {
        return ended;
    }

    @Override
    public void close() throws IOException {
        if (segment != null) {
            segment.close();
            segment = null;
        }
    }

    private int handOut(RecordHandler handler) {
        final long index = frame.messageIndex();
        switch (frame.type()) {
            case RecordFrame.MESSAGE -> {
                if (index < skipBelow) {
                    return 0;
                }
                handler.onMessage(index, segment.buffer(), frame.payloadOffset(),
                    RecordFrame.payloadLength(frame.frameLength()), frame.recordedAtNs());
                return 1;
            }
            case RecordFrame.HOLE -> {
                final long end = index + frame.holeCount();
                if (end <= skipBelow) {
                    return 0;
                }
                final long first = Math.max(index, skipBelow);
                handler.onHole(first, end - first, frame.holeCause());
                return 1;
            }
            case RecordFrame.END -> {
                ended = true;
                return 0;
            }
            default -> {
                return 0;
            }
        }
    }

    /**
     * Moves to the next segment if it exists; false if the writer has not made it yet.
     *
     * @throws SegmentsRemovedException if it is gone though a later one exists: retention removed it
     */
    private boolean nextSegment() throws IOException {
        final Path next = SegmentFile.pathOf(dir, recordingId, segment.number() + 1);
        if (!Files.exists(next)) {
            if (hasSegmentAfter(segment.number() + 1)) {
                throw new SegmentsRemovedException(recordingId, segment.number(), nextIndexAtPosition());
            }
            return false;
        }
        if (SegmentFile.isUnfinished(next)) {
            return false;
        }
        final SegmentFile opened = SegmentFile.open(next, false);
        segment.close();
        use(opened);
        position = segment.dataOffset();
        return true;
    }

    /** Whether the recording has a segment numbered above {@code number}: segments are made in order. */
    private boolean hasSegmentAfter(int number) throws IOException {
        final int[] numbers = SegmentFile.numbersOf(dir, recordingId);
        return numbers.length > 0 && numbers[numbers.length - 1] > number;
    }

    /** The message the frame at the read position begins with, where the reader stands. */
    private long nextIndexAtPosition() {
        return frame.messageIndex() + (frame.type() == RecordFrame.PADDING ? 0 : frame.messagesCovered());
    }

    private boolean seek(long messageIndex) throws IOException {
        final int[] numbers = SegmentFile.numbersOf(dir, recordingId);
        int low = 0;
        int high = numbers.length - 1;
        int found = -1;
        while (low <= high) {
            final int mid = (low + high) >>> 1;
            final long first = firstIndexOf(numbers[mid]);
            if (first != Long.MIN_VALUE && first <= messageIndex) {
                found = mid;
                low = mid + 1;
            } else {
                high = mid - 1;
            }
        }
        if (found < 0) {
            return false;
        }
        use(SegmentFile.open(SegmentFile.pathOf(dir, recordingId, numbers[found]), false));
        position = segment.searchStart(frame, messageIndex);
        skipBelow = messageIndex;
        long next = Long.MIN_VALUE;
        while (segment.dataLimit() - position >= RecordFrame.HEADER_LENGTH) {
            final int length = frameAtPosition();
            if (length == 0) {
                break;
            }
            switch (frame.type()) {
                case RecordFrame.END -> {
                    return false;
                }
                case RecordFrame.PADDING -> {
                    // The next segment is not made yet (else it would have been chosen): wait here
                    // if it starts with the index asked for.
                    return frame.messageIndex() == messageIndex;
                }
                default -> {
                    next = frame.messageIndex() + frame.messagesCovered();
                    if (next > messageIndex) {
                        return true;
                    }
                }
            }
            position += RecordFrame.alignedLength(RecordFrame.payloadLength(length));
        }
        // The end of what is written: held if the index asked for is the next one to come.
        return next == messageIndex;
    }

    /**
     * Points the frame at the read position.
     *
     * @return its length; 0 if nothing is written there yet
     * @throws CorruptSegmentException if a frame is there but not intact
     */
    private int frameAtPosition() throws CorruptSegmentException {
        frame.at(position);
        final int length = frame.frameLength();
        if (length != 0 && !frame.isIntact(segment.dataLimit())) {
            throw new CorruptSegmentException(segment.path(), "has a damaged frame at offset " + position);
        }
        return length;
    }

    /** The index of a segment's first frame; {@link Long#MIN_VALUE} if it has none yet. */
    private long firstIndexOf(int number) throws IOException {
        final Path path = SegmentFile.pathOf(dir, recordingId, number);
        if (SegmentFile.isUnfinished(path)) {
            return Long.MIN_VALUE;
        }
        try (SegmentFile candidate = SegmentFile.open(path, false)) {
            final RecordFrame first = new RecordFrame().segment(candidate.buffer(), candidate.newView());
            return first.at(candidate.dataOffset()).isIntact(candidate.dataLimit())
                ? first.messageIndex() : Long.MIN_VALUE;
        }
    }

    private void use(SegmentFile opened) {
        segment = opened;
        frame.segment(opened.buffer(), opened.newView());
    }
}
