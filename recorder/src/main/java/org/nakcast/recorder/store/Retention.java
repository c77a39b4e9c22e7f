package org.nakcast.recorder.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

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
     * @param census what the sweeps before this one learned of the directory's segments
     * @return the segment files removed
     */
    public List<Path> apply(Path dir, Catalog catalog, long epochNs, SegmentCensus census) throws IOException {
        final Map<Long, int[]> listed = census.list(dir);
        final List<Segment> segments = new ArrayList<>();
        long bytes = 0;
        for (RecordingDescriptor recording : catalog.list()) {
            final int[] numbers = listed.getOrDefault(recording.recordingId(), new int[0]);
            for (int i = 0; i < numbers.length; i++) {
                final boolean last = i == numbers.length - 1;
                final SegmentCensus.Summary summary = census.summary(dir, recording, numbers[i], last);
                bytes += summary.bytes();
                if (!last || recording.state() != RecordingState.RECORDING) {
                    segments.add(new Segment(SegmentFile.pathOf(dir, recording.recordingId(), numbers[i]),
                        recording.recordingId(), summary));
                }
            }
        }
        segments.sort(Comparator.comparingLong(segment -> segment.summary.lastFrameNs()));
        final List<Path> removed = new ArrayList<>();
        for (Segment segment : segments) {
            final boolean tooOld = maxAgeNs != Long.MAX_VALUE && segment.summary.lastFrameNs() < epochNs - maxAgeNs;
            if (!tooOld && bytes <= maxBytes) {
                break;
            }
            Files.delete(segment.path);
            census.removed(segment.path);
            removed.add(segment.path);
            bytes -= segment.summary.bytes();
            catalog.trimmed(segment.recordingId, segment.summary.nextMessageIndex());
        }
        return removed;
    }

    /** One segment that may be removed, and what retention judges it by. */
    private record Segment(Path path, long recordingId, SegmentCensus.Summary summary) {
    }
}
