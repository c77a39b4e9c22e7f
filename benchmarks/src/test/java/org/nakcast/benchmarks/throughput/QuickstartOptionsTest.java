package org.nakcast.benchmarks.throughput;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;


import org.junit.jupiter.api.Test;
import org.nakcast.config.ByteSize;
import org.nakcast.config.FlowControlMode;
import org.nakcast.config.MediaType;
import org.nakcast.config.TopicConfig;
import org.nakcast.config.TransportConfig;

/** The options of ops/quickstart and the --codec option of ops/throughput: what they accept and refuse. */
class QuickstartOptionsTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream log = new ByteArrayOutputStream();

    @Test
    void helpExplainsEveryOption() {
        final int status = Quickstart.run(new String[] {"--help"}, stream(out), stream(log));

        assertThat(status).isZero();
        assertThat(text(out)).contains("--codecs", "--seconds", "--warmup", "--rate", "--help",
            "(default: flyweight,", "jdk-externalizable,jdk)");
    }

    @Test
    void anUnknownCodecIsABadOptionThatListsTheKnownOnes() {
        final int status = Quickstart.run(new String[] {"--codecs", "flyweight,protobuf"}, stream(out), stream(log));

        assertThat(status).isEqualTo(ThroughputBench.BAD_OPTION);
        assertThat(text(log)).contains("'protobuf'", "flyweight, fst-unshared, fst, kryo, jdk-externalizable, jdk");
        assertThat(text(out)).isEmpty();
    }

    @Test
    void rawIsNoCodecForTheQuickstart() {
        assertThat(Quickstart.run(new String[] {"--codecs", "raw"}, stream(out), stream(log)))
            .isEqualTo(ThroughputBench.BAD_OPTION);
    }

    @Test
    void aBadDurationOrRateIsABadOption() {
        assertThat(Quickstart.run(new String[] {"--seconds", "0"}, stream(out), stream(log)))
            .isEqualTo(ThroughputBench.BAD_OPTION);
        assertThat(Quickstart.run(new String[] {"--rate", "fast"}, stream(out), stream(log)))
            .isEqualTo(ThroughputBench.BAD_OPTION);
        assertThat(text(log)).contains("--seconds must be at least 1");
    }

    @Test
    void throughputTakesACodecAndRefusesAnUnknownOne() {
        final int status = ThroughputBench.run(new String[] {"--codec", "protobuf"}, stream(out), stream(log));

        assertThat(status).isEqualTo(ThroughputBench.BAD_OPTION);
        assertThat(text(log)).contains("--codec must be one of raw, flyweight");
    }

    @Test
    void theCodecTravelsToTheChildJvms() {
        final RunSettings settings = new RunSettings(Contender.NAKCAST, 2, 1, 70, TransportConfig.DEFAULT_DATAGRAM_SIZE,
            0.01, 0.02, ByteSize.parse("64m"), FlowControlMode.MIN, 7, "jdk-externalizable", Duration.ZERO, 1,
            MediaType.NIO, false, null);

        assertThat(RunSettings.fromArgs(settings.toArgs().toArray(String[]::new))).isEqualTo(settings);
        assertThatThrownBy(() -> RunSettings.fromArgs(new String[] {"system=nakcast", "seconds=1", "warmup=0",
            "size=8", "datagramSize=1408", "loss=0", "injectedLoss=0", "rate=0", "flowControl=MAX", "seed=1"}))
            .hasMessageContaining("codec=");
    }

    @Test
    void aCodecRunPutsTheCodecOnThePricesTopicHeldToItsSlowestReceiver() {
        final TopicConfig raw = new RunSettings(Contender.NAKCAST, 1, 0, 70, TransportConfig.DEFAULT_DATAGRAM_SIZE, 0,
            0, new ByteSize(0), FlowControlMode.MAX, 1, Payload.RAW, Duration.ZERO, 1, MediaType.NIO, false, null)
            .nodeConfig().topic(RunSettings.TOPIC);
        final TopicConfig kryo = new RunSettings(Contender.NAKCAST, 1, 0, 70, TransportConfig.DEFAULT_DATAGRAM_SIZE, 0,
            0, new ByteSize(0), FlowControlMode.MIN, 1, "kryo", Duration.ZERO, 1, MediaType.NIO, false, null)
            .nodeConfig().topic(RunSettings.TOPIC);

        assertThat(raw.codec()).isEqualTo("flyweight");
        assertThat(raw.flowControl()).isEqualTo(FlowControlMode.MAX);
        assertThat(kryo.codec()).isEqualTo("kryo");
        assertThat(kryo.flowControl()).isEqualTo(FlowControlMode.MIN);
        assertThat(kryo.allowedClasses()).containsExactly("org.nakcast.codecs.sample.PriceUpdate",
            "org.nakcast.codecs.sample.Instrument");
        assertThat(kryo.id()).isEqualTo(raw.id());
    }

    private static PrintStream stream(ByteArrayOutputStream bytes) {
        return new PrintStream(bytes, true, StandardCharsets.UTF_8);
    }

    private static String text(ByteArrayOutputStream bytes) {
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
