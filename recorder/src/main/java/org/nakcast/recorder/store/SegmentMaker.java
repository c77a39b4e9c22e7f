package org.nakcast.recorder.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.agrona.collections.Long2ObjectHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where recording writers get their segment files and leave their full ones. Making a segment
 * writes its whole length (zeros, so that a full disk is found then and not as a fault on a mapped
 * page), and a full segment synced per segment is forced to the disk: both take as long as the disk
 * takes, far longer than a recording thread may stop (a subscription's delivery queue gives up
 * after {@code delivery-queue-timeout}, 100 ms by default, and a 128 MiB segment takes longer).
 *
 * <p>{@link #ahead()} does both on a thread of its own: when a writer takes segment n, segment n + 1
 * is made at once under its prepared name ({@code <name>.prepared}), which no reader, retention or
 * recovery takes for a segment; when the writer needs it, it waits only for what is left of that
 * making, and the segment gets its name in one atomic rename. A full segment is forced and closed
 * there too. {@link #inline()} does everything on the writer's thread, when it is asked: for tools
 * and tests.
 *
 * <p>Its methods are called from the one thread that writes the recordings; a recording that stops
 * {@linkplain #release releases} the segment made ahead for it, which is deleted. Segments a killed
 * recorder left prepared are deleted by {@link #deleteLeftovers} before recording in the directory again.
 */
public final class SegmentMaker implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SegmentMaker.class);
    private static final long CLOSE_TIMEOUT_SECONDS = 60;

    /** The segment made ahead for one recording. */
    private record Prepared(int number, CompletableFuture<SegmentFile> made) {
    }

    /** The thread that makes and retires segments; null: the caller's. */
    private final ExecutorService worker;
    private final SegmentSpace space;
    private final Long2ObjectHashMap<Prepared> prepared = new Long2ObjectHashMap<>();

    private SegmentMaker(ExecutorService worker, SegmentSpace space) {
        this.worker = worker;
        this.space = space;
    }

    /** A maker that does everything on the caller's thread, when it is asked. */
    public static SegmentMaker inline() {
        return inline(SegmentSpace.FILE_SYSTEM);
    }

    /** A maker that does everything on the caller's thread, asking {@code space} for room before each segment. */
    public static SegmentMaker inline(SegmentSpace space) {
        return new SegmentMaker(null, space);
    }

    /** A maker with a thread of its own ({@code nakcast-recorder-segments}, a daemon) that works ahead. */
    public static SegmentMaker ahead() {
        return new SegmentMaker(Executors.newSingleThreadExecutor(task -> {
            final Thread thread = new Thread(task, "nakcast-recorder-segments");
            thread.setDaemon(true);
            return thread;
        }), SegmentSpace.FILE_SYSTEM);
    }

    /**
     * Deletes the segments made ahead that a recorder left in {@code dir} when it stopped without
     * taking them: none ever held a frame.
     *
     * @return how many were deleted
     */
    public static int deleteLeftovers(Path dir) throws IOException {
        return SegmentFile.deletePrepared(dir);
    }

    /**
     * Segment {@code number} of a recording, made: the one made ahead if there is one (waiting for
     * the rest of its making), else made now; a maker that works ahead then starts on the next.
     *
     * @throws IOException if it cannot be made (a full disk): nothing of it is left behind
     */
    SegmentFile take(Path dir, long recordingId, int number, SegmentGeometry geometry) throws IOException {
        final Prepared ready = prepared.remove(recordingId);
        SegmentFile segment = null;
        if (ready != null && ready.number() == number) {
            segment = await(ready.made());
            segment.publish();
        } else if (ready != null) {
            discard(ready);
        }
        if (segment == null) {
            space.reserve(SegmentFile.pathOf(dir, recordingId, number), geometry.segmentLength());
            segment = SegmentFile.create(dir, recordingId, number, geometry);
        }
        prepare(dir, recordingId, number + 1, geometry);
        return segment;
    }

    /** Starts making segment {@code number} of a recording ahead, if this maker works ahead. */
    void prepare(Path dir, long recordingId, int number, SegmentGeometry geometry) {
        if (worker != null) {
            release(recordingId);
            prepared.put(recordingId, new Prepared(number, CompletableFuture.supplyAsync(
                () -> makePrepared(dir, recordingId, number, geometry), worker)));
        }
    }

    /** Done with a full segment: forced to the disk first if {@code force}, then closed, on the maker's thread. */
    void retire(SegmentFile full, boolean force) {
        if (worker == null) {
            closeQuietly(full, force);
        } else {
            worker.execute(() -> closeQuietly(full, force));
        }
    }

    /** A recording stops: the segment made ahead for it, if any, is deleted. */
    void release(long recordingId) {
        final Prepared ready = prepared.remove(recordingId);
        if (ready != null) {
            discard(ready);
        }
    }

    /** Deletes every segment made ahead and not taken, and waits for the segments being retired. */
    @Override
    public void close() {
        for (Prepared ready : prepared.values()) {
            discard(ready);
        }
        prepared.clear();
        if (worker != null) {
            worker.shutdown();
            try {
                if (!worker.awaitTermination(CLOSE_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                    LOG.warn("segments still being forced after {} s; they are left to the operating system",
                        CLOSE_TIMEOUT_SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private SegmentFile makePrepared(Path dir, long recordingId, int number, SegmentGeometry geometry) {
        try {
            space.reserve(SegmentFile.preparedPathOf(dir, recordingId, number), geometry.segmentLength());
            return SegmentFile.createPrepared(dir, recordingId, number, geometry);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The segment a making came to, or its failure as the IOException it was. */
    private static SegmentFile await(CompletableFuture<SegmentFile> made) throws IOException {
        try {
            return made.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            made.thenAccept(segment -> deleteQuietly(segment));
            throw new IOException("interrupted while a segment was being made", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UncheckedIOException unchecked) {
                throw unchecked.getCause();
            }
            throw new IOException("a segment could not be made", e.getCause());
        }
    }

    /** Deletes a segment made ahead once its making is over, whether it is yet or not. */
    private static void discard(Prepared ready) {
        ready.made().whenComplete((segment, failure) -> {
            if (segment != null) {
                deleteQuietly(segment);
            }
        });
    }

    private static void deleteQuietly(SegmentFile segment) {
        try {
            segment.close();
            Files.deleteIfExists(segment.path());
        } catch (IOException e) {
            LOG.warn("segment made ahead {} could not be deleted", segment.path(), e);
        }
    }

    private static void closeQuietly(SegmentFile full, boolean force) {
        try {
            if (force) {
                full.force();
            }
            full.close();
        } catch (IOException | UncheckedIOException e) {
            LOG.warn("full segment {} could not be {}", full.path(), force ? "forced and closed" : "closed", e);
        }
    }
}
