package org.nakcast.recorder.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Finds where a recording's stored frames end after its recorder stopped, cleanly or not, and
 * makes that end clean: a torn frame after the last intact one (its process died while writing
 * it) is cleared, with the index entries that point past the end, so it is never served and the
 * next frame can be written there.
 *
 * <p>Only the last segment can have a torn tail: a segment is written in order, and the next is
 * made only after a PADDING frame closed it. A last segment whose making was cut short held no
 * frame and is removed. Any other damage is not guessed at: it is reported as a
 * {@link CorruptSegmentException}.
 */
public final class RecordingRecovery {
    private RecordingRecovery() {
    }

    /**
     * Finds and cleans the end of a recording.
     *
     * @param dir the recording's directory
     * @param recordingId the recording
     * @param firstMessageIndex the index of the recording's first message (from the catalog): the
     *     next index of a recording that stored no frame
     * @return where it ends
     * @throws CorruptSegmentException if a segment it needs is damaged in a way a crash cannot cause
     */
    public static RecordingEnd recover(Path dir, long recordingId, long firstMessageIndex) throws IOException {
        int[] numbers = SegmentFile.numbersOf(dir, recordingId);
        if (numbers.length > 0 && SegmentFile.isUnfinished(SegmentFile.pathOf(dir, recordingId, last(numbers)))) {
            Files.delete(SegmentFile.pathOf(dir, recordingId, last(numbers)));
            numbers = SegmentFile.numbersOf(dir, recordingId);
        }
        if (numbers.length == 0) {
            return new RecordingEnd(recordingId, -1, 0, firstMessageIndex, false, 0);
        }
        try (SegmentFile segment = SegmentFile.open(SegmentFile.pathOf(dir, recordingId, last(numbers)), true)) {
            final RecordFrame frame = new RecordFrame().segment(segment.buffer(), segment.newView());
            final SegmentEnd end = SegmentEnd.of(segment, frame);
            final long cut = clearFrom(segment, end.endOffset());
            long next = end.nextMessageIndex();
            if (end.isEmpty()) {
                next = numbers.length > 1
                    ? endOfFull(dir, recordingId, numbers[numbers.length - 2]) : firstMessageIndex;
            }
            if (cut > 0) {
                segment.force();
            }
            return new RecordingEnd(recordingId, segment.number(), end.endOffset(), next, end.ended(), cut);
        }
    }

    /** The next message index of a full segment: its PADDING frame's. */
    private static long endOfFull(Path dir, long recordingId, int number) throws IOException {
        try (SegmentFile segment = SegmentFile.open(SegmentFile.pathOf(dir, recordingId, number), false)) {
            final RecordFrame frame = new RecordFrame().segment(segment.buffer(), segment.newView());
            return SegmentEnd.of(segment, frame).nextMessageIndex();
        }
    }

    /**
     * Clears every non-zero byte from {@code offset} to the segment's end, and the index entries
     * that name a frame there; returns how many bytes of frames it cleared.
     */
    private static long clearFrom(SegmentFile segment, int offset) {
        long cleared = 0;
        for (int at = offset; at < segment.dataLimit(); at += Long.BYTES) {
            if (segment.buffer().getLong(at) != 0) {
                segment.buffer().putLong(at, 0);
                cleared += Long.BYTES;
            }
        }
        int entry = 0;
        while (entry < segment.geometry().indexEntries() && segment.entryFrameOffset(entry) != 0
            && segment.entryFrameOffset(entry) < offset) {
            entry++;
        }
        segment.clearEntriesFrom(entry);
        return cleared;
    }

    private static int last(int[] numbers) {
        return numbers[numbers.length - 1];
    }
}
