package org.nakcast.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.nakcast.config.TestConfigs.VALID;
import static org.nakcast.config.TestConfigs.assertAtValue;
import static org.nakcast.config.TestConfigs.onlyProblemOf;
import static org.nakcast.config.TestConfigs.parse;
import static org.nakcast.config.TestConfigs.problemsOf;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

/** The {@code recorder:} section and a topic's {@code record} key: defaults, values, and the problems of each. */
class RecorderConfigTest {
    private static final String RECORDED = VALID.replace("    codec: fst", "    codec: fst\n    record: true");

    @Test
    void withoutTheSectionARecorderKeepsTheDefaultsInADirectoryMadeAbsolute() {
        final NodeConfig config = parse(RECORDED);

        assertThat(config.recordedTopics()).extracting(TopicConfig::name).containsExactly("orders");
        assertThat(config.topic("prices").record()).isFalse();
        final RecorderConfig recorder = config.recorder();
        assertThat(recorder.dir()).isEqualTo(Path.of("recordings").toAbsolutePath());
        assertThat(recorder.segmentLength()).isEqualTo(ByteSize.parse("128m"));
        assertThat(recorder.sync()).isEqualTo(RecordingSync.SEGMENT);
        assertThat(recorder.maxAge()).isNull();
        assertThat(recorder.maxSize()).isNull();
        assertThat(recorder.replayEndpoint()).hasToString("127.0.0.1:40480");
        assertThat(recorder.replayClients()).isEqualTo(16);
        assertThat(recorder.replayRequestLimit()).isEqualTo(10_000_000);
    }

    @Test
    void aReplayEndpointWithAHostNameOrWithoutAPortSaysHowToWriteOne() {
        final Problem named = onlyProblemOf(RECORDED + "recorder:\n  replay-endpoint: recorder-a:40480\n");
        final Problem portless = onlyProblemOf(RECORDED + "recorder:\n  replay-endpoint: 10.0.0.7\n");
        final Problem tooHigh = onlyProblemOf(RECORDED + "recorder:\n  replay-endpoint: 10.0.0.7:70000\n");

        assertThat(named.path()).isEqualTo("recorder.replay-endpoint");
        assertThat(named.hint()).contains("host names are not looked up");
        assertThat(portless.message()).isEqualTo("'10.0.0.7' is not an endpoint");
        assertThat(portless.hint()).contains("127.0.0.1:40480");
        assertThat(tooHigh.message()).isEqualTo("port 70000 is out of range");
    }

    @Test
    void readsEveryKey() {
        final NodeConfig config = parse(RECORDED + """
            recorder:
              dir: /data/rec
              segment-length: 4m
              sync: periodic
              sync-interval: 250ms
              max-age: 7d
              max-size: 10g
              replay-endpoint: "[::1]:7000"
              replay-clients: 4
              replay-request-limit: 1000
            """);

        assertThat(config.recorder()).isEqualTo(new RecorderConfig(Path.of("/data/rec"), ByteSize.parse("4m"),
            RecordingSync.PERIODIC, Duration.ofMillis(250), Duration.ofDays(7), ByteSize.parse("10g"),
            Endpoint.parse("[::1]:7000"), 4, 1000L));
        assertThat(config.recorder().replayEndpoint()).hasToString("[0:0:0:0:0:0:0:1]:7000");
    }

    @Test
    void aSyncIntervalWithoutPeriodicSyncIsRefusedAtItsValue() {
        final String yaml = RECORDED + """
            recorder:
              sync: none
              sync-interval: 1s
            """;

        final Problem problem = onlyProblemOf(yaml);

        assertThat(problem.path()).isEqualTo("recorder.sync-interval");
        assertThat(problem.message()).isEqualTo("sync-interval is read only with sync: periodic (sync is none)");
        assertAtValue(problem, yaml, "sync-interval: 1s");
    }

    @Test
    void everyBadValueIsReportedAtOnceWithItsPath() {
        final String yaml = RECORDED + """
            recorder:
              segment-length: 65k
              sync: periodic
              sync-interval: 0s
              max-age: 0s
              max-size: 64k
              replay-clients: 0
              replay-request-limit: 0
            """;

        final List<Problem> problems = problemsOf(yaml);

        assertThat(problems).extracting(Problem::path, Problem::message).containsExactly(
            tuple("recorder.segment-length", "segment-length must be a multiple of 4k from 64k to 1g (was 65k)"),
            tuple("recorder.sync-interval", "sync-interval must be positive (was 0s)"),
            tuple("recorder.max-age", "max-age must be positive (was 0s)"),
            tuple("recorder.max-size", "max-size must hold at least one segment (was 64k, segment-length 65k)"),
            tuple("recorder.replay-clients", "replay-clients must be at least 1 (was 0)"),
            tuple("recorder.replay-request-limit", "replay-request-limit must be at least 1 (was 0)"));
    }

    @Test
    void anUnknownSyncModeListsTheModes() {
        final Problem problem = onlyProblemOf(RECORDED + "recorder:\n  sync: always\n");

        assertThat(problem.path()).isEqualTo("recorder.sync");
        assertThat(problem.hint()).contains("none", "segment", "periodic");
    }

    @Test
    void aRecordedTopicWhoseLargestMessageFillsMoreThanHalfASegmentIsRefused() {
        final String yaml = RECORDED.replace("    record: true", "    record: true\n    max-message: 600k")
            + "recorder:\n  segment-length: 1m\n";

        final Problem problem = onlyProblemOf(yaml);

        assertThat(problem.path()).isEqualTo("topics[1].max-message");
        assertThat(problem.message()).isEqualTo("topic 'orders' is recorded, and its max-message (600k) is more than"
            + " half a recorder segment (recorder.segment-length 1m)");
        assertThat(problem.hint()).contains("lower max-message or raise segment-length");
    }

    @Test
    void aRecordedTopicWhoseNameTheCatalogCannotHoldIsRefused() {
        final String longName = "o".repeat(RecorderConfig.MAX_TOPIC_NAME_BYTES + 1);

        final Problem problem = onlyProblemOf(RECORDED.replace("  - name: orders", "  - name: " + longName));

        assertThat(problem.path()).isEqualTo("topics[1].name");
        assertThat(problem.message()).endsWith("is recorded, and its name is longer than the 160 bytes (UTF-8) a"
            + " recording's catalog entry holds");
    }

    @Test
    void anUnrecordedTopicMayCarryAnyMessage() {
        final NodeConfig config = parse(VALID.replace("    codec: fst", "    codec: fst\n    max-message: 600k")
            + "recorder:\n  segment-length: 1m\n");

        assertThat(config.recordedTopics()).isEmpty();
    }

    @Test
    void aMisspelledKeyOfTheSectionSuggestsTheKnownOne() {
        final Problem problem = onlyProblemOf(RECORDED + "recorder:\n  segment-lenght: 1m\n");

        assertThat(problem.message()).isEqualTo("unknown key 'segment-lenght'");
        assertThat(problem.hint()).startsWith("did you mean 'segment-length'?");
    }

    @Test
    void builtInCodeTheSectionIsConcludedToo() {
        final NodeConfig inCode = parse(RECORDED).withRecorder(RecorderConfig.defaults()
            .withDir(Path.of("rel")).withPeriodicSync(Duration.ofMillis(5)).withMaxSize(ByteSize.parse("1g")))
            .conclude(TestConfigs.FAKE_CONTEXT);

        assertThat(inCode.recorder().dir()).isEqualTo(Path.of("rel").toAbsolutePath());
        assertThat(inCode.recorder().syncIntervalOrDefault()).isEqualTo(Duration.ofMillis(5));
    }
}
