package org.nakcast.benchmarks.throughput;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.OptionalInt;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.nakcast.config.AuthKeys;
import org.nakcast.config.ByteSize;
import org.nakcast.config.FlowControlMode;
import org.nakcast.config.MediaType;
import org.nakcast.config.TransportConfig;
import org.nakcast.transport.protocol.DatagramValidator;
import org.nakcast.transport.protocol.FrameType;
import org.nakcast.transport.protocol.HeartbeatFlyweight;
import org.nakcast.transport.protocol.NakFlyweight;
import org.nakcast.transport.status.DatagramCheck;

class StrangerNaksTest {
    private static final int SESSION = -1_234_567;
    private static final int TOPIC = 1;

    private final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(1500));

    @Test
    void theForgedNakAsksForTheWholeHistoryOfTheStreamWhichIsMoreThanANakMay() {
        final int length = StrangerNaks.forge(buffer, SESSION, TOPIC);

        assertThat(DatagramValidator.check(buffer, 0, length)).isEqualTo(DatagramCheck.NAK_TOO_WIDE);
        final NakFlyweight nak = new NakFlyweight();
        nak.wrap(buffer, 0);
        assertThat(nak.typeCode()).isEqualTo(FrameType.NAK.code());
        assertThat(length).isEqualTo(NakFlyweight.lengthFor(1));
        assertThat(nak.sessionId()).isEqualTo(SESSION);
        assertThat(nak.topicId()).isEqualTo(TOPIC);
        assertThat(nak.receiverId()).isEqualTo(StrangerNaks.STRANGER_ID);
        assertThat(nak.rangeCount()).isEqualTo(1);
        assertThat(nak.rangeFrom(0)).isZero();
        assertThat(nak.rangeTo(0)).isEqualTo(1L << 62);
    }

    @Test
    void aHeartbeatOrDataOfTheTopicTellsTheSessionAndNothingElseDoes() {
        assertThat(StrangerNaks.sessionOf(buffer, heartbeat(TOPIC), TOPIC)).isEqualTo(OptionalInt.of(SESSION));
        assertThat(StrangerNaks.sessionOf(buffer, heartbeat(TOPIC + 1), TOPIC)).isEmpty();
        assertThat(StrangerNaks.sessionOf(buffer, heartbeat(TOPIC) + AuthKeys.TRAILER_BYTES, TOPIC))
            .as("an authenticated heartbeat, its trailer unread").isEqualTo(OptionalInt.of(SESSION));
        assertThat(StrangerNaks.sessionOf(buffer, heartbeat(TOPIC) + 5, TOPIC)).as("a wrong length").isEmpty();

        final int nakLength = StrangerNaks.forge(buffer, SESSION, TOPIC);
        assertThat(StrangerNaks.sessionOf(buffer, nakLength, TOPIC)).as("a NAK is not the publisher's").isEmpty();

        buffer.setMemory(0, 64, (byte) 7);
        assertThat(StrangerNaks.sessionOf(buffer, 64, TOPIC)).as("not nakcast").isEmpty();
    }

    @Test
    void aRunWithoutAStrangerStartsNone() {
        final RunSettings run = new RunSettings(Contender.NAKCAST, 1, 0, 70, TransportConfig.DEFAULT_DATAGRAM_SIZE, 0,
            0, new ByteSize(0), FlowControlMode.MAX, 1, Payload.RAW, Duration.ZERO, 1, MediaType.NIO, false, null);
        final ByteArrayOutputStream log = new ByteArrayOutputStream();

        try (StrangerNaks stranger = StrangerNaks.start(run, new PrintStream(log, true, StandardCharsets.UTF_8))) {
            assertThat(stranger.naksSent()).isZero();
        }
        assertThat(log.toString(StandardCharsets.UTF_8)).isEmpty();
    }

    private int heartbeat(int topicId) {
        final HeartbeatFlyweight heartbeat = new HeartbeatFlyweight();
        heartbeat.wrap(buffer, 0);
        heartbeat.writeHeader(FrameType.HEARTBEAT, HeartbeatFlyweight.HEARTBEAT_LENGTH, SESSION, topicId, -1);
        heartbeat.oldestSequence(0).publisherId(99);
        return HeartbeatFlyweight.HEARTBEAT_LENGTH;
    }
}
