package org.nakcast.rtt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;
import org.junit.jupiter.api.Test;
import org.nakcast.config.AuthKeyFile;
import org.nakcast.config.IdleStrategyType;
import org.nakcast.config.MediaType;
import org.nakcast.config.NodeConfig;
import org.nakcast.config.TransportConfig;
import org.nakcast.transport.media.MediaChoice;

import picocli.CommandLine;

/** The command line: defaults, parsing, checks, exit codes and a help that explains every option. */
class LatencyRttOptionsTest {
    private static final NakcastPath NAKCAST = new NakcastPath(MediaType.NIO, false);
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final CommandLine commandLine = LatencyRtt.commandLine(
        new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));

    @Test
    void pingDefaultsAreTheIssuesFigures() {
        final PingCommand ping = parse("ping");
        assertThat(ping.links.config).isNull();
        assertThat(ping.links.pingTopic).isEqualTo("ping");
        assertThat(ping.links.pongTopic).isEqualTo("pong");
        assertThat(ping.links.size).isEqualTo(32);
        assertThat(ping.links.newIdleStrategy()).isInstanceOf(BusySpinIdleStrategy.class);
        assertThat(ping.links.phases()).containsExactly(NAKCAST);
        assertThat(ping.run.warmup).isEqualTo(200_000);
        assertThat(ping.run.measuredCount(0, 1)).isEqualTo(100_000);
        assertThat(ping.run.durationNs(1)).isZero();
        assertThat(ping.run.intervalNs()).isZero();
        assertThat(ping.run.mode()).isEqualTo("back-to-back");
        assertThat(ping.run.file("nakcast", ".hgrm")).isEqualTo(Path.of("target/latency-rtt/rtt-nakcast.hgrm"));
        assertThat(ping.run.file(null, ".png")).isEqualTo(Path.of("target/latency-rtt/rtt.png"));
    }

    @Test
    void pingParsesEveryOption() {
        final PingCommand ping = parse("ping", "--config", "lan.yaml", "--ping-topic", "a", "--pong-topic", "b",
            "--size", "64", "--idle", "YIELD", "--baseline", "raw-udp", "--warmup", "10", "--count", "20",
            "--duration", "1.5", "--rate", "1000", "--timeout", "2", "--output", "out", "--name", "run-1");
        ping.links.check(false);
        ping.run.check(ping.links.rounds);
        assertThat(ping.links.config).isEqualTo(Path.of("lan.yaml"));
        assertThat(ping.links.pingTopic).isEqualTo("a");
        assertThat(ping.links.pongTopic).isEqualTo("b");
        assertThat(ping.links.size).isEqualTo(64);
        assertThat(ping.links.newIdleStrategy()).isInstanceOf(YieldingIdleStrategy.class);
        assertThat(ping.links.phases()).containsExactly(LinkKind.RAW_UDP, NAKCAST);
        assertThat(ping.run.warmup).isEqualTo(10);
        assertThat(ping.run.measuredCount(0, 1)).as("--duration replaces --count").isEqualTo(Long.MAX_VALUE);
        assertThat(ping.run.durationNs(1)).isEqualTo(1_500_000_000L);
        assertThat(ping.run.intervalNs()).isEqualTo(1_000_000);
        assertThat(ping.run.timeoutNs()).isEqualTo(2_000_000_000L);
        assertThat(ping.run.mode()).isEqualTo("rate 1000/s");
        assertThat(ping.run.file("raw-udp", ".hlog")).isEqualTo(Path.of("out/run-1-raw-udp.hlog"));
    }

    @Test
    void authMeasuresNakcastWithoutThenWithAuthenticationAndLocalWritesItsOwnKeyFile() {
        final LocalCommand local = parse("local", "--auth");
        local.links.check(true);

        assertThat(local.links.phases()).containsExactly(NAKCAST, new NakcastPath(MediaType.NIO, true));
        final Path keyFile = local.links.authKeyFile();
        assertThat(AuthKeyFile.read(keyFile).keys()).hasSize(1);
        final LinkSetup setup =
            new LinkSetup(true, local.links.loadConfig(), "ping", "pong", 32, IdleStrategyType.SPIN, keyFile);
        assertThat(setup.config().transports()).noneMatch(TransportConfig::authenticated);
        assertThat(setup.authenticatedConfig().transports())
            .allSatisfy(transport -> assertThat(transport.authKeyFile()).isEqualTo(keyFile.toString()));
    }

    @Test
    void pingOrPongWithAuthButNoKeyFileIsToldBothSidesNeedOne() {
        final PingCommand ping = parse("ping", "--auth");

        assertThatThrownBy(() -> ping.links.check(false)).isInstanceOf(IllegalArgumentException.class)
            .hasMessage("--auth needs the key file ping and pong share (nakcast keygen --out FILE writes one)");
    }

    @Test
    void mediaRunsNakcastOncePerMediaNioFirstEachWithoutThenWithAuthentication() {
        final LocalCommand local = parse("local", "--baseline", "raw-udp", "--media", "NATIVE,nio", "--auth");

        assertThat(local.links.phases()).extracting(RttPath::label)
            .containsExactly("raw-udp", "nakcast", "nakcast+auth", "nakcast-native", "nakcast-native+auth");
        assertThat(this.<PongCommand>parse("pong", "--media", "native").links.phases())
            .containsExactly(new NakcastPath(MediaType.NATIVE, false));
    }

    @Test
    void roundsTakeTurnsForwardThenBackwardAndShareTheCountAmongEachPathsTurns() {
        final LocalCommand local = parse("local", "--baseline", "raw-udp", "--media", "nio,native", "--rounds", "3",
            "--count", "10");

        assertThat(local.links.schedule(local.links.phases())).extracting(RttPath::label).containsExactly(
            "raw-udp", "nakcast", "nakcast-native",
            "nakcast-native", "nakcast", "raw-udp",
            "raw-udp", "nakcast", "nakcast-native");
        assertThat(List.of(local.run.measuredCount(0, 3), local.run.measuredCount(1, 3), local.run.measuredCount(2, 3)))
            .as("10 round trips in three turns").containsExactly(4L, 3L, 3L);
        assertThat(this.<PingCommand>parse("ping", "--duration", "3").run.durationNs(3)).isEqualTo(1_000_000_000L);
        final PongCommand pong = parse("pong");
        assertThat(pong.links.rounds).isEqualTo(1);
        final List<RttPath> phases = pong.links.phases();
        assertThat(pong.links.schedule(phases)).as("one round: the paths once, in order").isEqualTo(phases);
    }

    @Test
    void aMediaThatIsNotOneOrIsNamedTwiceIsRefusedNamingTheMediaKnown() {
        for (String command : List.of("ping", "pong", "local")) {
            assertThat(exitCode(command, "--media", "nio,dpdk")).isEqualTo(LatencyRtt.CANNOT_START);
            assertThat(err()).contains("latency-rtt " + command + ": cannot start: --media takes nio or native, or"
                + " several: nio,native (was dpdk)");
        }
        assertThat(exitCode("local", "--media", "nio,NIO")).isEqualTo(LatencyRtt.CANNOT_START);
        assertThat(err()).contains("--media names nio twice");
        for (String none : List.of("", ",")) {
            assertThat(exitCode("local", "--media", none)).isEqualTo(LatencyRtt.CANNOT_START);
            assertThat(err()).contains("--media takes nio or native, or several: nio,native (was ");
        }
    }

    @Test
    void aMediaThisJvmCannotHaveStopsTheRunAtStartWithTheReason() {
        final MediaChoice nativeMedia = MediaChoice.of("native");
        assumeTrue(nativeMedia.fellBack(), "this JVM has the native media: LocalCommandIT measures it");

        assertThat(exitCode("local", "--media", "nio,native", "--output", "never-written"))
            .isEqualTo(LatencyRtt.CANNOT_START);
        assertThat(err()).contains("latency-rtt local: cannot start: --media native is not available here: "
            + nativeMedia.fallbackReason() + "; its nodes would run on nio, and a run measures only the media it"
            + " names");
        assertThat(out.toString(StandardCharsets.UTF_8)).as("nothing measured, nothing reported").isEmpty();
        assertThat(Path.of("never-written")).doesNotExist();
    }

    @Test
    void theEmbeddedConfigHasBothTopicsOnLoWithTtlZero() {
        final PongCommand pong = parse("pong");
        final NodeConfig config = pong.links.loadConfig();
        for (String topic : List.of("ping", "pong")) {
            final var transport = config.lines(config.topic(topic)).get(0);
            assertThat(transport.networkInterface().name()).isEqualTo("lo");
            assertThat(transport.ttl()).isZero();
        }
        assertThat(config.topic("ping").lines()).isNotEqualTo(config.topic("pong").lines());
    }

    @Test
    void twoLinesPutEachTopicAlsoOnACopyOfItsTransportFourGroupsAndTwentyPortsUp() {
        final PongCommand pong = parse("pong", "--lines", "2");
        pong.links.check(false);
        final NodeConfig config = pong.links.loadConfig();

        assertThat(config.topic("ping").lines()).containsExactly("ping", "ping-b");
        assertThat(config.topic("pong").lines()).containsExactly("pong", "pong-b");
        assertThat(pong.links.topicTransports(config))
            .extracting(transport -> transport.group().getHostAddress() + ":" + transport.port())
            .containsExactly("239.255.77.11:40480", "239.255.77.15:40500", "239.255.77.13:40490",
                "239.255.77.17:40510");
        assertThat(pong.links.topicTransports(config)).allSatisfy(transport -> {
            assertThat(transport.networkInterface().name()).isEqualTo("lo");
            assertThat(transport.ttl()).isZero();
        });
        assertThat(this.<PingCommand>parse("ping").links.lines).as("one line unless asked").isEqualTo(1);
        final LocalCommand local = parse("local");
        assertThat(local.links.topicTransports(local.links.loadConfig())).extracting(transport -> transport.name())
            .containsExactly("ping", "pong");
        assertThat(local.loss).isZero();
    }

    @Test
    void badValuesAreRefusedNamingTheOption() {
        assertThat(exitCode("local", "--lines", "3")).isEqualTo(LatencyRtt.CANNOT_START);
        assertThat(err()).contains("--lines must be 1 or 2 (was 3)");
        assertThat(exitCode("local", "--loss", "1.5")).isEqualTo(LatencyRtt.CANNOT_START);
        assertThat(err()).contains("--loss must be at least 0 and below 1 (was 1.5)");
        assertThat(exitCode("ping", "--size", "8")).isEqualTo(LatencyRtt.CANNOT_START);
        assertThat(err()).contains("--size must be at least 16");
        assertThat(exitCode("pong", "--idle", "nap")).isEqualTo(LatencyRtt.CANNOT_START);
        assertThat(err()).contains("--idle must be spin, yield, backoff or sleep");
        assertThat(exitCode("local", "--baseline", "tcp")).isEqualTo(LatencyRtt.CANNOT_START);
        assertThat(err()).contains("--baseline knows only raw-udp");
        assertThat(exitCode("local", "--peer", "aeron")).isEqualTo(LatencyRtt.CANNOT_START);
        assertThat(err()).contains("--peer aeron is not on the class path (no peer is: ops/latency-peers runs this "
            + "tool with the peers' jar)");
        assertThat(exitCode("pong", "--rounds", "0")).isEqualTo(LatencyRtt.CANNOT_START);
        assertThat(err()).contains("--rounds must be at least 1 (was 0)");
        assertThat(exitCode("local", "--rounds", "4", "--count", "3")).isEqualTo(LatencyRtt.CANNOT_START);
        assertThat(err()).contains("--count 3 leaves a turn of the 4 rounds with nothing to measure");
        assertThat(exitCode("ping", "--count", "0")).isEqualTo(LatencyRtt.CANNOT_START);
        assertThat(exitCode("ping", "--name", "a/b")).isEqualTo(LatencyRtt.CANNOT_START);
        assertThat(exitCode("ping", "--ping-topic", "nope")).isEqualTo(LatencyRtt.CANNOT_START);
        assertThat(err()).contains("nope");
    }

    @Test
    void aBadCommandLineIsExitCodeTwo() {
        assertThat(exitCode("ping", "--size", "many")).isEqualTo(2);
        assertThat(exitCode("ping", "--no-such-option")).isEqualTo(2);
        assertThat(exitCode()).isEqualTo(2);
        assertThat(err()).contains("Usage: latency-rtt");
    }

    @Test
    void helpExplainsEveryOptionOfEveryCommand() {
        for (String command : List.of("ping", "pong", "local")) {
            out.reset();
            assertThat(exitCode(command, "--help")).isZero();
            final String help = out.toString(StandardCharsets.UTF_8);
            for (CommandLine.Model.OptionSpec option : commandLine.getSubcommands().get(command).getCommandSpec()
                .options()) {
                assertThat(help).as(command + " " + option.longestName()).contains(option.longestName());
                assertThat(String.join(" ", option.description())).as(command + " " + option.longestName())
                    .isNotBlank();
            }
        }
        out.reset();
        assertThat(exitCode("--help")).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("ping", "pong", "local", "--baseline raw-udp",
            "--peer aeron");
    }

    private <T> T parse(String... args) {
        final CommandLine.ParseResult result = commandLine.parseArgs(args);
        return result.subcommand().commandSpec().commandLine().getCommand();
    }

    private int exitCode(String... args) {
        err.reset();
        return commandLine.execute(args);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }
}
