package org.nakcast.benchmarks.throughput;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.HashSet;
import java.util.Set;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.nakcast.transport.protocol.DataFlyweight;
import org.nakcast.transport.protocol.DatagramValidator;
import org.nakcast.transport.protocol.FrameType;
import org.nakcast.transport.protocol.HeartbeatFlyweight;
import org.nakcast.transport.protocol.NakFlyweight;
import org.nakcast.transport.protocol.StatusFlyweight;
import org.nakcast.transport.protocol.UnrecoverableFlyweight;
import org.nakcast.transport.status.DatagramCheck;

/** Each forgery is a well-formed datagram of the session: only its source can give it away. */
class SessionForgerTest {
    private static final int SESSION = -1_234_567;
    private static final int TOPIC = 3;
    private static final long HIGHEST = 9_000;

    private final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(1500));

    @Test
    void theForgedEndSaysTheSessionEndedBeforeItSentAnything() {
        final int length = SessionForger.forge(buffer, SessionForger.Row.END, 0, SESSION, TOPIC, HIGHEST);

        assertThat(DatagramValidator.check(buffer, 0, length)).isEqualTo(DatagramCheck.VALID);
        final HeartbeatFlyweight heartbeat = new HeartbeatFlyweight();
        heartbeat.wrap(buffer, 0);
        assertThat(heartbeat.typeCode()).isEqualTo(FrameType.HEARTBEAT.code());
        assertThat(heartbeat.sessionId()).isEqualTo(SESSION);
        assertThat(heartbeat.isEndOfStream()).isTrue();
        assertThat(heartbeat.sequence()).isEqualTo(-1);
    }

    @Test
    void theMadeUpSessionsAreEachALiveHeartbeatOfAnotherSession() {
        final Set<Integer> sessions = new HashSet<>();
        for (int index = 0; index < SessionForger.MADE_UP_SESSIONS; index++) {
            final int length = SessionForger.forge(buffer, SessionForger.Row.SESSIONS, index, SESSION, TOPIC, HIGHEST);

            assertThat(DatagramValidator.check(buffer, 0, length)).isEqualTo(DatagramCheck.VALID);
            final HeartbeatFlyweight heartbeat = new HeartbeatFlyweight();
            heartbeat.wrap(buffer, 0);
            assertThat(heartbeat.topicId()).isEqualTo(TOPIC);
            assertThat(heartbeat.isEndOfStream()).isFalse();
            sessions.add(heartbeat.sessionId());
        }
        assertThat(sessions).hasSize(SessionForger.MADE_UP_SESSIONS).doesNotContain(SESSION);
        assertThat(SessionForger.Row.SESSIONS.followsASession()).isFalse();
        assertThat(SessionForger.Row.END.followsASession()).isTrue();
    }

    @Test
    void theForgedUnrecoverableGivesUpAMillionDatagramsPastTheHighestHeard() {
        final int length = SessionForger.forge(buffer, SessionForger.Row.UNRECOVERABLE, 0, SESSION, TOPIC, HIGHEST);

        assertThat(DatagramValidator.check(buffer, 0, length)).isEqualTo(DatagramCheck.VALID);
        final UnrecoverableFlyweight gone = new UnrecoverableFlyweight();
        gone.wrap(buffer, 0);
        assertThat(gone.sessionId()).isEqualTo(SESSION);
        assertThat(gone.fromSequence()).isZero();
        assertThat(gone.toSequence()).isEqualTo(HIGHEST + 1_000_000);
    }

    @Test
    void theForgedDataFollowsTheHighestHeardOneMessageEach() {
        for (int index = 0; index < 3; index++) {
            final int length = SessionForger.forge(buffer, SessionForger.Row.DATA, index, SESSION, TOPIC, HIGHEST);

            assertThat(DatagramValidator.check(buffer, 0, length)).isEqualTo(DatagramCheck.VALID);
            final DataFlyweight data = new DataFlyweight();
            data.wrap(buffer, 0);
            assertThat(data.typeCode()).isEqualTo(FrameType.DATA.code());
            assertThat(data.sessionId()).isEqualTo(SESSION);
            assertThat(data.topicId()).isEqualTo(TOPIC);
            assertThat(data.sequence()).isEqualTo(HIGHEST + 1 + index);
        }
    }

    @Test
    void theForgedStatusNamesAMadeUpReceiverThatNeedsTheFirstDatagram() {
        final int length = SessionForger.forge(buffer, SessionForger.Row.STATUS, 0, SESSION, TOPIC, HIGHEST);

        assertThat(DatagramValidator.check(buffer, 0, length, FrameType.Port.CONTROL)).isEqualTo(DatagramCheck.VALID);
        final StatusFlyweight status = new StatusFlyweight();
        status.wrap(buffer, 0);
        assertThat(status.sessionId()).isEqualTo(SESSION);
        assertThat(status.topicId()).isEqualTo(TOPIC);
        assertThat(status.sequence()).isZero();
        assertThat(status.receiverId()).isEqualTo(SessionForger.MADE_UP_RECEIVER);
    }

    @Test
    void theForgedNaksEachAskForTheMostOneNakMayGoingDownFromTheHighestHeard() {
        final NakFlyweight nak = new NakFlyweight();
        for (int index = 0; index < 3; index++) {
            final int length = SessionForger.forge(buffer, SessionForger.Row.NAKS, index, SESSION, TOPIC, HIGHEST);

            assertThat(DatagramValidator.check(buffer, 0, length, FrameType.Port.CONTROL))
                .isEqualTo(DatagramCheck.VALID);
            nak.wrap(buffer, 0);
            assertThat(nak.rangeCount()).isOne();
            assertThat(nak.rangeTo(0)).isEqualTo(HIGHEST - index * 256L);
            assertThat(nak.rangeTo(0) - nak.rangeFrom(0) + 1).isEqualTo(NakFlyweight.MAX_DATAGRAMS_ASKED);
        }
        SessionForger.forge(buffer, SessionForger.Row.NAKS, 100, SESSION, TOPIC, HIGHEST);
        assertThat(nak.rangeFrom(0)).as("never below datagram 0").isZero();
    }

    @Test
    void rowsAreNamedAsOnTheCommandLine() {
        assertThat(SessionForger.Row.of("unrecoverable")).isEqualTo(SessionForger.Row.UNRECOVERABLE);
        assertThat(SessionForger.Row.of("data")).isEqualTo(SessionForger.Row.DATA);
    }
}
