package org.nakcast.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.nakcast.config.AuthKeyFile;
import org.nakcast.config.AuthKeys;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code nakcast sub} and {@code nakcast pub} as two processes, started as {@code ops/nakcast}
 * starts them: this JVM's java, {@code @ops/jvm.options}, this module's class path. They inherit
 * this test JVM's private network namespace.
 */
class NakcastCommandIT {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void subGetsEveryMessageOfPubExactlyOnceAndInOrder() throws Exception {
        final Command sub = Command.start("sub", "--expect", "20000", "--timeout", "20", "--linger", "0.2");
        sub.awaitErrLine("sub: listening on topic 'prices'");
        final Command pub = Command.start("pub", "--count", "20000", "--size", "100", "--linger", "1");

        assertThat(sub.waitFor()).as(sub.describe()).isZero();
        assertThat(pub.waitFor()).as(pub.describe()).isZero();

        final JsonNode received = sub.result();
        assertThat(received.get("command").asString()).isEqualTo("sub");
        assertThat(received.get("ok").asBoolean()).as(sub.describe()).isTrue();
        assertThat(received.get("expected").asLong()).isEqualTo(20_000);
        assertThat(received.get("received").asLong()).isEqualTo(20_000);
        for (String zero : List.of("missing", "lost", "gaps", "duplicates", "outOfOrder", "outOfRange", "tooShort",
            "otherSessions")) {
            assertThat(received.get(zero).asLong()).as(zero).isZero();
        }
        assertThat(received.get("msgsPerSecond").asLong()).isPositive();
        assertThat(received.get("reason").asString()).isEqualTo("all 20000 messages arrived exactly once and in order");

        final JsonNode sent = pub.result();
        assertThat(sent.get("command").asString()).isEqualTo("pub");
        assertThat(sent.get("ok").asBoolean()).isTrue();
        assertThat(sent.get("sent").asLong()).isEqualTo(20_000);
        assertThat(sent.get("size").asLong()).isEqualTo(100);
        assertThat(sent.get("unrecoverable").asLong()).isZero();
        assertThat(pub.err()).anyMatch(line -> line.startsWith("pub prices: sent 20000/20000"));
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void subOnAnAuthenticatedTransportCountsWhatPubWithoutTheKeySendsAndGetsWhatPubWithItSends(@TempDir Path dir)
        throws Exception {
        final Path keys = dir.resolve("local.keys");
        AuthKeyFile.write(keys, new AuthKeys(1, List.of(AuthKeyFile.newKey(1))));
        final Path config = maxTopicOnLo(dir.resolve("keyed.yaml"), "    auth-key-file: " + keys);
        final Path noKey = maxTopicOnLo(dir.resolve("no-key.yaml"), "");
        final Command sub = Command.start("sub", "--config", config.toString(), "--expect", "5000", "--timeout", "20",
            "--linger", "0.2");
        sub.awaitErrLine("sub: listening on topic 'prices'");
        final Command stranger =
            Command.start("pub", "--config", noKey.toString(), "--count", "2000", "--size", "100", "--linger", "0.5");
        assertThat(stranger.waitFor()).as(stranger.describe()).isZero();
        final Command pub = Command.start("pub", "--config", config.toString(), "--count", "5000", "--size", "100",
            "--linger", "1");

        assertThat(sub.waitFor()).as(sub.describe()).isZero();
        assertThat(pub.waitFor()).as(pub.describe()).isZero();
        final JsonNode received = sub.result();
        assertThat(received.get("received").asLong()).isEqualTo(5_000);
        assertThat(received.get("otherSessions").asLong()).as("the stranger's stream never reached it").isZero();
        assertThat(received.get("authRefused").asLong()).isPositive();
        assertThat(sub.err()).anyMatch(line -> line.matches(
            "sub: dropped \\d+ datagrams that did not authenticate: \\d+ without authentication"));
        assertThat(pub.result().get("authRefused").asLong()).isZero();
    }

