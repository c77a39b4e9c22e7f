package org.nakcast.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SystemEpochNanoClock;
import org.nakcast.config.NodeConfig;
import org.nakcast.config.TopicConfig;
import org.nakcast.recorder.Recorder;
import org.nakcast.recorder.RecorderSettings;
import org.nakcast.transport.Node;
import org.nakcast.transport.status.SystemCounter;
import org.nakcast.transport.status.SystemCounters;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code nakcast record}: records the topics a config marks {@code record: true} to the directory of
 * its {@code recorder:} section, until interrupted (or for {@code --duration}), then prints what it
 * wrote as one JSON line. Each recorded topic is subscribed from the oldest datagram its publishers
 * still hold ({@code late-join: oldest}, whatever the config says), so a session met mid-way is
 * recorded from there; a recording it stopped is resumed where it ended.
 */
@Command(name = "record", mixinStandardHelpOptions = true,
    description = {"Records the topics the config marks record: true, every publisher session of each, in order and"
        + " repaired, to the recorder section's directory (or --dir), until interrupted or for --duration. Progress"
        + " goes to stderr, the result (recordings, messages, bytes, holes) to stdout as one JSON line.",
        "Run one recorder per directory; ops/nakcast recordings lists what it holds. Stopped by SIGINT or SIGTERM"
            + " it saves every recording and prints its result before it exits (with the signal's code, 130 or 143)."})
final class RecordCommand implements Callable<Integer> {
    /** How long an interrupted recorder may take to stop its recordings before the JVM goes on exiting. */
    private static final long STOP_WAIT_SECONDS = 10;

    @Spec
    CommandSpec spec;

    @Option(names = "--config", paramLabel = "FILE", required = true,
        description = "the node's YAML config: its transports, the topics marked record: true, and the recorder section"
            + " (config/README.md).")
    Path config;

    @Option(names = "--dir", paramLabel = "DIR",
        description = "the recording directory; default: the config's recorder.dir (recordings/ in the working"
            + " directory if it has none).")
    Path dir;

    @Option(names = "--duration", paramLabel = "SECONDS", defaultValue = "0",
        description = "stop after this long; default ${DEFAULT-VALUE}: until interrupted (SIGINT or SIGTERM).")
    double duration;

    private volatile boolean stopping;

    @Override
    public Integer call() throws IOException {
        if (duration < 0) {
            throw new ParameterException(spec.commandLine(), "--duration must not be negative, was " + duration);
        }
        final PrintWriter out = spec.commandLine().getOut();
        final PrintWriter err = spec.commandLine().getErr();
        final NodeConfig recording = forRecording(NodeConfig.load(config));
        final List<String> topics = recording.recordedTopics().stream().map(TopicConfig::name).toList();
        final RecorderSettings settings = RecorderSettings.from(recording.recorder());
        final CountDownLatch stopped = new CountDownLatch(1);
        final Thread onSignal = new Thread(() -> {
            stopping = true;
            awaitQuietly(stopped);
        }, "nakcast-record-stop");
        Runtime.getRuntime().addShutdownHook(onSignal);
        try {
            out.println(record(recording, topics, settings, err));
            err.println("record: stopped; every open recording saved as stopped, to be resumed by the next record");
            out.flush();
        } finally {
            stopped.countDown();
            removeQuietly(onSignal);
        }
        return 0;
    }

    /** Records until stopped; every open recording is saved as stopped. */
    private JsonResult record(NodeConfig recording, List<String> topics, RecorderSettings settings, PrintWriter err)
        throws IOException {
        final JsonResult result = new JsonResult().put("command", "record").put("topics", topics)
            .put("dir", settings.dir().toString());
        try (Node node = Node.launch(recording)) {
            final SystemCounters counters = node.counters();
            final int recordings;
            try (Recorder recorder = Recorder.start(node, settings, topics, SystemEpochNanoClock.INSTANCE)) {
                err.printf("record: recording %s of node %s into %s%n", topics, recording.node().name(),
                    settings.dir());
                final Progress progress = new Progress(err, counters.get(SystemCounter.RECORDED_MESSAGES)::get,
                    perSecond -> String.format("record: %d msgs/s, %d messages and %d holes recorded in all",
                        perSecond, counters.get(SystemCounter.RECORDED_MESSAGES).get(),
                        counters.get(SystemCounter.RECORDED_HOLES).get()));
                try {
                    run(recorder);
                } finally {
                    progress.close();
                }
                recordings = recorder.recordings().size();
            }
            result.put("recordings", recordings)
                .put("messages", counters.get(SystemCounter.RECORDED_MESSAGES).get())
                .put("bytes", counters.get(SystemCounter.RECORDED_BYTES).get())
                .put("segments", counters.get(SystemCounter.RECORDING_SEGMENTS).get())
                .put("segmentsRefused", counters.get(SystemCounter.RECORDING_SEGMENTS_REFUSED).get())
                .put("holes", counters.get(SystemCounter.RECORDED_HOLES).get())
                .put("holeMessages", counters.get(SystemCounter.RECORDED_HOLE_MESSAGES).get());
        }
        return result;
    }

    /** The config as a recorder runs it: recorded topics as {@link Recorder#asRecorded} has them, {@code --dir} too. */
    private NodeConfig forRecording(NodeConfig loaded) {
        if (loaded.recordedTopics().isEmpty()) {
            throw new IllegalArgumentException("no topic of " + config + " is marked record: true: mark the topics to"
                + " record (config/README.md, key record)");
        }
        final List<TopicConfig> topics = loaded.topics().stream()
            .map(topic -> topic.record() ? Recorder.asRecorded(topic) : topic).toList();
        final NodeConfig recording = new NodeConfig(loaded.node(), loaded.transports(), topics,
            dir == null ? loaded.recorder() : loaded.recorder().withDir(dir));
        return recording.conclude();
    }

    private void run(Recorder recorder) {
        final IdleStrategy idle = new BackoffIdleStrategy();
        final long deadlineNs = duration == 0 ? Long.MAX_VALUE : System.nanoTime() + (long) (duration * 1e9);
        while (!stopping && System.nanoTime() < deadlineNs) {
            idle.idle(recorder.doWork());
        }
    }

    /** Takes the signal handler back once the recorder stopped by itself; the JVM may be exiting already. */
    private static void removeQuietly(Thread onSignal) {
        try {
            Runtime.getRuntime().removeShutdownHook(onSignal);
        } catch (IllegalStateException exiting) {
            // the hook runs (or ran): the recorder has stopped, so it returns at once
        }
    }

    private static void awaitQuietly(CountDownLatch stopped) {
        try {
            stopped.await(STOP_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
