package org.nakcast.recorder.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * How long a recording directory keeps what it recorded: by age and by size, a whole segment at a
 * time, oldest first. A segment goes when everything in it is older than {@code maxAgeNs}, or while
 * the directory's segments take more than {@code maxBytes}; the segment a recorder is appending to
 * never goes. The catalog's first message index of a recording moves on with what is removed, so a
 * request for what is gone is refused by what the catalog says, and a reader already in a removed
 * segment reads it to its end (its mapping outlives the file).
 *
 * @param maxAgeNs the oldest a segment's last frame may be; {@link Long#MAX_VALUE}: no limit
 * @param maxBytes the most the directory's segments may take; {@link Long#MAX_VALUE}: no limit
 */
public record Retention(long maxAgeNs, long maxBytes) {
    /** Keep everything. */
    public static final Retention FOREVER = new Retention(Long.MAX_VALUE, Long.MAX_VALUE);

    /** Checks both limits are positive. */
    public Retention {
        if (maxAgeNs <= 0 || maxBytes <= 0) {
            throw new IllegalArgumentException("retention of " + maxAgeNs + " ns and " + maxBytes
                + " bytes: both must be positive");
        }
    }

    /**
     * Removes what this retention no longer keeps from {@code dir}.
     *
     * @param catalog the directory's catalog, held by its recorder
     * @param epochNs now, epoch nanoseconds
     * @return the segment files removed
     */
    public List<Path> apply(Path dir, Catalog catalog, long epochNs) throws IOException {
        final List<Segment> segments = new ArrayList<>();
        long bytes = 0;
        for (RecordingDescriptor recording : catalog.list()) {
            final int[] numbers = SegmentFile.numbersOf(dir, recording.recordingId());
            for (int i = 0; i < numbers.length; i++) {
                final boolean last = i == numbers.length - 1;
                final Segment segment = Segment.of(dir, recording, numbers[i], last);
                bytes += segment.bytes;
                if (!last || recording.state() != RecordingState.RECORDING) {
                    segments.add(segment);
                }
            }
        }
        segments.sort(Comparator.comparingLong(segment -> segment.lastFrameNs));
        final List<Path> removed = new ArrayList<>();
        for (Segment segment : segments) {
            final boolean tooOld = maxAgeNs != Long.MAX_VALUE && segment.lastFrameNs < epochNs - maxAgeNs;
            if (!tooOld && bytes <= maxBytes) {
                break;
            }
            Files.delete(segment.path);
            removed.add(segment.path);
            bytes -= segment.bytes;
            catalog.trimmed(segment.recordingId, segment.nextMessageIndex);
        }
        return removed;
    }

    /** One segment that may be removed: when its last frame was stored, and what follows it. */
    private record Segment(Path path, long recordingId, long bytes, long lastFrameNs, long nextMessageIndex) {
        static Segment of(Path dir, RecordingDescriptor recording, int number, boolean last) throws IOException {
            final Path path = SegmentFile.pathOf(dir, recording.recordingId(), number);
            try (SegmentFile segment = SegmentFile.open(path, false)) {
                final SegmentEnd end = SegmentEnd.of(segment,
                    new RecordFrame().segment(segment.buffer(), segment.newView()));
                final long next = last || end.isEmpty() ? recording.nextMessageIndex() : end.nextMessageIndex();
                return new Segment(path, recording.recordingId(), Files.size(path), end.lastRecordedAtNs(), next);
            }
        }
    }
}