    /** The embedded default's transport and topic prices, flow control max, the transport with {@code extraKey}. */
    private static Path maxTopicOnLo(Path file, String extraKey) throws IOException {
        Files.writeString(file, """
            transports:
              - name: local
                interface: lo
                group: 239.255.77.1
                port: 40456
            %s
            topics:
              - name: prices
                id: 1
                transport: local
                codec: flyweight
                flow-control: max
            """.formatted(extraKey));
        return file;
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void subFailsWhenFewerMessagesComeThanExpected() throws Exception {
        final Command sub = Command.start("sub", "--expect", "1000", "--timeout", "1", "--start-timeout", "30");
        sub.awaitErrLine("sub: listening on topic 'prices'");
        // the publisher stays (heartbeating, its stream open) well past the subscriber's timeout
        final Command pub = Command.start("pub", "--count", "600", "--rate", "20000", "--linger", "4");

        assertThat(sub.waitFor()).as(sub.describe()).isEqualTo(1);
        assertThat(pub.waitFor()).as(pub.describe()).isZero();

        final JsonNode received = sub.result();
        assertThat(received.get("ok").asBoolean()).isFalse();
        assertThat(received.get("received").asLong()).isEqualTo(600);
        assertThat(received.get("missing").asLong()).isEqualTo(400);
        assertThat(received.get("reason").asString())
            .contains("missing 400 of 1000 messages").contains("no new message for 1.0 s");
        assertThat(sub.err()).contains("sub: FAILED: " + received.get("reason").asString());
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void subSaysThePublisherEndedItsStreamBeforeTheLastMessage() throws Exception {
        final Command sub = Command.start("sub", "--expect", "1000", "--timeout", "20", "--start-timeout", "30");
        sub.awaitErrLine("sub: listening on topic 'prices'");
        final Command pub = Command.start("pub", "--count", "600", "--rate", "20000", "--linger", "0.2");

        assertThat(pub.waitFor()).as(pub.describe()).isZero();
        final long pubEndedMs = System.currentTimeMillis();
        assertThat(sub.waitFor()).as(sub.describe()).isEqualTo(1);
        final long waitedMs = System.currentTimeMillis() - pubEndedMs;

        final long session = pub.result().get("sessionId").asLong();
        final JsonNode received = sub.result();
        assertThat(received.get("ok").asBoolean()).isFalse();
        assertThat(received.get("received").asLong()).isEqualTo(600);
        assertThat(received.get("publishersGone")).as(sub.describe()).singleElement().satisfies(gone -> {
            assertThat(gone.get("session").asLong()).isEqualTo(session);
            assertThat(gone.get("cause").asString()).isEqualTo("ENDED");
        });
        assertThat(received.get("reason").asString()).as(sub.describe())
            .contains("missing 400 of 1000 messages")
            .contains("publisher gone before the last message: session " + session + " ended by its publisher")
            .doesNotContain("no new message");
        assertThat(waitedMs).as("ended by the publisher's end of stream, not by a timeout").isLessThan(15_000);
        assertThat(sub.err()).anyMatch(line -> line.startsWith("sub: publisher gone: session " + session + " ended"));
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void pubOnAMinTopicWithNoSubscriberGivesUpAfterTheReceiverTimeout() throws Exception {
        final long startMs = System.currentTimeMillis();
        final Command pub = Command.start("pub", "--count", "100", "--receiver-timeout", "1", "--linger", "0");

        assertThat(pub.waitFor()).as(pub.describe()).isEqualTo(1);
        assertThat(System.currentTimeMillis() - startMs).as("gave up after the 1 s timeout").isLessThan(20_000);
        final JsonNode sent = pub.result();
        assertThat(sent.get("ok").asBoolean()).isFalse();
        assertThat(sent.get("sent").asLong()).isZero();
        assertThat(sent.get("reason").asString()).as(pub.describe())
            .isEqualTo("message 0: no subscriber for 1.0 s (flow control min takes messages only while one is there): "
                + "start sub first, with the same config and topic");
        assertThat(pub.err()).anyMatch(line -> line.startsWith("pub: publishing 100 messages")
            && line.endsWith("flow control min: waiting for a subscriber"));
    }

    /**
     * A recorder records every message pub sends, and the end of its stream; {@code replay} brings a
     * range of it back over TCP and is refused what the recording does not hold; stopped by SIGTERM
     * the recorder says what it wrote, and {@code recordings} lists the one recording, ended, with
     * nothing in holes.
     */
    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void recordKeepsEveryMessageOfPubReplaysARangeAndRecordingsListsIt(@TempDir Path dir) throws Exception {
        final Path config = dir.resolve("recorded.yaml");
        Files.writeString(config, """
            transports:
              - name: local
                interface: lo
                group: 239.255.77.9
                port: 40470
                ttl: 0
            topics:
              - name: orders
                id: 7
                transport: local
                codec: flyweight
                record: true
                max-message: 64k
                close-linger: 10s
            recorder:
              segment-length: 1m
            """);
        final Path recordings = dir.resolve("recordings");
        final Command record = Command.start("record", "--config", config.toString(), "--dir", recordings.toString());
        record.awaitErrLine("record: recording [orders]");
        final Command pub = Command.start("pub", "--config", config.toString(), "--count", "20000", "--size", "64",
            "--linger", "0.3");
        assertThat(pub.waitFor()).as(pub.describe()).isZero();
        record.awaitErrLine("record: 0 msgs/s, 20000 messages and 0 holes");
        final long session = pub.result().get("sessionId").asLong();

        final Command replay = Command.start("replay", "--config", config.toString(), "--topic", "orders",
            "--session", String.valueOf(session), "--from", "19990", "--to", "19999");
        assertThat(replay.waitFor()).as(replay.describe()).isZero();
        assertThat(replay.out).hasSize(11);
        for (int i = 0; i < 10; i++) {
            final JsonNode line = JSON.readTree(replay.out.get(i));
            assertThat(line.get("index").asLong()).isEqualTo(19_990 + i);
            final byte[] bytes = java.util.Base64.getDecoder().decode(line.get("base64").asString());
            assertThat(bytes).hasSize(64);
            assertThat(java.nio.ByteBuffer.wrap(bytes).order(java.nio.ByteOrder.LITTLE_ENDIAN).getLong())
                .as("pub numbers its messages").isEqualTo(19_990 + i);
        }
        assertThat(replay.result().get("messages").asLong()).isEqualTo(10);
        assertThat(replay.result().get("next").asLong()).isEqualTo(20_000);
        final Command refused = Command.start("replay", "--config", config.toString(), "--topic", "orders",
            "--session", String.valueOf(session), "--from", "20000");
        assertThat(refused.waitFor()).as(refused.describe()).isOne();
        assertThat(refused.result().get("refusal").asString()).isEqualTo("NOT_HELD");
        assertThat(refused.err()).contains("replay: refused (NOT_HELD): topic 7, session " + session + ", messages"
            + " 20000..(what is held): its recording holds messages 0..19999");

        record.process.toHandle().destroy(); // SIGTERM, keeping this side of its pipes open

        assertThat(record.waitFor()).as("SIGTERM's code, after the result: %s", record.describe()).isEqualTo(143);
        final JsonNode recorded = record.result();
        assertThat(recorded.get("recordings").asLong()).isOne();
        assertThat(recorded.get("messages").asLong()).isEqualTo(20_000);
        assertThat(recorded.get("holes").asLong()).isZero();
        assertThat(recorded.get("segments").asLong()).as("20,000 frames of 96 bytes in 1 MiB segments").isEqualTo(2);
        assertThat(recorded.get("dir").asString()).isEqualTo(recordings.toString());

        final Command listing = Command.start("recordings", "--dir", recordings.toString());
        assertThat(listing.waitFor()).as(listing.describe()).isZero();
        assertThat(listing.result().get("recordings")).as(listing.describe()).singleElement().satisfies(recording -> {
            assertThat(recording.get("topic").asString()).isEqualTo("orders");
            assertThat(recording.get("session").asLong()).isEqualTo(session);
            assertThat(recording.get("state").asString()).isEqualTo("ended");
            assertThat(recording.get("firstMessage").asLong()).isZero();
            assertThat(recording.get("nextMessage").asLong()).isEqualTo(20_000);
            assertThat(recording.get("holeMessages").asLong()).isZero();
        });
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void recordRefusesAConfigThatMarksNoTopic(@TempDir Path dir) throws Exception {
        final Path config = dir.resolve("unrecorded.yaml");
        Files.writeString(config, """
            transports:
              - {name: local, interface: lo, group: 239.255.77.9, port: 40470}
            topics:
              - {name: orders, id: 7, transport: local, codec: flyweight}
            """);

        final Command record = Command.start("record", "--config", config.toString());

        assertThat(record.waitFor()).isEqualTo(Nakcast.CANNOT_START);
        assertThat(record.err()).anyMatch(line -> line.contains("no topic of " + config + " is marked record: true"));
    }

    /** A nakcast process, its output collected line by line. */
    private static final class Command {
        private final List<String> args;
        private final Process process;
        private final List<String> out = new CopyOnWriteArrayList<>();
        private final List<String> err = new CopyOnWriteArrayList<>();
        private final Thread outReader;
        private final Thread errReader;

        private Command(List<String> args, Process process) {
            this.args = args;
            this.process = process;
            this.outReader = collect(process.getInputStream(), out);
            this.errReader = collect(process.getErrorStream(), err);
        }

        static Command start(String... args) throws IOException {
            final List<String> command = new ArrayList<>(List.of(
                ProcessHandle.current().info().command().orElseThrow(),
                "@" + jvmOptions(),
                "-cp", System.getProperty("java.class.path"),
                Nakcast.class.getName()));
            command.addAll(List.of(args));
            return new Command(List.of(args), new ProcessBuilder(command).start());
        }

        /** ops/jvm.options, found upwards from the working directory (the module's). */
        private static Path jvmOptions() {
            for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
                final Path options = dir.resolve("ops/jvm.options");
                if (Files.isRegularFile(options)) {
                    return options;
                }
            }
            throw new IllegalStateException("no ops/jvm.options above " + Path.of("").toAbsolutePath());
        }

        private static Thread collect(InputStream stream, List<String> lines) {
            final Thread reader = new Thread(() -> {
                try (BufferedReader in = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = in.readLine()) != null) {
                        lines.add(line);
                    }
                } catch (IOException ex) {
                    lines.add("(read failed: " + ex + ")");
                }
            });
            reader.setDaemon(true);
            reader.start();
            return reader;
        }

        void awaitErrLine(String prefix) throws InterruptedException {
            final long deadlineMs = System.currentTimeMillis() + 20_000;
            while (err.stream().noneMatch(line -> line.startsWith(prefix))) {
                assertThat(process.isAlive()).as("%s ended before printing '%s'%n%s", args, prefix, describe())
                    .isTrue();
                assertThat(System.currentTimeMillis()).as("waiting for '%s'", prefix).isLessThan(deadlineMs);
                Thread.sleep(10);
            }
        }

        int waitFor() throws InterruptedException {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
            outReader.join(5_000);
            errReader.join(5_000);
            return process.exitValue();
        }

        /** The last line of stdout, as JSON. */
        JsonNode result() {
            assertThat(out).as(describe()).isNotEmpty();
            return JSON.readTree(out.get(out.size() - 1));
        }

        List<String> err() {
            return err;
        }

        String describe() {
            return "nakcast " + String.join(" ", args) + "\nstdout:\n" + String.join("\n", out)
                + "\nstderr:\n" + String.join("\n", err);
        }
    }
}
