package org.nakcast.config;

import com.fasterxml.jackson.annotation.JsonProperty;

import java.nio.file.Path;

/**
 * The {@code node:} section: who this node is and how it runs its threads. Every key is optional.
 *
 * @param name the node's name, in logs, counters and the counters file's name: letters, digits,
 *     {@code . _ -}; default {@code nakcast-<pid>}, unique per process on a host
 * @param threading how work is spread over threads; default {@link ThreadingMode#SHARED}, which
 *     suits a 2-core box
 * @param idleStrategy what an idle thread does; default {@link IdleStrategyType#BACKOFF}, so an
 *     idle node costs close to no CPU
 * @param media how datagrams reach the kernel; default {@link MediaType#NIO}
 * @param countersFile where the counters live, for other processes to read; null until concluded
 *     means {@code <java.io.tmpdir>/nakcast/<name>.counters}. Two nodes in one process need
 *     different names or files.
 * @param keepCountersFile whether the counters file stays after the node stops until someone deletes
 *     it; default false: it stays, for a post-mortem, until the next node that starts with its counters
 *     file in the same directory finds this node's process gone and removes it, so that files of
 *     stopped nodes do not pile up. Either way a later node of the same name overwrites it
 */
public record NodeSettings(
    @JsonProperty("name") String name,
    @JsonProperty("threading") ThreadingMode threading,
    @JsonProperty("idle-strategy") IdleStrategyType idleStrategy,
    @JsonProperty("media") MediaType media,
    @JsonProperty("counters-file") Path countersFile,
    @JsonProperty("keep-counters-file") Boolean keepCountersFile) {

    /** The default threading: one shared thread. */
    public static final ThreadingMode DEFAULT_THREADING = ThreadingMode.SHARED;
    /** The default idle strategy: back off to parking. */
    public static final IdleStrategyType DEFAULT_IDLE_STRATEGY = IdleStrategyType.BACKOFF;
    /** The default media: Java's {@code DatagramChannel}. */
    public static final MediaType DEFAULT_MEDIA = MediaType.NIO;

    /** Applies the defaults for what is null, except the counters file, which {@code conclude()} derives. */
    public NodeSettings {
        name = name == null ? "nakcast-" + ProcessHandle.current().pid() : name;
        threading = threading == null ? DEFAULT_THREADING : threading;
        idleStrategy = idleStrategy == null ? DEFAULT_IDLE_STRATEGY : idleStrategy;
        media = media == null ? DEFAULT_MEDIA : media;
        keepCountersFile = keepCountersFile != null && keepCountersFile;
    }

    /** @return every setting at its default */
    public static NodeSettings defaults() {
        return new NodeSettings(null, null, null, null, null, null);
    }

    /** @return the counters file for a node of this name when none is configured */
    static Path defaultCountersFile(String nodeName) {
        return Path.of(System.getProperty("java.io.tmpdir"), "nakcast", nodeName + ".counters");
    }

    /**
     * @param newName the node's name
     * @return these settings with that name
     */
    public NodeSettings withName(String newName) {
        // a counters file derived from the old name is derived again from the new one at conclude()
        final Path file = countersFile != null && countersFile.equals(defaultCountersFile(name)) ? null : countersFile;
        return new NodeSettings(newName, threading, idleStrategy, media, file, keepCountersFile);
    }

    /**
     * @param mode the threading mode
     * @return these settings with that threading mode
     */
    public NodeSettings withThreading(ThreadingMode mode) {
        return new NodeSettings(name, mode, idleStrategy, media, countersFile, keepCountersFile);
    }

    /**
     * @param strategy the idle strategy
     * @return these settings with that idle strategy
     */
    public NodeSettings withIdleStrategy(IdleStrategyType strategy) {
        return new NodeSettings(name, threading, strategy, media, countersFile, keepCountersFile);
    }

    /**
     * @param type the media
     * @return these settings with that media
     */
    public NodeSettings withMedia(MediaType type) {
        return new NodeSettings(name, threading, idleStrategy, type, countersFile, keepCountersFile);
    }

    /**
     * @param file the counters file
     * @return these settings with that counters file
     */
    public NodeSettings withCountersFile(Path file) {
        return new NodeSettings(name, threading, idleStrategy, media, file, keepCountersFile);
    }

    /**
     * @param keep whether the counters file stays after the node stops until someone deletes it
     * @return these settings with that choice
     */
    public NodeSettings withKeepCountersFile(boolean keep) {
        return new NodeSettings(name, threading, idleStrategy, media, countersFile, keep);
    }
}
