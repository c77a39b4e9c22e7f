package org.nakcast.recorder.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * What {@link Retention} knows of a directory's segments from one sweep to the next: the directory
 * listed once per sweep, and each full segment's summary (its size, when its last frame was stored,
 * the message index after it) read once, since a full segment never changes. Only each recording's
 * last segment, which may still grow, is read again at every sweep. Without it a sweep opened and
 * walked every segment of the directory every ten seconds, on the recording thread: thousands of
 * segments for a day of a busy feed.
 *
 * <p>One per recording directory; single-threaded, as its recorder's duty cycle is.
 */
public final class SegmentCensus {
    /** One segment as retention judges it. */
    record Summary(long bytes, long lastFrameNs, long nextMessageIndex) {
    }

    private final Map<Path, Summary> full = new HashMap<>();

    /** The segment numbers of every recording in {@code dir}, lowest first, from one listing. */
    Map<Long, int[]> list(Path dir) throws IOException {
        final Map<Long, List<Integer>> byRecording = new HashMap<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                final String name = file.getFileName().toString();
                final long recordingId = SegmentFile.recordingIdOf(name);
                if (recordingId >= 0) {
                    byRecording.computeIfAbsent(recordingId, id -> new ArrayList<>())
                        .add(SegmentFile.numberOf(name, recordingId));
                }
            }
        }
        final Map<Long, int[]> numbers = new HashMap<>();
        byRecording.forEach((id, list) -> numbers.put(id, list.stream().mapToInt(Integer::intValue).sorted()
            .toArray()));
        return numbers;
    }

    /**
     * The summary of segment {@code number} of {@code recording}: read once and kept if it is full
     * (not its recording's last segment), read now if it is the last.
     */
    Summary summary(Path dir, RecordingDescriptor recording, int number, boolean last) throws IOException {
        final Path path = SegmentFile.pathOf(dir, recording.recordingId(), number);
        final Summary known = full.get(path);
        if (known != null && !last) {
            return known;
        }
        final Summary read;
        try (SegmentFile segment = SegmentFile.open(path, false)) {
            final SegmentEnd end =
                SegmentEnd.of(segment, new RecordFrame().segment(segment.buffer(), segment.newView()));
            final long next = last || end.isEmpty() ? recording.nextMessageIndex() : end.nextMessageIndex();
            read = new Summary(Files.size(path), end.lastRecordedAtNs(), next);
        }
        if (!last) {
            full.put(path, read);
        }
        return read;
    }

    /** The segment at {@code path} is gone: its summary too. */
    void removed(Path path) {
        full.remove(path);
    }

    /** How many full segments' summaries it holds: one per full segment still in the directory. */
    int known() {
        return full.size();
    }
}
