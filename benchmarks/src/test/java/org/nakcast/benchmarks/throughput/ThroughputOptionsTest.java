package org.nakcast.benchmarks.throughput;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.nakcast.config.AuthKeyFile;
import org.nakcast.config.ByteSize;
import org.nakcast.config.FlowControlMode;
import org.nakcast.config.LateJoinPolicy;
import org.nakcast.config.TransportConfig;

import picocli.CommandLine;

class ThroughputOptionsTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream log = new ByteArrayOutputStream();

    @Test
    void helpListsTheNewOptions() {
        assertThat(ThroughputBench.run(new String[] {"--help"}, stream(out), stream(log))).isZero();

        assertThat(text(out)).contains("--peers", "--loss", "--injected-loss", "--flow-control", "iptables",
            "--stranger-naks", "--datagram-size", "--lines", "--recorder", "--auth");
    }

    @Test
    void peersRunAfterNakcastAtEachKernelLossLevelWithTheSameMessagesAndNoInjectedLoss() {
        final List<RunSettings> runs = plan("--peers", "--seconds", "4", "--size", "100", "--loss", "0,0.01",
            "--rate", "64m,0");

        assertThat(runs).extracting(RunSettings::system, RunSettings::loss, RunSettings::rateText)
            .containsExactly(
                tuple(Contender.NAKCAST, 0.0, "64m/s"), tuple(Contender.NAKCAST, 0.0, "unpaced"),
                tuple(Contender.AERON, 0.0, "own"), tuple(Contender.FAST_CAST, 0.0, "own"),
                tuple(Contender.NAKCAST, 0.01, "64m/s"), tuple(Contender.NAKCAST, 0.01, "unpaced"),
                tuple(Contender.AERON, 0.01, "own"), tuple(Contender.FAST_CAST, 0.01, "own"));
        assertThat(runs).allSatisfy(run -> {
            assertThat(run.seconds()).isEqualTo(4);
            assertThat(run.messageLength()).isEqualTo(100);
            assertThat(run.injectedLoss()).isZero();
        });
    }

    @Test
    void injectedLossIsNakcastsOwnAndKernelLossIsSeparate() {
        final List<RunSettings> runs = plan("--peers", "--loss", "0.1", "--injected-loss", "0,0.02");

        assertThat(runs).extracting(RunSettings::system, RunSettings::loss, RunSettings::injectedLoss)
            .containsExactly(tuple(Contender.NAKCAST, 0.1, 0.0), tuple(Contender.NAKCAST, 0.1, 0.02),
                tuple(Contender.AERON, 0.1, 0.0), tuple(Contender.FAST_CAST, 0.1, 0.0));
    }

    @Test
    void withoutPeersOnlyNakcastRuns() {
        assertThat(plan("--loss", "0,0.01")).extracting(RunSettings::system)
            .containsExactly(Contender.NAKCAST, Contender.NAKCAST);
    }

    @Test
    void flowControlIsMinAndUnpacedUnlessChosen() {
        final RunSettings held = plan().get(0);
        assertThat(held.sendRate().isZero()).isTrue();
        assertThat(held.flowControl()).isEqualTo(FlowControlMode.MIN);
        assertThat(plan("--codec", "kryo").get(0).flowControl()).isEqualTo(FlowControlMode.MIN);
        assertThat(held.nodeConfig().topic(RunSettings.TOPIC).flowControl()).isEqualTo(FlowControlMode.MIN);
        assertThat(held.nodeConfig().topic(RunSettings.TOPIC).history()).isEqualTo(ByteSize.parse("2m"));
        assertThat(held.nodeConfig().topic(RunSettings.TOPIC).offerBuffer()).isEqualTo(ByteSize.parse("16m"));
        assertThat(plan("--codec", "kryo").get(0).nodeConfig().topic(RunSettings.TOPIC).offerBuffer())
            .isEqualTo(ByteSize.parse("16m"));
        assertThat(plan("--codec", "kryo", "--flow-control", "max").get(0).nodeConfig().topic(RunSettings.TOPIC)
            .flowControl()).isEqualTo(FlowControlMode.MAX);
        assertThat(plan("--rate", "128m").get(0).sendRate()).isEqualTo(ByteSize.parse("128m"));
    }

    @Test
    void strangerNaksRunEachIntervalInTurnForNakcastOnly() {
        final List<RunSettings> runs = plan("--peers", "--flow-control", "max", "--stranger-naks", "0,1ms,250us");

        assertThat(runs).extracting(RunSettings::system, RunSettings::strangerNaks, RunSettings::strangerText)
            .containsExactly(tuple(Contender.NAKCAST, Duration.ZERO, "-"),
                tuple(Contender.NAKCAST, Duration.ofMillis(1), "1ms"),
                tuple(Contender.NAKCAST, Duration.ofNanos(250_000), "250us"),
                tuple(Contender.AERON, Duration.ZERO, "-"), tuple(Contender.FAST_CAST, Duration.ZERO, "-"));
        assertThat(runs.get(1).withoutStranger()).isEqualTo(runs.get(0));
        assertThat(RunSettings.fromArgs(runs.get(1).toArgs().toArray(String[]::new))).isEqualTo(runs.get(1));
        assertThat(plan().get(0).strangerNaks()).as("none unless asked").isZero();
    }

    @Test
    void withARecorderEachNakcastRunRunsWithoutThenWithOneAndPeersNever() {
        final List<RunSettings> runs = plan("--peers", "--recorder", "--loss", "0,0.01");

        assertThat(runs).extracting(RunSettings::system, RunSettings::recorder, RunSettings::loss)
            .containsExactly(tuple(Contender.NAKCAST, false, 0.0), tuple(Contender.NAKCAST, true, 0.0),
                tuple(Contender.AERON, false, 0.0), tuple(Contender.FAST_CAST, false, 0.0),
                tuple(Contender.NAKCAST, false, 0.01), tuple(Contender.NAKCAST, true, 0.01),
                tuple(Contender.AERON, false, 0.01), tuple(Contender.FAST_CAST, false, 0.01));
        assertThat(runs.get(1).withoutRecorder()).isEqualTo(runs.get(0));
        assertThat(RunSettings.fromArgs(runs.get(1).toArgs().toArray(String[]::new))).isEqualTo(runs.get(1));
        assertThat(RecorderMain.recorderConfig(runs.get(1).nodeConfig()).topic(RunSettings.TOPIC).lateJoin())
            .as("a recorder records a stream met mid-way from its oldest").isEqualTo(LateJoinPolicy.OLDEST);
        assertThat(plan().get(0).recorder()).as("none unless asked").isFalse();
    }

    @Test
    void withAuthOffAndOnEachNakcastRunRunsWithoutThenWithAKeyFileAndPeersNever() {
        final List<RunSettings> runs = plan("--peers", "--auth", "off,on");

        assertThat(runs).extracting(RunSettings::system, run -> run.authKeyFile() != null)
            .containsExactly(tuple(Contender.NAKCAST, false), tuple(Contender.NAKCAST, true),
                tuple(Contender.AERON, false), tuple(Contender.FAST_CAST, false));
        assertThat(runs.get(1).withoutAuth()).isEqualTo(runs.get(0));
        assertThat(RunSettings.fromArgs(runs.get(1).toArgs().toArray(String[]::new))).isEqualTo(runs.get(1));
        assertThat(runs.get(1).nodeConfig().transports()).allSatisfy(transport ->
            assertThat(AuthKeyFile.read(Path.of(transport.authKeyFile())).keys()).hasSize(1));
        assertThat(ThroughputTable.media(runs.get(1))).isEqualTo("nio+a");
        assertThat(plan().get(0).authKeyFile()).as("none unless asked").isNull();
    }

    @Test
    void anAuthValueOtherThanOffOrOnIsABadOption() {
        assertThat(ThroughputBench.run(new String[] {"--auth", "yes"}, stream(out), stream(log)))
            .isEqualTo(ThroughputBench.BAD_OPTION);
        assertThat(text(log)).contains("--auth must be off or on, was 'yes'");
    }

    @Test
    void twoLinesPutTheTopicAlsoOnACopyOfItsTransportAndPeersStayOnOne() {
        final List<RunSettings> runs = plan("--peers", "--lines", "1,2", "--loss", "0.01");

        assertThat(runs).extracting(RunSettings::system, RunSettings::lines).containsExactly(
            tuple(Contender.NAKCAST, 1), tuple(Contender.NAKCAST, 2), tuple(Contender.AERON, 1),
            tuple(Contender.FAST_CAST, 1));
        assertThat(runs.get(0).nodeConfig().topic(RunSettings.TOPIC).lines()).containsExactly("local");
        final var twoLines = runs.get(1).nodeConfig();
        assertThat(twoLines.topic(RunSettings.TOPIC).lines()).containsExactly("local", "local-b");
        assertThat(twoLines.lines(twoLines.topic(RunSettings.TOPIC)))
            .extracting(transport -> transport.group().getHostAddress() + ":" + transport.port(),
                transport -> transport.networkInterface().name())
            .containsExactly(tuple("239.255.77.1:40456", "lo"), tuple("239.255.77.5:40476", "lo"));
        assertThat(RunSettings.fromArgs(runs.get(1).toArgs().toArray(String[]::new))).isEqualTo(runs.get(1));
        assertThat(plan().get(0).lines()).as("one line unless asked").isEqualTo(1);
    }

    @Test
    void theDatagramSizeIsEverySystemsAndNakcastsDefaultUnlessChosen() {
        assertThat(plan("--peers")).extracting(RunSettings::datagramSize)
            .containsOnly(TransportConfig.DEFAULT_DATAGRAM_SIZE);

        final List<RunSettings> jumbo = plan("--peers", "--datagram-size", "8k");

        assertThat(jumbo).extracting(RunSettings::system, RunSettings::datagramSize).containsExactly(
            tuple(Contender.NAKCAST, new ByteSize(8192)), tuple(Contender.AERON, new ByteSize(8192)),
            tuple(Contender.FAST_CAST, new ByteSize(8192)));
        assertThat(jumbo.get(0).nodeConfig().transports()).extracting(transport -> transport.datagramSize().bytes())
            .containsOnly(8192L);
        assertThat(jumbo).allSatisfy(run ->
            assertThat(RunSettings.fromArgs(run.toArgs().toArray(String[]::new))).isEqualTo(run));
        assertThat(plan("--datagram-size", "1400").get(0).datagramSize())
            .as("Aeron's multiple of 32 binds only with --peers").isEqualTo(new ByteSize(1400));
    }

    @Test
    void aDatagramSizeASystemRefusesIsABadOptionThatSaysWhy() {
        assertRefused("Invalid value for option '--datagram-size': 'big' is not a size", "--datagram-size", "big");
        assertRefused("datagram-size must be in 64..65507 (was 32) at transports[0].datagram-size",
            "--datagram-size", "32");
        assertRefused("datagram-size must be in 64..65507 (was 65536)", "--datagram-size", "64k");
        assertRefused("--datagram-size 1400: Aeron refuses it as its MTU (a multiple of 32, at most"
            + " 65504): ", "--peers", "--datagram-size", "1400");
        assertThat(text(log)).contains("mtuLength=1400 is not a multiple of FRAME_ALIGNMENT=32");
        assertRefused("mtuLength=65505 > MAX_UDP_PAYLOAD_LENGTH=65504", "--peers", "--datagram-size", "65505");
        assertRefused("--datagram-size 1408: Aeron's publisher claims each message in one frame, which"
            + " holds the MTU less its 32-byte header: too small for messages of 1400 bytes", "--peers", "--size",
            "1400");
        assertRefused("--datagram-size 64: fast-cast takes 256 to 65507 bytes", "--peers",
            "--datagram-size", "64", "--size", "8");
        assertRefused("fast-cast writes the length of a message's part in a datagram as a signed 16-bit number: with"
            + " messages of 40000 bytes, datagrams must be under 32767 bytes", "--peers", "--datagram-size", "65504",
            "--size", "40000");
        assertThat(text(out)).isEmpty();
    }

    @Test
    void theRunTravelsToTheChildJvms() {
        final RunSettings aeron = plan("--peers", "--loss", "0.01").get(1);

        assertThat(RunSettings.fromArgs(aeron.toArgs().toArray(String[]::new))).isEqualTo(aeron);
    }

    @Test
    void badValuesAndCombinationsAreRefusedWith64() {
        assertThat(ThroughputBench.run(new String[] {"--peers", "--codec", "kryo"}, stream(out), stream(log)))
            .isEqualTo(ThroughputBench.BAD_OPTION);
        assertThat(text(log)).contains("--peers compares raw bytes");
        assertThat(ThroughputBench.run(new String[] {"--loss", "1.5"}, stream(out), stream(log)))
            .isEqualTo(ThroughputBench.BAD_OPTION);
        assertThat(text(log)).contains("--loss must be within 0..1");
        assertThat(ThroughputBench.run(new String[] {"--injected-loss", "-0.1"}, stream(out), stream(log)))
            .isEqualTo(ThroughputBench.BAD_OPTION);
        assertThat(text(log)).contains("--injected-loss must be within 0..1");
        assertThat(ThroughputBench.run(new String[] {"--flow-control", "fast"}, stream(out), stream(log)))
            .isEqualTo(ThroughputBench.BAD_OPTION);
        assertThat(text(log)).contains("--flow-control must be min or max, was 'fast'");
        assertThat(ThroughputBench.run(new String[] {"--stranger-naks", "1"}, stream(out), stream(log)))
            .isEqualTo(ThroughputBench.BAD_OPTION);
        assertThat(text(log)).contains("duration '1' has no unit");
        assertThat(ThroughputBench.run(new String[] {"--stranger-naks", "-1ms"}, stream(out), stream(log)))
            .isEqualTo(ThroughputBench.BAD_OPTION);
        assertThat(text(log)).contains("'-1ms' is not a duration");
        assertThat(ThroughputBench.run(new String[] {"--lines", "3"}, stream(out), stream(log)))
            .isEqualTo(ThroughputBench.BAD_OPTION);
        assertThat(text(log)).contains("--lines must be 1 or 2, was 3");
        assertThat(text(out)).isEmpty();
    }

    private void assertRefused(String why, String... args) {
        log.reset();
        assertThat(ThroughputBench.run(args, stream(out), stream(log))).as(String.join(" ", args))
            .isEqualTo(ThroughputBench.BAD_OPTION);
        assertThat(text(log)).contains(why);
    }

    private List<RunSettings> plan(String... args) {
        final ThroughputBench bench = new ThroughputBench(stream(out), stream(log));
        new CommandLine(bench).parseArgs(args);
        return bench.runs();
    }

    private static PrintStream stream(ByteArrayOutputStream bytes) {
        return new PrintStream(bytes, true, StandardCharsets.UTF_8);
    }

    private static String text(ByteArrayOutputStream bytes) {
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
