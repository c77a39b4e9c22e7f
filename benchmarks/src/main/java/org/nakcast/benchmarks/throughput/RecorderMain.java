package org.nakcast.benchmarks.throughput;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import org.agrona.IoUtil;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SystemEpochNanoClock;
import org.nakcast.benchmarks.child.ChildProtocol;
import org.nakcast.benchmarks.child.Figures;
import org.nakcast.config.NodeConfig;
import org.nakcast.recorder.Recorder;
import org.nakcast.recorder.RecorderSettings;
import org.nakcast.transport.Node;
import org.nakcast.transport.node.NodeHarness;
import org.nakcast.transport.status.SystemCounter;
import org.nakcast.transport.status.SystemCounters;

/**
 * The recorder JVM of a throughput run with {@code --recorder}: a node with the run's config (the
 * topic as a recorder has it, {@link Recorder#asRecorded}) and a {@link Recorder} of the topic in a
 * temporary directory (the recorder's defaults: 128 MiB segments synced per segment, no replay
 * endpoint), its duty cycle on a thread of its own. The protocol, as the subscriber's:
 *
 * <pre>
 *   recorder -&gt; READY                    recording: the publisher may start
 *   orchestrator -&gt; recorder: EXPECT n   wait until n messages are recorded, as messages or holes
 *   recorder -&gt; RESULT name=value ...    its figures; it deletes the directory and exits
 * </pre>
 *
 * It waits until the recording accounts for every offered message, or nothing moves for
 * {@value CheckedSubscriber#STALL_SECONDS} s ({@value CheckedSubscriber#MAX_DRAIN_SECONDS} s at most).
 */
public final class RecorderMain {
    private RecorderMain() {
    }

    /**
     * @param args the run, as {@link RunSettings#toArgs()} writes it
     * @throws Exception if the node or the recorder fails, or the orchestrator goes away
     */
    public static void main(String[] args) throws Exception {
        final RunSettings run = RunSettings.fromArgs(args);
        final Path dir = Files.createTempDirectory("nakcast-throughput-recording");
        try {
            record(run, dir);
        } finally {
            IoUtil.delete(dir.toFile(), false);
        }
    }

    private static void record(RunSettings run, Path dir) throws IOException, InterruptedException {
        final BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        try (Node node = run.launch(recorderConfig(run.nodeConfig()), new NodeHarness().seed(run.seed()))) {
            final SystemCounters counters = node.counters();
            final AtomicBoolean running = new AtomicBoolean(true);
            final Recorder recorder = Recorder.start(node, RecorderSettings.in(dir).withReplay(null),
                List.of(RunSettings.TOPIC), new SystemEpochNanoClock());
            final Thread duty = new Thread(() -> {
                final IdleStrategy idle = new BackoffIdleStrategy();
                while (running.get()) {
                    idle.idle(recorder.doWork());
                }
            }, "recorder-duty");
            duty.start();
            ChildProtocol.say(ChildProtocol.READY);
            final long offered = Long.parseLong(ChildProtocol.await(in, ChildProtocol.EXPECT));
            final long startNs = System.nanoTime();
            final long recordedAtExpect = recorded(counters);
            CheckedSubscriber.drain(() -> recorded(counters), offered);
            final long catchUpNs = System.nanoTime() - startNs;
            running.set(false);
            duty.join();
            recorder.close();
            ChildProtocol.say(ChildProtocol.RESULT, new Figures()
                .put("recordedMessages", counters.get(SystemCounter.RECORDED_MESSAGES).get())
                .put("recordedBytes", counters.get(SystemCounter.RECORDED_BYTES).get())
                .put("holes", counters.get(SystemCounter.RECORDED_HOLES).get())
                .put("holeMessages", counters.get(SystemCounter.RECORDED_HOLE_MESSAGES).get())
                .put("overrunMessages", counters.get(SystemCounter.SUBSCRIPTION_OVERRUN_MESSAGES).get())
                .put("segments", counters.get(SystemCounter.RECORDING_SEGMENTS).get())
                .put("segmentsRefused", counters.get(SystemCounter.RECORDING_SEGMENTS_REFUSED).get())
                .put("behindAtOffered", offered - recordedAtExpect)
                .put("catchUpMs", catchUpNs / 1_000_000)
                .put("naksSent", counters.get(SystemCounter.NAKS_SENT).get())
                .put("unrecoverableRanges", counters.get(SystemCounter.UNRECOVERABLE_RANGES).get())
                .put("errors", counters.get(SystemCounter.ERRORS).get())
                .toLine());
        }
    }

    /** The run's config with the topic as a recorder has it ({@link Recorder#asRecorded}). */
    static NodeConfig recorderConfig(NodeConfig config) {
        return new NodeConfig(config.node(), config.transports(), config.topics().stream()
            .map(topic -> RunSettings.TOPIC.equals(topic.name()) ? Recorder.asRecorded(topic) : topic)
            .toList()).conclude();
    }

    /** Messages the recording accounts for: recorded, or recorded as holes. */
    private static long recorded(SystemCounters counters) {
        return counters.get(SystemCounter.RECORDED_MESSAGES).get()
            + counters.get(SystemCounter.RECORDED_HOLE_MESSAGES).get();
    }
}
