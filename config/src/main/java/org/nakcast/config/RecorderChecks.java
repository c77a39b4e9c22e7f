package org.nakcast.config;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

/**
 * Checks the {@code recorder:} section, and the topics it records against it: a segment length a
 * recorder can map (a multiple of {@code 4k} from {@code 64k} to {@code 1g}), a sync interval
 * only with {@code sync: periodic} and then positive, a positive {@code max-age}, a
 * {@code max-size} of at least one segment, a recorded topic's {@code max-message} within half a
 * segment (every message fits one record) and its name within what the catalog holds, and at least
 * one replay client and message per request. Concluded, the directory is absolute.
 */
final class RecorderChecks {
    /** The shortest segment. */
    static final ByteSize MIN_SEGMENT_LENGTH = ByteSize.parse("64k");
    /** The longest segment: one mapping, addressed by an int. */
    static final ByteSize MAX_SEGMENT_LENGTH = ByteSize.parse("1g");
    /** Segments are laid out in pages of this size. */
    private static final long PAGE = 4096;
    private static final String SECTION = "recorder";

    private final ProblemList problems;

    RecorderChecks(ProblemList problems) {
        this.problems = problems;
    }

    /**
     * @param recorder the section, defaults applied
     * @param topics the config's topics, checked for what a recorder needs of those marked
     *     {@code record: true}
     * @return the section with its directory made absolute
     */
    RecorderConfig conclude(RecorderConfig recorder, List<TopicConfig> topics) {
        final ByteSize segment = recorder.segmentLength();
        final boolean segmentFits = segment.compareTo(MIN_SEGMENT_LENGTH) >= 0
            && segment.compareTo(MAX_SEGMENT_LENGTH) <= 0 && segment.bytes() % PAGE == 0;
        if (!segmentFits) {
            problems.add(path("segment-length"), "segment-length must be a multiple of 4k from 64k to 1g (was "
                + segment + ")", "each segment is one file, mapped whole, of that length");
        }
        checkSync(recorder);
        if (recorder.maxAge() != null && (recorder.maxAge().isNegative() || recorder.maxAge().isZero())) {
            problems.add(path("max-age"), "max-age must be positive (was " + Durations.format(recorder.maxAge())
                + ")", "leave it out to keep segments whatever their age");
        }
        if (recorder.maxSize() != null && recorder.maxSize().compareTo(segment) < 0) {
            problems.add(path("max-size"), "max-size must hold at least one segment (was " + recorder.maxSize()
                + ", segment-length " + segment + ")", "leave it out to keep segments whatever they take");
        }
        if (segmentFits) {
            checkRecordedMessages(segment, topics);
        }
        checkRecordedNames(topics);
        if (recorder.replayClients() < 1) {
            problems.add(path("replay-clients"), "replay-clients must be at least 1 (was " + recorder.replayClients()
                + ")");
        }
        if (recorder.replayRequestLimit() < 1) {
            problems.add(path("replay-request-limit"), "replay-request-limit must be at least 1 (was "
                + recorder.replayRequestLimit() + ")");
        }
        return recorder.withDir(recorder.dir().toAbsolutePath().normalize());
    }

    private void checkSync(RecorderConfig recorder) {
        final Duration interval = recorder.syncInterval();
        if (interval == null) {
            return;
        }
        if (recorder.sync() != RecordingSync.PERIODIC) {
            problems.add(path("sync-interval"), "sync-interval is read only with sync: periodic (sync is "
                + EnumNames.yamlName(recorder.sync()) + ")", "write sync: periodic, or leave sync-interval out");
        } else if (interval.isNegative() || interval.isZero()) {
            problems.add(path("sync-interval"), "sync-interval must be positive (was " + Durations.format(interval)
                + ")");
        }
    }

    private void checkRecordedNames(List<TopicConfig> topics) {
        for (int i = 0; i < topics.size(); i++) {
            final TopicConfig topic = topics.get(i);
            if (topic != null && topic.record() && topic.name() != null
                && topic.name().getBytes(StandardCharsets.UTF_8).length > RecorderConfig.MAX_TOPIC_NAME_BYTES) {
                problems.add(KeyPaths.child(KeyPaths.element("topics", i), "name"), "topic '" + topic.name()
                    + "' is recorded, and its name is longer than the " + RecorderConfig.MAX_TOPIC_NAME_BYTES
                    + " bytes (UTF-8) a recording's catalog entry holds", "shorten the name");
            }
        }
    }

    private void checkRecordedMessages(ByteSize segment, List<TopicConfig> topics) {
        for (int i = 0; i < topics.size(); i++) {
            final TopicConfig topic = topics.get(i);
            if (topic != null && topic.record() && topic.maxMessage().bytes() > segment.bytes() / 2) {
                problems.add(KeyPaths.child(KeyPaths.element("topics", i), "max-message"), "topic '" + topic.name()
                    + "' is recorded, and its max-message (" + topic.maxMessage() + ") is more than half a recorder"
                    + " segment (recorder.segment-length " + segment + ")",
                    "a recorded message takes one record in one segment: lower max-message or raise segment-length");
            }
        }
    }

    private static String path(String key) {
        return KeyPaths.child(SECTION, key);
    }
}
