package org.nakcast.benchmarks.replay;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

import org.agrona.DirectBuffer;
import org.agrona.IoUtil;
import org.agrona.concurrent.SystemEpochNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.nakcast.config.NodeConfig;
import org.nakcast.recorder.Recorder;
import org.nakcast.recorder.RecorderSettings;
import org.nakcast.recorder.store.Catalog;
import org.nakcast.recorder.store.RecordingState;
import org.nakcast.recorder.store.RecordingWriter;
import org.nakcast.recorder.store.SegmentGeometry;
import org.nakcast.recorder.store.SegmentMaker;
import org.nakcast.recorder.store.SyncPolicy;
import org.nakcast.transport.Node;
import org.nakcast.transport.replay.HoleCause;
import org.nakcast.transport.replay.ReplayClient;
import org.nakcast.transport.replay.ReplayFrame;
import org.nakcast.transport.replay.ReplayHandler;
import org.nakcast.transport.replay.ReplayRefusal;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * How fast a recording goes to disk and comes back: appends N messages to a recording with the
 * recorder's writer (no network: the disk side alone), then replays the whole of it from a
 * recorder's endpoint over TCP on loopback to a client on another thread, each message checked to
 * come once and in order. Prints one table row and a JSON line.
 */
@Command(name = "replay-rate", mixinStandardHelpOptions = true,
    description = "Appends N messages to a recording, then replays all of them over TCP on loopback; prints the"
        + " append and replay rates.")
public final class ReplayRate implements Callable<Integer> {
    private static final int TOPIC = 1;
    private static final int SESSION = 7;

    @Option(names = "--messages", defaultValue = "10000000", paramLabel = "N",
        description = "messages in the recording (default ${DEFAULT-VALUE})")
    private long messages;

    @Option(names = "--size", defaultValue = "70", paramLabel = "BYTES",
        description = "bytes per message, at least 8 (default ${DEFAULT-VALUE})")
    private int size;

    @Option(names = "--dir", paramLabel = "DIR",
        description = "where the recording goes (default: a new directory under java.io.tmpdir, removed after)")
    private Path dir;

    /** @param args the options; {@code --help} lists them */
    public static void main(String[] args) {
        System.exit(new CommandLine(new ReplayRate()).execute(args));
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        if (size < 8 || messages < 1) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--size must be at least 8, --messages 1");
        }
        final boolean temporary = dir == null;
        final Path recordings = temporary ? Files.createTempDirectory("nakcast-replay-rate") : dir;
        try {
            final long appendNs = record(recordings);
            final Replayed replayed = replay(recordings);
            final double appendRate = messages * 1e9 / appendNs;
            final double replayRate = messages * 1e9 / replayed.ns;
            System.out.printf(Locale.ROOT, "%12s %6s %16s %16s %14s %12s%n", "messages", "size", "append msgs/s",
                "replay msgs/s", "replay MB/s", "out of order");
            System.out.printf(Locale.ROOT, "%,12d %6d %,16.0f %,16.0f %,14.1f %,12d%n", messages, size, appendRate,
                replayRate, replayed.bytes / (replayed.ns / 1e9) / 1e6, replayed.outOfOrder);
            System.out.printf(Locale.ROOT, "{\"messages\":%d,\"size\":%d,\"appendPerSecond\":%.0f,"
                    + "\"replayPerSecond\":%.0f,\"replayMegabytesPerSecond\":%.1f,\"replayed\":%d,\"outOfOrder\":%d,"
                    + "\"dir\":\"%s\"}%n", messages, size, appendRate, replayRate,
                replayed.bytes / (replayed.ns / 1e9) / 1e6, replayed.count, replayed.outOfOrder, recordings);
            return replayed.count == messages && replayed.outOfOrder == 0 ? 0 : 1;
        } finally {
            if (temporary) {
                IoUtil.delete(recordings.toFile(), false);
            }
        }
    }

    /** Appends the recording; returns the nanoseconds it took. */
    private long record(Path recordings) throws IOException {
        final UnsafeBuffer message = new UnsafeBuffer(new byte[size]);
        final long startMs = System.currentTimeMillis();
        try (Catalog catalog = Catalog.openForRecording(recordings); SegmentMaker segments = SegmentMaker.ahead()) {
            final long id = catalog.add(TOPIC, "replay-rate", SESSION, 0, 0, startMs, SegmentGeometry.DEFAULT);
            final long startNs = System.nanoTime();
            try (RecordingWriter writer = RecordingWriter.start(recordings, id, 0, SegmentGeometry.DEFAULT,
                SyncPolicy.NONE, TimeUnit.SECONDS.toNanos(1), segments, startMs * 1_000_000)) {
                for (long index = 0; index < messages; index++) {
                    message.putLong(0, index);
                    if (!writer.appendMessage(message, 0, size, index, startMs * 1_000_000)) {
                        throw new IOException("the disk refused a segment: " + writer.lastError());
                    }
                }
                writer.end(startMs * 1_000_000);
                final long ns = System.nanoTime() - startNs;
                catalog.progress(id, messages, writer.bytesStored(), 0, false);
                catalog.stop(id, RecordingState.ENDED, System.currentTimeMillis());
                return ns;
            }
        }
    }

    private Replayed replay(Path recordings) throws IOException, InterruptedException {
        final RecorderSettings settings = RecorderSettings.in(recordings).withReplay(
            new RecorderSettings.Replay(new InetSocketAddress("127.0.0.1", 0), 4, messages));
        try (Node node = Node.launch(NodeConfig.embeddedDefault());
             Recorder recorder = Recorder.start(node, settings, List.of(), new SystemEpochNanoClock())) {
            final Thread serving = new Thread(() -> {
                while (!Thread.currentThread().isInterrupted()) {
                    if (recorder.doWork() == 0) {
                        Thread.onSpinWait();
                    }
                }
            }, "replay-rate-recorder");
            serving.start();
            try (ReplayClient client = ReplayClient.connect(recorder.replayEndpoint(), 5_000)) {
                final Replayed replayed = new Replayed();
                final long startNs = System.nanoTime();
                client.request(TOPIC, SESSION, 0, ReplayFrame.TO_WHAT_IS_HELD);
                while (!replayed.done) {
                    if (client.poll(replayed, 1024) == 0) {
                        Thread.onSpinWait();
                    }
                }
                replayed.ns = System.nanoTime() - startNs;
                if (replayed.refusal != null) {
                    throw new IOException("the recorder refused the replay: " + replayed.refusal);
                }
                return replayed;
            } finally {
                serving.interrupt();
                serving.join();
            }
        }
    }

    /** What came back: each message checked to follow the one before. */
    private static final class Replayed implements ReplayHandler {
        long next;
        long count;
        long bytes;
        long outOfOrder;
        long ns;
        boolean done;
        String refusal;

        @Override
        public void onAccepted(long requestId, long first, long last) {
            next = first;
        }

        @Override
        public void onMessage(long messageIndex, DirectBuffer buffer, int offset, int length, long recordedAtNs) {
            if (messageIndex != next || buffer.getLong(offset) != messageIndex) {
                outOfOrder++;
            }
            next = messageIndex + 1;
            count++;
            bytes += length;
        }

        @Override
        public void onHole(long firstMessage, long count, HoleCause cause) {
            outOfOrder++;
        }

        @Override
        public void onDone(long requestId, long nextMessageIndex) {
            done = true;
        }

        @Override
        public void onRefused(long requestId, ReplayRefusal why, String sentence) {
            refusal = why + ": " + sentence;
            done = true;
        }
    }
}
