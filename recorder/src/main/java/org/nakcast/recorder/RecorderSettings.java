package org.nakcast.recorder;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.nakcast.config.RecorderConfig;
import org.nakcast.recorder.store.Retention;
import org.nakcast.recorder.store.SegmentGeometry;
import org.nakcast.recorder.store.SegmentMaker;
import org.nakcast.recorder.store.SegmentSpace;
import org.nakcast.recorder.store.SyncPolicy;

/**
 * How a {@link Recorder} keeps what it records.
 *
 * @param dir the recording directory: its catalog and segment files; one recorder per directory
 * @param geometry the shape of new recordings' segment files
 * @param sync when segments are forced to the disk
 * @param retryIntervalNs how long to wait before making a segment again after the disk refused one
 * @param progressIntervalNs how often each open recording's progress is written to the catalog
 * @param pollLimit the most messages one {@link Recorder#doWork} takes from each subscription
 * @param retention what the directory keeps, applied once per {@link #RETENTION_INTERVAL_NS}
 * @param replay where and how replay requests are answered; null: they are not
 * @param segmentMaker what makes the recorder's segments: {@link SegmentMaker#ahead()}, the default,
 *     makes them ahead and forces and closes full ones on a thread of its own; a simulation, which
 *     runs no threads of its own, gives an {@linkplain SegmentMaker#inline(SegmentSpace) inline} one
 *     on a disk of its own
 */
public record RecorderSettings(Path dir, SegmentGeometry geometry, SyncPolicy sync, long retryIntervalNs,
    long progressIntervalNs, int pollLimit, Retention retention, Replay replay, Supplier<SegmentMaker> segmentMaker) {
    /** How often retention is applied: every ten seconds. */
    public static final long RETENTION_INTERVAL_NS = 10_000_000_000L;
    /** One second between attempts to make a segment the disk refused. */
    public static final long DEFAULT_RETRY_INTERVAL_NS = 1_000_000_000L;
    /** Progress in the catalog every 100 ms. */
    public static final long DEFAULT_PROGRESS_INTERVAL_NS = 100_000_000L;
    /** 256 messages per subscription per duty cycle. */
    public static final int DEFAULT_POLL_LIMIT = 256;

    /**
     * Where a recorder answers replay requests, and its bounds.
     *
     * @param endpoint the TCP endpoint it listens at (port 0: any free one)
     * @param maxClients the most connections served at once
     * @param requestLimit the most messages one request may ask for
     */
    public record Replay(InetSocketAddress endpoint, int maxClients, long requestLimit) {
        /** Checks the bounds. */
        public Replay {
            Objects.requireNonNull(endpoint, "endpoint");
            if (maxClients < 1 || requestLimit < 1) {
                throw new IllegalArgumentException("replay clients (" + maxClients + ") and request limit ("
                    + requestLimit + ") must be at least 1");
            }
        }
    }

    /** Checks every value; the message names the one that is wrong. */
    public RecorderSettings {
        Objects.requireNonNull(dir, "dir");
        Objects.requireNonNull(geometry, "geometry");
        Objects.requireNonNull(sync, "sync");
        Objects.requireNonNull(retention, "retention");
        Objects.requireNonNull(segmentMaker, "segmentMaker");
        if (retryIntervalNs <= 0 || progressIntervalNs <= 0 || pollLimit <= 0) {
            throw new IllegalArgumentException("retry interval (" + retryIntervalNs + " ns), progress interval ("
                + progressIntervalNs + " ns) and poll limit (" + pollLimit + ") must be positive");
        }
    }

    /**
     * The defaults in {@code dir}: {@link SegmentGeometry#DEFAULT} segments, synced per segment, kept
     * forever, replays answered at {@code 127.0.0.1:40480}.
     */
    public static RecorderSettings in(Path dir) {
        return new RecorderSettings(dir, SegmentGeometry.DEFAULT, SyncPolicy.PER_SEGMENT, DEFAULT_RETRY_INTERVAL_NS,
            DEFAULT_PROGRESS_INTERVAL_NS, DEFAULT_POLL_LIMIT, Retention.FOREVER,
            new Replay(RecorderConfig.DEFAULT_REPLAY_ENDPOINT.socketAddress(), RecorderConfig.DEFAULT_REPLAY_CLIENTS,
                RecorderConfig.DEFAULT_REPLAY_REQUEST_LIMIT), SegmentMaker::ahead);
    }

    /**
     * The settings a config's {@code recorder:} section asks for: its directory, segment length
     * (each with an index entry per 64 KiB), sync, retention and replay endpoint and bounds; the rest
     * at their defaults.
     *
     * @param config a concluded section (its values checked)
     */
    public static RecorderSettings from(RecorderConfig config) {
        final SyncPolicy sync = switch (config.sync()) {
            case NONE -> SyncPolicy.NONE;
            case SEGMENT -> SyncPolicy.PER_SEGMENT;
            case PERIODIC -> SyncPolicy.periodic(config.syncIntervalOrDefault().toNanos(), TimeUnit.NANOSECONDS);
        };
        final Retention retention = config.maxAge() == null && config.maxSize() == null ? Retention.FOREVER
            : new Retention(config.maxAge() == null ? Long.MAX_VALUE : config.maxAge().toNanos(),
                config.maxSize() == null ? Long.MAX_VALUE : config.maxSize().bytes());
        final SegmentGeometry geometry = new SegmentGeometry(config.segmentLength().toIntExact(),
            SegmentGeometry.DEFAULT.indexInterval());
        return new RecorderSettings(config.dir(), geometry, sync, DEFAULT_RETRY_INTERVAL_NS,
            DEFAULT_PROGRESS_INTERVAL_NS, DEFAULT_POLL_LIMIT, retention, new Replay(
                config.replayEndpoint().socketAddress(), config.replayClients(), config.replayRequestLimit()),
            SegmentMaker::ahead);
    }

    /** These settings with segments of {@code segmentGeometry}. */
    public RecorderSettings withGeometry(SegmentGeometry segmentGeometry) {
        return new RecorderSettings(dir, segmentGeometry, sync, retryIntervalNs, progressIntervalNs, pollLimit,
            retention, replay, segmentMaker);
    }

    /** These settings with the catalog brought up to date every {@code intervalNs}. */
    public RecorderSettings withProgressInterval(long intervalNs) {
        return new RecorderSettings(dir, geometry, sync, retryIntervalNs, intervalNs, pollLimit, retention, replay,
            segmentMaker);
    }

    /** These settings keeping what {@code kept} says. */
    public RecorderSettings withRetention(Retention kept) {
        return new RecorderSettings(dir, geometry, sync, retryIntervalNs, progressIntervalNs, pollLimit, kept, replay,
            segmentMaker);
    }

    /** These settings answering replay requests as {@code answered} says; null: not at all. */
    public RecorderSettings withReplay(Replay answered) {
        return new RecorderSettings(dir, geometry, sync, retryIntervalNs, progressIntervalNs, pollLimit, retention,
            answered, segmentMaker);
    }
}
