package org.nakcast.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

import org.nakcast.config.NodeConfig;
import org.nakcast.config.RecorderConfig;
import org.nakcast.recorder.store.Catalog;
import org.nakcast.recorder.store.RecordingDescriptor;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code nakcast recordings}: lists the recordings of a recording directory from its catalog, as
 * they stand now (a recorder may be writing them): topic, session, the messages held, holes,
 * bytes, state and times; then the same as one JSON line.
 */
@Command(name = "recordings", mixinStandardHelpOptions = true,
    description = {"Lists the recordings in a recording directory, from its catalog, while a recorder may be"
        + " writing them: topic, session, the messages held (first..last), the messages in holes, bytes, state,"
        + " and when each started and stopped. Then one JSON line with the same."})
final class RecordingsCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--dir", paramLabel = "DIR",
        description = "the recording directory; default: the recorder.dir of --config, else recordings/ in the"
            + " working directory.")
    Path dir;

    @Option(names = "--config", paramLabel = "FILE",
        description = "a config whose recorder section names the directory.")
    Path config;

    @Override
    public Integer call() {
        final PrintWriter out = spec.commandLine().getOut();
        final Path directory = directory();
        final List<RecordingDescriptor> recordings;
        try {
            recordings = Catalog.read(directory);
        } catch (IOException e) {
            spec.commandLine().getErr().println("recordings: cannot read the catalog of " + directory + ": "
                + e.getMessage());
            return 1;
        }
        final List<Map<String, Object>> listed = new ArrayList<>();
        if (recordings.isEmpty()) {
            out.printf("no recordings in %s%n", directory);
        } else {
            out.printf("%s%n%5s  %-20s %12s  %-9s %25s %12s %14s  %-24s  %s%n", directory, "id", "topic",
                "session", "state", "messages", "in holes", "bytes", "started", "stopped");
        }
        for (RecordingDescriptor recording : recordings) {
            final boolean empty = recording.nextMessageIndex() <= recording.firstMessageIndex();
            final String held = empty ? "none from " + recording.firstMessageIndex()
                : recording.firstMessageIndex() + ".." + (recording.nextMessageIndex() - 1);
            final String state = recording.state().name().toLowerCase(Locale.ROOT);
            out.printf("%5d  %-20s %12d  %-9s %25s %,12d %,14d  %-24s  %s%n", recording.recordingId(),
                recording.topicName() + " (" + recording.topicId() + ")", recording.sessionId(),
                recording.refusing() ? state + ", disk refusing" : state, held,
                recording.holeMessages(), recording.bytes(), Instant.ofEpochMilli(recording.startEpochMs()),
                recording.stopEpochMs() < 0 ? "-" : Instant.ofEpochMilli(recording.stopEpochMs()));
            final Map<String, Object> fields = new LinkedHashMap<>();
            fields.put("id", recording.recordingId());
            fields.put("topic", recording.topicName());
            fields.put("topicId", recording.topicId());
            fields.put("session", recording.sessionId());
            fields.put("state", state);
            fields.put("diskRefusing", recording.refusing());
            fields.put("firstMessage", recording.firstMessageIndex());
            fields.put("nextMessage", recording.nextMessageIndex());
            fields.put("holeMessages", recording.holeMessages());
            fields.put("bytes", recording.bytes());
            fields.put("startEpochMs", recording.startEpochMs());
            fields.put("stopEpochMs", recording.stopEpochMs());
            listed.add(fields);
        }
        out.println(new JsonResult().put("command", "recordings").put("dir", directory.toString())
            .put("recordings", listed));
        return 0;
    }

    private Path directory() {
        if (dir != null) {
            return dir.toAbsolutePath().normalize();
        }
        return config == null ? RecorderConfig.DEFAULT_DIR.toAbsolutePath() : NodeConfig.load(config).recorder().dir();
    }
}
