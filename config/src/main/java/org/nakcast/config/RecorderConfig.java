package org.nakcast.config;

import com.fasterxml.jackson.annotation.JsonProperty;

import java.nio.file.Path;
import java.time.Duration;

/**
 * The {@code recorder:} section: how a recorder run with this config keeps the topics marked
 * {@code record: true}. Every key is optional; a config without the section records with the
 * defaults. Nodes that do not record ignore it.
 *
 * <pre>{@code
 * recorder:
 *   dir: /var/lib/nakcast/recordings
 *   segment-length: 128m     # one file per 128 MiB of a session's messages
 *   sync: segment            # none | segment | periodic
 *   max-age: 7d              # whole segments older than this go
 *   max-size: 200g           # and the oldest go while the segments take more
 *   replay-endpoint: 10.0.0.7:40480
 * }</pre>
 *
 * @param dir the recording directory: its catalog and segment files, one recorder at a time;
 *     default {@code recordings} in the working directory, made absolute when concluded
 * @param segmentLength the length of each segment file: a multiple of {@code 4k} from {@code 64k} to
 *     {@code 1g}; default {@code 128m}. A recorded topic's {@code max-message} must fit half of it
 * @param sync when what was recorded is forced to the disk; default {@link RecordingSync#SEGMENT}
 * @param syncInterval with {@code sync: periodic}, how often; default {@code 1s}; refused with the
 *     other sync modes, where it would mean nothing
 * @param maxAge whole segments whose last message is older than this are removed; default none
 * @param maxSize while the directory's segments take more than this, the oldest are removed;
 *     default none. At least one segment
 * @param replayEndpoint where the recorder answers replay requests (TCP): an address of this host
 *     and a port; default {@code 127.0.0.1:40480}, this host alone. Subscribers on other hosts need
 *     the address of the interface they reach it by
 * @param replayClients the most replay connections served at once; default 16. A further one is
 *     refused with the reason, and closed
 * @param replayRequestLimit the most messages one replay request may ask for; default 10,000,000.
 *     A longer range is refused with the limit named: ask in parts
 */
public record RecorderConfig(
    @JsonProperty("dir") Path dir,
    @JsonProperty("segment-length") ByteSize segmentLength,
    @JsonProperty("sync") RecordingSync sync,
    @JsonProperty("sync-interval") Duration syncInterval,
    @JsonProperty("max-age") Duration maxAge,
    @JsonProperty("max-size") ByteSize maxSize,
    @JsonProperty("replay-endpoint") Endpoint replayEndpoint,
    @JsonProperty("replay-clients") Integer replayClients,
    @JsonProperty("replay-request-limit") Long replayRequestLimit) {

    /** The default recording directory, in the working directory. */
    public static final Path DEFAULT_DIR = Path.of("recordings");
    /** The default segment length. */
    public static final ByteSize DEFAULT_SEGMENT_LENGTH = ByteSize.parse("128m");
    /** The default sync: each segment when it is closed. */
    public static final RecordingSync DEFAULT_SYNC = RecordingSync.SEGMENT;
    /** The default interval of {@code sync: periodic}. */
    public static final Duration DEFAULT_SYNC_INTERVAL = Duration.ofSeconds(1);
    /** The longest name of a recorded topic, in UTF-8 bytes: what a recording's catalog entry holds. */
    public static final int MAX_TOPIC_NAME_BYTES = 160;
    /** The default replay endpoint: this host alone. */
    public static final Endpoint DEFAULT_REPLAY_ENDPOINT = Endpoint.parse("127.0.0.1:40480");
    /** The default number of replay connections served at once. */
    public static final int DEFAULT_REPLAY_CLIENTS = 16;
    /** The default number of messages one replay request may ask for. */
    public static final long DEFAULT_REPLAY_REQUEST_LIMIT = 10_000_000;

    /**
     * Applies the defaults for what is null, but the sync interval (only {@code periodic} has one:
     * {@link #syncIntervalOrDefault()}) and retention (none when left out).
     */
    public RecorderConfig {
        dir = dir == null ? DEFAULT_DIR : dir;
        segmentLength = segmentLength == null ? DEFAULT_SEGMENT_LENGTH : segmentLength;
        sync = sync == null ? DEFAULT_SYNC : sync;
        replayEndpoint = replayEndpoint == null ? DEFAULT_REPLAY_ENDPOINT : replayEndpoint;
        replayClients = replayClients == null ? DEFAULT_REPLAY_CLIENTS : replayClients;
        replayRequestLimit = replayRequestLimit == null ? DEFAULT_REPLAY_REQUEST_LIMIT : replayRequestLimit;
    }

    /** @return every setting at its default */
    public static RecorderConfig defaults() {
        return new RecorderConfig(null, null, null, null, null, null, null, null, null);
    }

    /** @return the interval of {@code sync: periodic}: the one written, or the default */
    public Duration syncIntervalOrDefault() {
        return syncInterval == null ? DEFAULT_SYNC_INTERVAL : syncInterval;
    }

    /** @return this section with that recording directory */
    public RecorderConfig withDir(Path recordingDir) {
        return RecordKeys.with(this, "dir", recordingDir);
    }

    /** @return this section with that segment length */
    public RecorderConfig withSegmentLength(ByteSize length) {
        return RecordKeys.with(this, "segment-length", length);
    }

    /** @return this section with {@code sync: periodic} at that interval */
    public RecorderConfig withPeriodicSync(Duration interval) {
        return RecordKeys.with(RecordKeys.with(this, "sync", RecordingSync.PERIODIC), "sync-interval", interval);
    }

    /** @return this section with that sync mode, one without an interval */
    public RecorderConfig withSync(RecordingSync mode) {
        return RecordKeys.with(this, "sync", mode);
    }

    /** @return this section keeping segments no older than {@code age} */
    public RecorderConfig withMaxAge(Duration age) {
        return RecordKeys.with(this, "max-age", age);
    }

    /** @return this section keeping segments that take no more than {@code size} */
    public RecorderConfig withMaxSize(ByteSize size) {
        return RecordKeys.with(this, "max-size", size);
    }

    /** @return this section answering replay requests at {@code endpoint} */
    public RecorderConfig withReplayEndpoint(Endpoint endpoint) {
        return RecordKeys.with(this, "replay-endpoint", endpoint);
    }

    /** @return this section serving at most {@code clients} replay connections at once */
    public RecorderConfig withReplayClients(int clients) {
        return RecordKeys.with(this, "replay-clients", clients);
    }

    /** @return this section taking replay requests of at most {@code messages} */
    public RecorderConfig withReplayRequestLimit(long messages) {
        return RecordKeys.with(this, "replay-request-limit", messages);
    }
}
